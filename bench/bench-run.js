// What the runner benches share: a local slow server, bench samples, a model on endpoints, a run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { OpenAICompatibleChatModel } from '../dist/index.js';

/** Starts bench/slow-server.js (answers after `delayMs`, `capacity` at once); resolves with it and its URL. */
export async function startSlowServer(delayMs, capacity) {
  const args = [
    join(import.meta.dirname, 'slow-server.js'),
    String(delayMs),
    ...(capacity ? [String(capacity)] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, url };
}

/** `count` short NIAH samples whose ids and prompts start with `prefix`. */
export function benchSamples(count, prefix) {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    prompt: `${prefix} prompt number ${index}: which letter?`,
    promptChars: 40,
    promptTokens: { o200k_base: 12 },
    gold: { answers: ['x'] },
  }));
}

/** A model binding on the servers at `urls`, each with `concurrency` slots. */
export function benchModel(urls, concurrency) {
  return {
    label: 'bench',
    provider: 'openai-compatible',
    modelId: 'bench',
    endpoints: urls.map((url) => ({
      model: new OpenAICompatibleChatModel({ baseURL: `${url}/v1`, modelId: 'bench' }),
      concurrency,
    })),
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 16 },
  };
}

/** A run record with this id. */
export function benchRun(id) {
  return {
    id,
    suite: 'medodyssey',
    label: 'bench',
    datasetId: 'bench',
    datasetPath: null,
    model: {},
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: new Date().toISOString(),
  };
}
