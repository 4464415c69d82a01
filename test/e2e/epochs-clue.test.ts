import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { runCli, temporaryHome } from './cli.js';
import { resultIds } from './store-snapshot.js';

// `run clue --epochs`: a suite's own run, with a step after the answers (BERTScore) on every epoch.
const data = mkdtempSync(join(tmpdir(), 'medbench-clue-epochs-'));
let server: LlmTestServer;

beforeAll(async () => {
  writeClueFixtures(data);
  // An answer of its own per seed: epochs differ.
  server = await startLlmTestServer({
    fallback: (request) => {
      const seed = request.body.seed as number | undefined;
      return { kind: 'answer', text: seed === undefined ? 'ENTAILMENT' : `Fever ${seed}` };
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(data, { recursive: true, force: true });
});

describe('run clue --epochs', () => {
  it('answers every item twice, BERTScores every epoch, and names each task’s reducer', async () => {
    const home = temporaryHome();
    const encoder = writeTinyOnnxModel({ hiddenStates: true });
    const model = `openai-compatible:clinical@${server.url}/v1`;
    const result = await runCli([
      ...['--home', home, 'run', 'clue', '--data', data, '--model', model, '--epochs', '2'],
      ...['--context-window', '8000', '--tokenizer', 'o200k_base', '--bertscore-model', encoder],
      ...['--bertscore-layer', '1', '--tasks', 'mednli,meqsum'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    // 3 MedNLI and 2 MeQSum items, twice each; epoch 2 with seed 1.
    expect(server.requests).toHaveLength(10);
    expect(server.requests.filter((request) => request.body.seed === 1)).toHaveLength(5);
    expect(resultIds(home)).toHaveLength(10);
    // BERTScore of both epochs of the 2 MeQSum items, in the epochs' run.
    expect(result.stderr).toContain('BERTScore meqsum: allenai/scibert_scivocab_uncased layer 1, 4 items');
    expect(result.stdout).toContain('2 epochs, majority (mednli), mean (meqsum)');
  });
});
