import { serveWorkerJobs } from '../../io/worker-pool.js';
import { bertScoreFromTokens } from '../../metrics/bertscore.js';
import { type BertScoreJob, unpackTokens } from './bertscore-pass.js';

// A worker of `bertScoreF1s`: the F1 of each pair of a job, as the importing thread computes it.
void serveWorkerJobs<BertScoreJob, Float64Array>(
  ({ texts, pairs }) => {
    const unpacked = texts.map(unpackTokens);
    const f1s = new Float64Array(pairs.length / 2);
    for (let pair = 0; pair < f1s.length; pair++)
      f1s[pair] = bertScoreFromTokens(unpacked[pairs[2 * pair]!]!, unpacked[pairs[2 * pair + 1]!]!).f1;
    return f1s;
  },
  (f1s) => [f1s.buffer as ArrayBuffer],
);
