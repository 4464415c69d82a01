import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The official MedOdyssey release with the authors' published outputs, from
 * MEDBENCH_SHARED_DATA=<shared/data> (as CI sets it); undefined when it is not there, with a
 * SKIPPED warning naming the test file and what it checks on the release.
 */
export function publishedRelease(file: string, checks: string): string | undefined {
  const shared = process.env.MEDBENCH_SHARED_DATA;
  const release = shared ? join(shared, 'medodyssey') : undefined;
  if (release !== undefined && existsSync(join(release, 'evaluation_result'))) return release;
  console.warn(
    `SKIPPED ${file}: set MEDBENCH_SHARED_DATA to the shared data folder (holding medodyssey/evaluation_result) to ${checks}.`,
  );
  return undefined;
}
