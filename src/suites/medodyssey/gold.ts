import { z } from 'zod';

/** Gold data of each MedOdyssey task, as the builders write it and the scorers read it. */
export const niahGold = z.object({ answers: z.array(z.string()).min(1) });
export type NiahGold = z.infer<typeof niahGold>;

export const countingGold = z.object({ counts: z.array(z.number().int().nonnegative()) });
export type CountingGold = z.infer<typeof countingGold>;

export const termGold = z.object({ answer: z.string() });
export const kgGold = z.object({ triplets: z.array(z.string()) });
export const tableGold = z.object({ answers: z.array(z.string()) });
/** Case: accepted alternatives, each a list whose first string is the answer. */
export const caseGold = z.object({ alternatives: z.array(z.array(z.string())).min(1) });
