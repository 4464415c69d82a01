import { z } from 'zod';

/** Gold data of each CLUE task, as the builders write it and the scorers read it. */
export const labelGold = z.object({ label: z.string() });
export const choiceGold = z.object({ choice: z.string() });
export const referenceGold = z.object({ reference: z.string() });
export const codesGold = z.object({ codes: z.array(z.string()) });
