import { bindModel, type ModelOverrides } from '../../../compose/bind-model.js';
import { loadConfig } from '../../../compose/config.js';
import {
  answerGenerationRequests,
  generationOutputLimit,
  generationStorePath,
} from '../../../compose/generation-runs.js';
import { checkRestrictedData } from '../../../compose/restricted-data.js';
import type { RetryOptions, RunHooks } from '../../../compose/run-model.js';
import { MedbenchError } from '../../../core/errors.js';
import { Store } from '../../../store/store.js';
import { MEDEUREKA_TASK_KEYS } from '../datasets.js';
import {
  type DocumentQuery,
  parseGeneratedQuery,
  type QueryLanguage,
  tableQueryPrompt,
} from '../query-generation.js';
import { readDocuments } from '../read-documents.js';

/** What `generateQueries` takes: the documents, the generating model, the language and the example table. */
export interface GenerateQueriesRequest extends ModelOverrides, RetryOptions {
  /** A folder of .md/.txt documents or a JSON-lines file of { id?, text }. */
  documents: string;
  model: string;
  /** The prompt's language: zh (the paper's) or en (medbench's translation). */
  language: QueryLanguage;
  /** A document to show as the example table (the prompt's {example_table}). */
  exampleTable: string;
  /** The example's output (default: the paper's, or its translation). */
  exampleOutput?: string;
  /** The MedEureka task key the queries are filed under (default Table_<language>). */
  task?: string;
  restricted?: boolean;
  config?: string;
  home?: string;
  /** Keep no note, prompt or answer text in generate.sqlite: hashes and lengths only (a re-run asks again). */
  redact?: boolean;
}

/** Output limit of a generation: the paper's example answer is about 600 tokens of Chinese. */
const QUERY_MAX_TOKENS = 2000;

/**
 * `medbench generate queries`: one question per document of the user's collection, with the
 * paper's query-generation prompt, through the run pipeline (resumable, cached, restricted text
 * only to approved endpoints).
 */
export async function generateQueries(
  request: GenerateQueriesRequest,
  hooks: RunHooks = {},
): Promise<{ task: string; results: DocumentQuery[] }> {
  const task = request.task ?? `Table_${request.language}`;
  if (!MEDEUREKA_TASK_KEYS.includes(task))
    throw new MedbenchError({
      code: 'USAGE',
      message: `--task ${task} is not a MedEureka task key`,
      hint: `Use one of ${MEDEUREKA_TASK_KEYS.join(', ')}: the key decides the query instruction embedding models get (Figure C12).`,
    });
  const { config } = await loadConfig(request.config);
  const model = await bindModel({ spec: request.model, config, overrides: request });
  const restricted = request.restricted
    ? { what: request.documents, why: 'marked restricted (--restricted)' }
    : undefined;
  checkRestrictedData(model, restricted);
  const documents = readDocuments(request.documents);
  const requests = documents.map((document) => ({
    id: `query:${document.id}`,
    messages: [
      {
        role: 'user' as const,
        content: tableQueryPrompt({
          language: request.language,
          exampleTable: request.exampleTable,
          ...(request.exampleOutput !== undefined ? { exampleOutput: request.exampleOutput } : {}),
          table: document.text,
        }),
      },
    ],
    prefill: '',
  }));
  const store = new Store(generationStorePath(request.home));
  try {
    const answers = await answerGenerationRequests({
      store,
      model,
      config,
      retry: request,
      hooks,
      restricted,
      generation: {
        suite: 'medeureka',
        name: 'query-generation',
        step: 'queries',
        source: request.documents,
      },
      // The recipe's limit unless the flag or the config sets one.
      maxOutputTokens: generationOutputLimit({
        spec: request.model,
        config,
        flag: request.maxOutputTokens,
        protocol: QUERY_MAX_TOKENS,
      }),
      requests,
      ...(request.redact ? { redact: true } : {}),
    });
    return {
      task,
      results: documents.map((document) => {
        const output = answers.get(`query:${document.id}`)!;
        return { document, output, query: parseGeneratedQuery(output) };
      }),
    };
  } finally {
    store.close();
  }
}
