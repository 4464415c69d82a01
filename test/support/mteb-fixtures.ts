import { join } from 'node:path';

/** The folder of a published model's MTEB results (test/fixtures/mteb/README.md says where from). */
export const PUBLISHED_MTEB_FOLDER = join(
  import.meta.dirname,
  '../fixtures/mteb/results/intfloat__multilingual-e5-small/e4ce9877abf3edfe10b0d82785e83bdcb973e22e',
);

/** Its MedicalRetrieval TaskResult, as embeddings-benchmark/results holds it. */
export const PUBLISHED_TASK_RESULT = join(PUBLISHED_MTEB_FOLDER, 'MedicalRetrieval.json');
