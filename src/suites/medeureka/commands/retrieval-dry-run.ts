import type { Retriever } from '../../../core/retriever.js';
import { DenseRetriever } from '../../../runner/dense-retriever.js';
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
    sending(retriever, tasks, finished),
  ].join('\n');
}

/** What the retriever would send, and to where. */
function sending(
  retriever: Retriever,
  tasks: readonly RetrievalTask[],
  finished: ReadonlySet<string>,
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
  const characters = [...toEmbed.corpus, ...toEmbed.queries].reduce((sum, text) => sum + text.length, 0);
  const cached = new Set(corpus).size + new Set(queryInputs).size - texts;
  const counts = `${texts} texts (${toEmbed.corpus.length} corpus texts, ${toEmbed.queries.length} queries; ${characters} characters); ${cached} more are in the embedding cache`;
  const { provider, endpoint } = retriever.description as { provider?: string; endpoint?: string };
  if (provider === 'local-onnx')
    return `${retriever.name} would embed ${counts}, in this process: nothing is sent over the network.`;
  return `${retriever.name} at ${endpoint} would be sent ${counts}. Tokens and cost are not estimated: medbench has no tokenizer or prices for embedding models (the provider bills by its own count).`;
}
