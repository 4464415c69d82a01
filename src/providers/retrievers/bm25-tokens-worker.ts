import { serveWorkerJobs } from '../../io/worker-pool.js';
import { type TokenizedTexts, tokenizeTexts } from './bm25-tokens.js';

// A worker of `tokenizeCorpus`: one chunk of documents a job.
void serveWorkerJobs(
  (texts: string[]) => tokenizeTexts(texts),
  (tokenized: TokenizedTexts) => [
    tokenized.ids.buffer as ArrayBuffer,
    tokenized.starts.buffer as ArrayBuffer,
  ],
);
