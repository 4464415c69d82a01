import { Store } from '../../src/store/store.js';
import { testResultRecord, testRun } from './test-run.js';

/** An answer no page may run: it must show as text. */
export const HOSTILE_ANSWER = '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">';

/**
 * A tiny CLUE store for the review queue: two models' MeQSum answers (`meqsum-a`, `meqsum-b`,
 * `samples` each; model B's first answer is `HOSTILE_ANSWER`), a judge's run of suite
 * `clue-judge` and an imported run without outputs, neither of which may reach the queue.
 */
export function writeReviewStore(path: string, samples = 4): void {
  const store = new Store(path);
  const meqsum = (runId: string, index: number, rawOutput: string | null) =>
    testResultRecord({
      runId,
      sampleId: `meqsum-${index}`,
      task: 'meqsum',
      params: {},
      gold: { reference: `What treats condition ${index}?` },
      prompt: `Summarise the question of consumer ${index}.`,
      rawOutput,
      parsed: rawOutput,
      scores: { rougeL: 0.5 },
    });
  store.transaction(() => {
    for (const [id, label] of [
      ['run-model-a', 'model-a'],
      ['run-model-b', 'model-b'],
    ] as const) {
      store.ensureRun(testRun({ id, suite: 'clue', label }));
      for (let index = 0; index < samples; index++)
        store.putResult(
          meqsum(
            id,
            index,
            id === 'run-model-b' && index === 0
              ? HOSTILE_ANSWER
              : `Answer ${index} of the ${id === 'run-model-a' ? 'first' : 'second'} model`,
          ),
        );
    }
    store.ensureRun(testRun({ id: 'run-judge', suite: 'clue-judge', label: 'judge' }));
    store.putResult(meqsum('run-judge', 0, '{"verdicts": []}'));
    store.ensureRun(testRun({ id: 'run-imported', suite: 'clue', label: 'published', source: 'imported' }));
    store.putResult(meqsum('run-imported', 0, null));
  });
  store.close();
}
