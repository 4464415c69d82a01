import { resolve } from 'node:path';
import { z } from 'zod';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import { writeOutputFile } from '../../../compose/output-file.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { MedbenchError } from '../../../core/errors.js';
import { readJsonLinesFile } from '../../../io/text-file.js';
import { setF1 } from '../../../metrics/set-f1.js';
import { Store } from '../../../store/store.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { referenceGold } from '../gold.js';
import { clueSuite } from '../suite.js';

/** The CLUE tasks scored with UMLS F1. */
const UMLS_TASKS = ['problem-summary', 'medisumqa'] as const;

export function clueRun(store: Store, prefix: string) {
  const runs = store.listRuns({ suite: 'clue' }).filter((run) => run.id.startsWith(prefix));
  if (runs.length !== 1) {
    throw new MedbenchError({
      code: runs.length === 0 ? 'DATA_NOT_FOUND' : 'USAGE',
      message:
        runs.length === 0
          ? `No CLUE run with an id starting "${prefix}" in ${store.path}.`
          : `"${prefix}" names ${runs.length} CLUE runs; give more of the id.`,
      hint: '`medbench report --suite clue --json` lists the runs with their ids.',
    });
  }
  return runs[0]!;
}

/**
 * `medbench export clue-umls-texts --run <id>`: every output and reference a run scores with
 * UMLS F1, one JSON line per item ({ id, prediction, reference }), for a linker outside medbench
 * (the paper's: scispacy en_core_sci_sm with the UMLS linker, canonical names of the top candidates).
 */
export function exportClueUmlsTextsCommand(
  options: { run: string; out: string; home?: string },
  output: CommandOutput,
): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const run = clueRun(store, options.run);
    const lines = UMLS_TASKS.flatMap((task) =>
      store
        .results(run.id, { task })
        .filter((result) => result.status === 'ok')
        .map((result) =>
          JSON.stringify({
            id: result.sampleId,
            prediction: typeof result.parsed === 'string' ? result.parsed : (result.rawOutput ?? ''),
            reference: referenceGold.parse(result.gold).reference,
          }),
        ),
    );
    writeOutputFile(options.out, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    output.stdout(`Wrote ${lines.length} items to ${resolve(options.out)}.\n`);
  } finally {
    store.close();
  }
}

const entitiesSchema = z.object({
  id: z.string(),
  prediction: z.array(z.string()),
  reference: z.array(z.string()),
});

/**
 * `medbench rescore clue --run <id> --umls-entities <file>`: UMLS F1 of every item from entity
 * sets computed elsewhere (one JSON line per item: { id, prediction: [...], reference: [...] }),
 * compared as the scripts do (empty prediction: P 0; empty reference: R 0). Every scored item
 * needs its line; items never answered keep 0. The run records where its UMLS F1 came from.
 */
export function rescoreClueUmlsCommand(
  options: { run: string; umlsEntities: string; home?: string },
  output: CommandOutput,
): void {
  const path = resolve(options.umlsEntities);
  const entities = new Map(
    readJsonLinesFile(path, entitiesSchema, {
      expected: {
        id: 'the item id as `medbench export clue-umls-texts` wrote it (a string)',
        prediction: 'a list of the concept names or CUIs found in the output',
        reference: 'a list of the concept names or CUIs found in the reference',
      },
      hint: 'Each line is { "id": "...", "prediction": [...], "reference": [...] } (docs/clue.md, UMLS F1).',
    }).map(({ value }) => [value.id, value]),
  );
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    const run = clueRun(store, options.run);
    const results = UMLS_TASKS.flatMap((task) => store.results(run.id, { task }));
    const scored = results.filter((result) => result.status === 'ok');
    const missing = scored.filter((result) => !entities.has(result.sampleId));
    if (missing.length > 0) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${path}: ${missing.length} of the ${scored.length} items of run ${run.id} have no entity sets (first: ${missing[0]!.sampleId}).`,
        hint: 'Link every line that `medbench export clue-umls-texts` wrote; nothing was changed.',
      });
    }
    store.transaction(() => {
      for (const result of results) {
        const sets = entities.get(result.sampleId);
        // Never answered (too_long, error): wrong and counted, as every other metric.
        const umls =
          result.status === 'ok' && sets ? setF1(new Set(sets.prediction), new Set(sets.reference)).f1 : 0;
        store.updateScores(run.id, result.sampleId, { ...result.scores, umls });
      }
      const notComputed = { ...((run.parameters.notComputed as Record<string, string>) ?? {}) };
      delete notComputed.umls;
      store.updateRunParameters(run.id, {
        ...run.parameters,
        umls: { source: 'entities', file: path, items: scored.length },
        notComputed,
      });
    });
    suiteLeaderboard(store, clueSuite, { save: true });
    output.stdout(`UMLS F1 of ${scored.length} items of run ${run.id} now from ${path}.\n`);
  } finally {
    store.close();
  }
}

/** The run a command reads, as `--run <id>` gives it. */
const RUN_OPTION = { flags: '--run <id>', description: 'the run (an id prefix)', required: true } as const;

/** `medbench export clue-umls-texts`. */
export const exportClueUmlsTexts: SuiteCommand = {
  verb: 'export',
  name: 'clue-umls-texts',
  description:
    "a CLUE run's outputs and references scored with UMLS F1, as JSONL { id, prediction, reference }, for a linker such as scispacy",
  options: [RUN_OPTION, { flags: '--out <file>', description: 'JSONL file to write', required: true }],
  run: async ({ options }, { output }) =>
    exportClueUmlsTextsCommand(options as { run: string; out: string; home?: string }, output),
};

/** `medbench rescore clue`. */
export const rescoreClue: SuiteCommand = {
  verb: 'rescore',
  name: 'clue',
  description:
    'UMLS F1 of a CLUE run from entity sets (JSONL { id, prediction: [...], reference: [...] }, e.g. from scispacy)',
  options: [
    RUN_OPTION,
    {
      flags: '--umls-entities <file>',
      description: 'JSONL of the concept names (or CUIs) found in each output and reference',
      required: true,
    },
  ],
  run: async ({ options }, { output }) =>
    rescoreClueUmlsCommand(options as { run: string; umlsEntities: string; home?: string }, output),
};
