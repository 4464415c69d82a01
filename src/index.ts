/**
 * medbench's library API: the same pieces the CLI composes.
 *
 * @example
 * ```ts
 * import { Store, bindModel, readDataset, runSamples, medodysseyTasks } from 'medbench';
 * ```
 */

export { bindModel } from './compose/bind-model.js';
export { configSchemaFor, loadConfig } from './compose/config.js';
export { type EvaluateDatasetRequest, evaluateDataset } from './compose/evaluate-dataset.js';
export { resolveHome, storePathIn } from './compose/home.js';
export { type RetryOptions, type RunHooks, retryPolicyFrom, runModel } from './compose/run-model.js';
export { storedReport } from './compose/stored-report.js';
export { SUITES, suiteNamed } from './compose/suites.js';
export * from './core/index.js';
export { AnthropicChatModel } from './providers/anthropic/anthropic-chat-model.js';
export { ExtractiveBaselineChatModel } from './providers/baselines/extractive-baseline-chat-model.js';
export { httpOptions } from './providers/factory-options.js';
export { HttpEndpoint, type HttpEndpointOptions } from './providers/http-endpoint.js';
export { LocalOnnxEmbeddingModel } from './providers/local-onnx/local-onnx-embedding-model.js';
export { LocalOnnxTokenEncoder } from './providers/local-onnx/local-onnx-token-encoder.js';
export { OpenAICompatibleChatModel } from './providers/openai-compatible/openai-compatible-chat-model.js';
export { OpenAICompatibleEmbeddingModel } from './providers/openai-compatible/openai-compatible-embedding-model.js';
export {
  type ChatFactoryOptions,
  type DeclaredCapabilities,
  defineEmbedding,
  defineProvider,
  type EmbeddingDescriptor,
  type ProviderDescriptor,
} from './providers/provider-descriptor.js';
export {
  EMBEDDING_PROVIDERS,
  PROVIDERS,
  type ProviderRegistry,
  providersWith,
} from './providers/registry.js';
export { Bm25Retriever } from './providers/retrievers/bm25-retriever.js';
export { LsaRetriever } from './providers/retrievers/lsa-retriever.js';
export { readDataset, writeDataset } from './runner/dataset-file.js';
export { DenseRetriever } from './runner/dense-retriever.js';
export { embedMany } from './runner/embed-many.js';
export type { ModelBinding } from './runner/model-binding.js';
export { DEFAULT_RETRY_POLICY, withRetry } from './runner/retry.js';
export { runSamples } from './runner/run-samples.js';
export { exactSearch } from './search/exact-search.js';
export { EmbeddingCache } from './store/embedding-cache.js';
export { Store } from './store/store.js';
export { buildClueReport, renderClueHtml, renderClueText } from './suites/clue/clue-report.js';
export {
  type GenerateMeDiSumQaRequest,
  generateMeDiSumQa,
} from './suites/clue/commands/generate-medisumqa.js';
export { formatMeDiSumCodeLines, generateMeDiSumCode } from './suites/clue/generate-medisumcode.js';
export { readIcdTables, shippedIcdTables } from './suites/clue/icd-tables.js';
export { clueSuite } from './suites/clue/suite.js';
export {
  type EvaluateRetrieverRequest,
  evaluateRetriever,
} from './suites/medeureka/commands/evaluate-retriever.js';
export {
  type GenerateQueriesRequest,
  generateQueries,
} from './suites/medeureka/commands/generate-queries.js';
export { evaluateRetrieval } from './suites/medeureka/evaluate.js';
export { applyInstruction, instructionFor, MEDEUREKA_INSTRUCTIONS } from './suites/medeureka/instructions.js';
export { loadMedEurekaRelease } from './suites/medeureka/load-release.js';
export {
  buildMedEurekaReport,
  renderMedEurekaHtml,
  renderMedEurekaText,
} from './suites/medeureka/medeureka-report.js';
export { medeurekaSuite } from './suites/medeureka/suite.js';
export { medodysseyTasks, prepareMedOdysseyBuild } from './suites/medodyssey/index.js';
export { extractJsonAnswer, findFlatJsonObjects } from './suites/medodyssey/json-answer.js';
export { renderMedOdysseyHtml } from './suites/medodyssey/medodyssey-html.js';
export { buildMedOdysseyReport } from './suites/medodyssey/medodyssey-report.js';
export { renderMedOdysseyText } from './suites/medodyssey/medodyssey-text.js';
export { readPublishedOutputs } from './suites/medodyssey/published-outputs.js';
export { medodysseySuite } from './suites/medodyssey/suite.js';
export { getTokenizer, listTokenizers, resolveTokenizerName } from './tokenizers/registry.js';
export { VERSION } from './version.js';
export { writeStaticSite } from './view/static-site.js';
export { ViewData } from './view/view-data.js';
export { startViewServer } from './view/view-server.js';
