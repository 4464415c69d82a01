import { errorFields } from '../../io/error-fields.js';
import { LlamaCppModel, type LlamaCppOptions } from './llama-cpp-model.js';
import type { HostCall, HostReply } from './llama-cpp-process.js';

// The child process `LlamaCppProcess` runs llama.cpp in: llama.cpp stopping its process (an
// assertion on a damaged or unsupported model) then stops only this one. Ends with its parent.
const model = new LlamaCppModel(JSON.parse(process.argv[2] ?? '{}') as LlamaCppOptions);
const cancels = new Map<number, AbortController>();
const reply = (message: HostReply) => process.send?.(message);

process.on('disconnect', () => process.exit(0));
// Loaded at once: the parent then knows that a later stop happened while answering.
model.probe().then(
  () => reply({ loaded: true }),
  () => undefined, // the calls report it
);
process.on('message', (call: HostCall) => {
  if ('cancel' in call) cancels.get(call.cancel)?.abort();
  else void answer(call);
});

async function answer(call: Exclude<HostCall, { cancel: number }>): Promise<void> {
  try {
    let value: unknown = null;
    if (call.method === 'probe') value = await model.probe();
    else if (call.method === 'countTokens') value = await model.countTokens(call.messages);
    else if (call.method === 'generate') {
      const controller = new AbortController();
      cancels.set(call.id, controller);
      try {
        value = await model.generate({ ...call.request, signal: controller.signal });
      } finally {
        cancels.delete(call.id);
      }
    } else await model.dispose();
    reply({ id: call.id, value });
  } catch (error) {
    reply({ id: call.id, error: errorFields(error) });
  }
}
