import { parseChoiceList } from '../../../compose/parse-options.js';
import { checkRestrictedData, type DataRestriction } from '../../../compose/restricted-data.js';
import { MedbenchError } from '../../../core/errors.js';
import type { ModelBinding } from '../../../runner/model-binding.js';
import { listTokenizers } from '../../../tokenizers/registry.js';
import type { ClueResources } from '../clue-tasks.js';
import { ConceptMatcher } from '../concept-matcher.js';
import { shippedIcdTables } from '../icd-tables.js';
import {
  CLUE_TASKS,
  type ClueTaskName,
  findClueFiles,
  loadIcd10Codes,
  MIMIC_DERIVED_TASKS,
} from '../load-tasks.js';
import { loadMrconso } from '../mrconso.js';
import { CLUE_PROTOCOL, type ClueProtocol } from '../protocols.js';
import type { BertScorePlan } from './clue-bertscore.js';
import type { ClueRunRequest } from './clue-run-options.js';

/** The protocol and the tasks to run: those asked for whose official file is in --data. */
export function clueTasksIn(request: ClueRunRequest, onNotice: (text: string) => void) {
  const protocol: ClueProtocol = CLUE_PROTOCOL[request.protocol ?? 'paper-2024'];
  const { files, missing } = findClueFiles(request.data);
  const wanted = request.tasks ? parseChoiceList('--tasks', request.tasks, CLUE_TASKS) : [...CLUE_TASKS];
  for (const task of missing.filter((name) => wanted.includes(name)))
    onNotice(`skipped ${task}: no official file for it in ${request.data}`);
  const tasks = wanted.filter((task) => files[task] !== undefined);
  if (tasks.length === 0) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No CLUE task file in ${request.data}.`,
      hint: 'Expected the official names: mli_test_v1.jsonl, BioNLP2023-1A-Test.csv, MeQSum_*.xlsx, benchmark_v5.json, MeDiSumQA*.json, MeDiSumCode*.json.',
    });
  }
  return { protocol, files, tasks };
}

/** UMLS, ICD-10 and BERTScore resources, each read and checked before anything runs. */
export async function clueResources(
  request: ClueRunRequest,
  bertscore: BertScorePlan,
): Promise<ClueResources> {
  return {
    ...(request.umls
      ? {
          umls: new ConceptMatcher(
            await loadMrconso(request.umls, {
              ...(request.umlsLanguage ? { language: request.umlsLanguage } : {}),
            }),
          ),
        }
      : {}),
    // Without --icd10, the `icd10` package's own table (shipped), which the scripts consulted.
    icd10Codes: request.icd10 ? loadIcd10Codes(request.icd10) : new Set(shippedIcdTables().icd10.keys()),
    bertscore: Object.fromEntries(
      Object.entries(bertscore.tasks).map(([task, entry]) => [task, `${entry.encoder} layer ${entry.layer}`]),
    ),
  };
}

/** LongHealth cuts documents with the model's tokenizer: one that can encode and decode. */
export function checkLongHealthTokenizer(
  model: ModelBinding | undefined,
  tasks: readonly ClueTaskName[],
): void {
  if (!model || !tasks.includes('longhealth') || (model.tokenizer?.encode && model.tokenizer.decode)) return;
  const usable = listTokenizers().filter((entry) => entry.cuts);
  throw new MedbenchError({
    code: 'TOKENIZER_UNKNOWN',
    message: `LongHealth cuts its documents at the token budget with the target model's tokenizer, and ${
      model.tokenizer
        ? `"${model.tokenizer.name}" only counts tokens (it cannot encode and decode)`
        : `medbench has no tokenizer for "${model.modelId}"`
    }.`,
    hint: `Give the model one medbench can cut with: --tokenizer ${usable.map((entry) => entry.name).join(', ')} (${usable.map((entry) => `${entry.name}: ${entry.description}`).join('; ')}), or tokenizer in medbench.config.json; or leave LongHealth out (--tasks).`,
  });
}

/** What of a CLUE run is restricted, and why; undefined when nothing is (a judge of the run obeys it too). */
export function clueRestriction(
  tasks: readonly ClueTaskName[],
  marked: boolean,
): DataRestriction | undefined {
  const mimic = tasks.flatMap((task) => MIMIC_DERIVED_TASKS[task] ?? []);
  if (mimic.length > 0)
    return {
      what: `CLUE ${mimic.join(', ')}`,
      why: 'derived from MIMIC, PhysioNet credentialed data',
    };
  return marked ? { what: `CLUE ${tasks.join(', ')}`, why: 'marked restricted (--restricted)' } : undefined;
}

/**
 * What the data allow, checked before any file is built into prompts, anything sent or stored:
 * restricted tasks go only to approved endpoints, and --redact excludes BERTScore (computed later
 * from stored outputs). Returns the restriction the run carries.
 */
export function checkDataUse(
  request: ClueRunRequest,
  tasks: readonly ClueTaskName[],
  bertscore: BertScorePlan,
  model: ModelBinding | undefined,
): DataRestriction | undefined {
  if (request.redact && Object.keys(bertscore.tasks).length > 0)
    throw new MedbenchError({
      code: 'USAGE',
      message:
        '--redact cannot be combined with --bertscore-model: BERTScore is computed after the run from the stored outputs, which --redact does not keep.',
      hint: 'Run without --bertscore-model (BERTScore is then reported as not computed).',
    });
  const restricted = clueRestriction(tasks, request.restricted === true);
  if (model) checkRestrictedData(model, restricted);
  return restricted;
}

/** The files a run reads, by role, for its manifest: each task's official file, MRCONSO and the ICD-10 table given. */
export function clueInputFiles(
  request: ClueRunRequest,
  tasks: readonly ClueTaskName[],
  files: Partial<Record<ClueTaskName, string>>,
): Array<{ role: string; path: string }> {
  return [
    ...tasks.map((task) => ({ role: `clue ${task}`, path: files[task]! })),
    ...(request.umls ? [{ role: 'umls', path: request.umls }] : []),
    ...(request.icd10 ? [{ role: 'icd10', path: request.icd10 }] : []),
  ];
}
