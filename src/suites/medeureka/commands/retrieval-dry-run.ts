import { MedbenchError } from '../../../core/errors.js';
import type { Retriever } from '../../../core/retriever.js';
import type { Tokenizer } from '../../../core/tokenizer.js';
import { DenseRetriever } from '../../../runner/dense-retriever.js';
import { getTokenizer } from '../../../tokenizers/registry.js';
import type { RetrievalTask } from '../assemble-tasks.js';
import { instructedQueries } from '../evaluate.js';

interface TaskLine {
  task: string;
  queries: number;
  stored: number;
  corpus: number;
}

/**
 * What a MedEureka run would do, without doing it: per task the queries left to rank against the
 * whole corpus and, for an embedding model, the texts it would embed (those not in the embedding
 * cache) and where they would go. A sparse retriever sends nothing.
 */
export function retrievalDryRun(options: {
  tasks: readonly RetrievalTask[];
  retriever: Retriever;
  label: string;
  finished: ReadonlySet<string>;
  /** The embedding model's own tokenizer, when medbench has it (OpenAI's text-embedding models). */
  tokenizer?: Tokenizer;
}): string {
  const { tasks, retriever, finished } = options;
  const lines: TaskLine[] = tasks.map((task) => ({
    task: task.key,
    queries: task.queries.length,
    stored: task.queries.filter((query) => finished.has(query.id)).length,
    corpus: task.corpus.length,
  }));
  const total = lines.reduce(
    (sum, line) => ({
      task: 'all',
      queries: sum.queries + line.queries,
      stored: sum.stored + line.stored,
      corpus: sum.corpus + line.corpus,
    }),
    { task: 'all', queries: 0, stored: 0, corpus: 0 },
  );
  return [
    `Dry run: nothing was sent or stored. ${options.label}: each query left is ranked against its task's whole corpus.`,
    'task\tqueries\talready stored\tcorpus texts',
    ...[...lines, total].map((line) => `${line.task}\t${line.queries}\t${line.stored}\t${line.corpus}`),
    sending(retriever, tasks, finished, options.tokenizer),
  ].join('\n');
}

/** What the retriever would send, and to where. */
function sending(
  retriever: Retriever,
  tasks: readonly RetrievalTask[],
  finished: ReadonlySet<string>,
  tokenizer: Tokenizer | undefined,
): string {
  // A task whose queries are all stored is not ranked again (its corpus is not embedded).
  const left = tasks.filter((task) => task.queries.some((query) => !finished.has(query.id)));
  if (!(retriever instanceof DenseRetriever))
    return `${retriever.name} ranks in this process: nothing is sent to a model and nothing is paid.`;
  const queryInputs = left.flatMap(
    (task) =>
      instructedQueries(
        { ...task, queries: task.queries.filter((query) => !finished.has(query.id)) },
        retriever.instructionTemplate,
      ).queryInputs,
  );
  const corpus = left.flatMap((task) => task.corpus);
  const toEmbed = retriever.toEmbed({ corpus, queryInputs });
  const texts = toEmbed.corpus.length + toEmbed.queries.length;
  const sent = [...toEmbed.corpus, ...toEmbed.queries];
  const characters = sent.reduce((sum, text) => sum + text.length, 0);
  const tokens = tokenizer
    ? `, ${sent.reduce((sum, text) => sum + tokenizer.count(text), 0)} ${tokenizer.name} tokens`
    : '';
  const cached = new Set(corpus).size + new Set(queryInputs).size - texts;
  const counts = `${texts} texts (${toEmbed.corpus.length} corpus texts, ${toEmbed.queries.length} queries; ${characters} characters${tokens}); ${cached} more are in the embedding cache`;
  const { provider, endpoint } = retriever.description as { provider?: string; endpoint?: string };
  if (provider === 'local-onnx')
    return `${retriever.name} would embed ${counts}, in this process: nothing is sent over the network.`;
  const unknown = tokenizer
    ? 'The cost is not estimated: medbench has no prices for embedding models.'
    : `Tokens and cost are not estimated: medbench knows no tokenizer for ${retriever.name} and no prices for embedding models (the provider bills by its own count).`;
  return `${retriever.name} at ${endpoint} would be sent ${counts}. ${unknown}`;
}

/** The tokenizer of an embedding model that is sent its texts, when medbench has it (for the dry run). */
export async function embeddingTokenizer(retriever: Retriever): Promise<Tokenizer | undefined> {
  if (!(retriever instanceof DenseRetriever) || retriever.description.provider === 'local-onnx')
    return undefined;
  try {
    const tokenizer = await getTokenizer(retriever.name);
    return tokenizer.exact ? tokenizer : undefined;
  } catch (error) {
    if (MedbenchError.is(error) && error.code === 'TOKENIZER_UNKNOWN') return undefined;
    throw error;
  }
}
