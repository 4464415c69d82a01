import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { answerBody, type Behaviour, type RecordedRequest } from './llm-test-server.js';
import { PROVIDER_WIRES } from './providers/wires.js';

/** One line of an OpenAI batch input file (OpenAI Batch API reference, "The request input object"). */
const inputLineSchema = z.object({
  custom_id: z.string(),
  method: z.literal('POST'),
  url: z.literal('/v1/chat/completions'),
  body: z.record(z.string(), z.unknown()),
});

export interface BatchStandIn {
  /** The input lines read, in order (what an engine received). */
  requests: Array<z.infer<typeof inputLineSchema>>;
}

/**
 * A local stand-in for an engine that answers an OpenAI batch file (`vllm run-batch`, OpenAI's
 * Batch API, LiteLLM's batch endpoint): reads `input`, answers each line as the LLM test server
 * answers that body (`behave`, its fallback's signature), and writes the output file's lines
 * (`{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`) in the
 * input's order. An error status is answered with the provider's error body and status, as
 * OpenAI's error file holds it. A line that is not a batch request line throws, as vLLM refuses it.
 */
export function answerBatchFile(
  input: string,
  output: string,
  behave: (request: RecordedRequest) => Behaviour,
): BatchStandIn {
  const wire = PROVIDER_WIRES['openai-compatible'];
  const route = { kind: 'generate' as const };
  const requests = readFileSync(input, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => inputLineSchema.parse(JSON.parse(line)));
  const lines = requests.map((request, index) => {
    const rawBody = JSON.stringify(request.body);
    const behaviour = behave({
      method: request.method,
      path: request.url,
      headers: {},
      body: request.body,
      rawBody,
      receivedAt: Date.now(),
      remotePort: undefined,
    });
    const response =
      behaviour.kind === 'status'
        ? { status_code: behaviour.status, body: JSON.parse(wire.error(behaviour.status).body) as unknown }
        : { status_code: 200, body: answerBody(wire, route, request.body, behaviour) };
    return JSON.stringify({
      id: `batch_req_${index + 1}`,
      custom_id: request.custom_id,
      response: { ...response, request_id: `req_${index + 1}` },
      error: null,
    });
  });
  writeFileSync(output, lines.map((line) => `${line}\n`).join(''));
  return { requests };
}
