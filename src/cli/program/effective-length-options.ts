import type { Command } from 'commander';
import { NOLIMA_FRACTION, RULER_THRESHOLD } from '../../metrics/effective-length.js';
import { decimal } from './program-context.js';

/** `report`'s options of the effective-length rules (MedOdyssey): RULER's threshold and NoLiMa's fraction. */
export function addEffectiveLengthOptions(command: Command): Command {
  return command
    .option(
      '--effective-threshold <score>',
      `MedOdyssey effective length, RULER's rule: the score (0–100) every level up to it must reach (default ${RULER_THRESHOLD})`,
      decimal('--effective-threshold', { min: 0, max: 100 }),
    )
    .option(
      '--effective-fraction <share>',
      `MedOdyssey effective length, NoLiMa's rule: the share of the shortest level's score every level up to it must keep (default ${NOLIMA_FRACTION})`,
      decimal('--effective-fraction', { min: 0, max: 1 }),
    );
}
