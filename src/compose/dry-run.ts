import type { Sample } from '../core/sample.js';
import type { Tokenizer } from '../core/tokenizer.js';
import type { ModelBinding } from '../runner/model-binding.js';

interface TaskEstimate {
  samples: number;
  done: number;
  tooLong: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * What the run judges too_long by, so the estimate counts with it too: the model's tokenizer, else
 * the fallback estimate the run's warning names (none with `--count-tokens endpoint`: the endpoint
 * counts, and a dry run asks it nothing).
 */
function counterOf(model: ModelBinding): Tokenizer | undefined {
  return model.tokenizer ?? model.fallbackTokenizer;
}

/** What the prompt sizes are counted in, as the report's first line says it. */
function sizeUnit(model: ModelBinding): string {
  if (model.tokenizer) return `${model.tokenizer.name} tokens`;
  if (model.fallbackTokenizer)
    return `${model.fallbackTokenizer.name} tokens (an estimate: no tokenizer is known for ${model.modelId})`;
  return model.countTokens === 'endpoint'
    ? 'UTF-8 bytes (the endpoint counts tokens, and a dry run asks it nothing: an upper bound)'
    : 'UTF-8 bytes (no tokenizer known: an upper bound)';
}

/** A sample's prompt tokens by `tokenizer`: the dataset's count, or counted now. */
function promptTokens(sample: Sample, tokenizer: Tokenizer | undefined): number | undefined {
  if (!tokenizer) return undefined;
  const built = sample.promptTokens[tokenizer.name];
  if (built !== undefined) return built;
  const messages = sample.messages ?? [{ role: 'user', content: sample.prompt }];
  return messages.reduce((sum, message) => sum + tokenizer.count(message.content), 0);
}

/** The samples left whose prompts the model's tokenizer counts now (the dataset has no count of it). */
function countedNow(samples: readonly Sample[], model: ModelBinding, finished: ReadonlySet<string>): number {
  const name = counterOf(model)?.name;
  if (name === undefined) return 0;
  return samples.filter((sample) => !finished.has(sample.id) && sample.promptTokens[name] === undefined)
    .length;
}

/**
 * What a run would send, per task, without sending anything: samples, those already stored,
 * those beyond the window, prompt tokens and the output limit of what is left, and the most it
 * may cost at the model's prices (every output at its full limit). Prompts the dataset holds no
 * count of under the model's tokenizer are counted now, told through `onStage` (minutes on a long grid).
 */
export function dryRunReport(
  samples: readonly Sample[],
  model: ModelBinding,
  finished: ReadonlySet<string>,
  onStage?: (stage: string, done: number, total: number) => void,
): string {
  const byTask = new Map<string, TaskEstimate>();
  const toCount = countedNow(samples, model, finished);
  const counter = counterOf(model);
  const stage = `dry run: counting prompt tokens with ${counter?.name} (the build did not count them)`;
  let counted = 0;
  if (toCount > 0) onStage?.(stage, 0, toCount);
  for (const sample of samples) {
    const entry = byTask.get(sample.task) ?? {
      samples: 0,
      done: 0,
      tooLong: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    byTask.set(sample.task, entry);
    entry.samples++;
    if (finished.has(sample.id)) {
      entry.done++;
      continue;
    }
    const tokens = promptTokens(sample, counter) ?? Buffer.byteLength(sample.prompt, 'utf8');
    if (toCount > 0 && sample.promptTokens[counter!.name] === undefined) onStage?.(stage, ++counted, toCount);
    if (model.contextWindow !== undefined && counter && tokens > model.contextWindow) {
      entry.tooLong++;
      continue;
    }
    entry.inputTokens += tokens;
    entry.outputTokens +=
      (sample.generation?.maxOutputTokens ?? model.parameters.maxOutputTokens) +
      (model.parameters.thinkingBudget ?? 0);
  }
  const prices = model.prices;
  const cost = (entry: TaskEstimate) =>
    prices
      ? (
          (entry.inputTokens * prices.inputPerMillion + entry.outputTokens * prices.outputPerMillion) /
          1e6
        ).toFixed(4)
      : '—';
  const total: TaskEstimate = { samples: 0, done: 0, tooLong: 0, inputTokens: 0, outputTokens: 0 };
  const lines = [...byTask].map(([task, entry]) => {
    for (const key of Object.keys(total) as Array<keyof TaskEstimate>) total[key] += entry[key];
    return `${task}\t${entry.samples}\t${entry.done}\t${entry.tooLong}\t${entry.inputTokens}\t${entry.outputTokens}\t${cost(entry)}`;
  });
  return [
    `Dry run: nothing was sent or stored. ${model.label}; prompt sizes in ${sizeUnit(model)}; cost at most, every output at its full limit${prices ? '' : ' (no prices for this model: give "prices" in the config)'}.`,
    'task\tsamples\talready stored\ttoo_long\tprompt tokens to send\toutput token limit\tcost at most',
    ...lines,
    `all\t${total.samples}\t${total.done}\t${total.tooLong}\t${total.inputTokens}\t${total.outputTokens}\t${cost(total)}`,
  ].join('\n');
}
