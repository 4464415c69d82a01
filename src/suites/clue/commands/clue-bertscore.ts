import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MedbenchError } from '../../../core/errors.js';
import { LocalOnnxTokenEncoder } from '../../../providers/local-onnx/local-onnx-token-encoder.js';
import type { Store } from '../../../store/store.js';
import { bertScoreF1s } from '../bertscore-pass.js';
import { referenceGold } from '../gold.js';
import type { ClueTaskName } from '../load-tasks.js';
import { BERTSCORE_ENCODERS, type BertScoreEncoderName, type ClueProtocol } from '../protocols.js';

/** The authors' bert_score fork cuts every text at 512 tokens. */
const BERTSCORE_MAX_LENGTH = 512;

/**
 * `--bertscore-model` values: `<encoder name>=<folder>` (the names the protocols use, e.g.
 * allenai/scibert_scivocab_uncased), or a bare `<folder>` used for every encoder.
 */
export function bertscoreFolders(
  values: readonly string[] | undefined,
): Partial<Record<BertScoreEncoderName | '*', string>> {
  const folders: Partial<Record<BertScoreEncoderName | '*', string>> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    const name = at === -1 ? '*' : value.slice(0, at);
    const folder = resolve(at === -1 ? value : value.slice(at + 1));
    if (name !== '*' && !(name in BERTSCORE_ENCODERS)) {
      throw new MedbenchError({
        code: 'USAGE',
        message: `--bertscore-model ${value}: unknown encoder "${name}".`,
        hint: `Name one of ${Object.keys(BERTSCORE_ENCODERS).join(', ')} (or give a bare folder for every encoder).`,
      });
    }
    if (!existsSync(folder)) {
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `--bertscore-model ${value}: folder not found: ${folder}`,
        hint: 'Export the encoder to ONNX (docs/clue.md, "BERTScore") and point to the folder holding model.onnx and tokenizer.json.',
      });
    }
    folders[name as BertScoreEncoderName | '*'] = folder;
  }
  return folders;
}

export interface BertScorePlan {
  /** task → the encoder it uses and where it is, for the tasks that can be scored. */
  tasks: Partial<
    Record<
      ClueTaskName,
      { encoder: BertScoreEncoderName; folder: string; layer: number | 'last'; lowercase: boolean }
    >
  >;
  /** task → why its BERTScore is not computed. */
  missing: Partial<Record<ClueTaskName, string>>;
}

/** Which tasks get BERTScore under a protocol, with which encoder and layer. */
export function planBertScore(options: {
  protocol: ClueProtocol;
  tasks: readonly ClueTaskName[];
  folders: Partial<Record<BertScoreEncoderName | '*', string>>;
  /** A layer instead of the protocol's; `last`: the export's last_hidden_state (an export cut to the layer). */
  layer?: number | 'last';
}): BertScorePlan {
  const plan: BertScorePlan = { tasks: {}, missing: {} };
  for (const task of options.tasks) {
    const rule = options.protocol.tasks[task].bertscore;
    if (!rule) continue;
    const folder = options.folders[rule.encoder] ?? options.folders['*'];
    if (!folder) {
      plan.missing[task] =
        `no local export of ${rule.encoder} given (--bertscore-model ${rule.encoder}=<folder>)`;
      continue;
    }
    plan.tasks[task] = {
      encoder: rule.encoder,
      folder,
      layer: options.layer ?? BERTSCORE_ENCODERS[rule.encoder].layer,
      lowercase: rule.lowercase,
    };
  }
  return plan;
}

/** The encoders a run opened, by `<folder>#<layer>`. */
export type BertScoreEncoders = ReadonlyMap<string, LocalOnnxTokenEncoder>;

/**
 * Opens each planned encoder once and encodes a probe with it, so that a missing file or
 * layer is an error before anything runs (not after the model has answered).
 */
export async function openBertScoreEncoders(plan: BertScorePlan): Promise<BertScoreEncoders> {
  const encoders = new Map<string, LocalOnnxTokenEncoder>();
  try {
    for (const entry of Object.values(plan.tasks)) {
      const key = `${entry.folder}#${entry.layer}`;
      if (encoders.has(key)) continue;
      const encoder = new LocalOnnxTokenEncoder({
        folder: entry.folder,
        ...(entry.layer === 'last' ? {} : { layer: entry.layer }),
        maxLength: BERTSCORE_MAX_LENGTH,
      });
      encoders.set(key, encoder);
      await encoder.encodeTokens(['probe']);
    }
  } catch (error) {
    await closeBertScoreEncoders(encoders);
    throw error;
  }
  return encoders;
}

/** Releases the encoders' ONNX sessions. */
export async function closeBertScoreEncoders(encoders: BertScoreEncoders): Promise<void> {
  await Promise.all([...encoders.values()].map((encoder) => encoder.close()));
}

/**
 * Adds BERTScore F1 to a run's ok generation results that lack it, per task with its
 * protocol's encoder, layer and casing, in one transaction. Resumed runs encode only what is new.
 */
export async function addBertScores(
  store: Store,
  runId: string,
  plan: BertScorePlan,
  encoders: BertScoreEncoders,
  /** Told one line per task scored. */
  onNotice: (text: string) => void = () => {},
): Promise<void> {
  const updates: Array<{ sampleId: string; scores: Record<string, number> }> = [];
  for (const [task, entry] of Object.entries(plan.tasks)) {
    const pending = store
      .results(runId, { task })
      .filter((result) => result.status === 'ok' && !('bertscore' in result.scores));
    if (pending.length === 0) continue;
    const encoder = encoders.get(`${entry.folder}#${entry.layer}`)!;
    const started = Date.now();
    const cased = (text: string) => (entry.lowercase ? text.toLowerCase() : text);
    const f1s = await bertScoreF1s(
      pending.map((result) => ({
        prediction: cased(typeof result.parsed === 'string' ? result.parsed : (result.rawOutput ?? '')),
        reference: cased(referenceGold.parse(result.gold).reference),
      })),
      encoder,
    );
    pending.forEach((result, index) => {
      updates.push({ sampleId: result.sampleId, scores: { ...result.scores, bertscore: f1s[index]! } });
    });
    onNotice(
      `BERTScore ${task}: ${entry.encoder} layer ${entry.layer}${entry.lowercase ? ', lower-cased' : ''}, ${pending.length} items in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
  store.transaction(() => {
    for (const update of updates) store.updateScores(runId, update.sampleId, update.scores);
  });
}
