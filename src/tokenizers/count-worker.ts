import { serveWorkerJobs } from '../io/worker-pool.js';
import type { CountJob } from './count-many.js';
import { getTokenizer } from './registry.js';

// A worker of `countMany`: counts each text of a job with the named tokenizer, loaded once.
void serveWorkerJobs<CountJob, Float64Array>(
  async ({ tokenizer: name, texts }) => {
    const tokenizer = await getTokenizer(name);
    const counts = new Float64Array(texts.length);
    for (let index = 0; index < texts.length; index++) counts[index] = tokenizer.count(texts[index]!);
    return counts;
  },
  (counts) => [counts.buffer as ArrayBuffer],
);
