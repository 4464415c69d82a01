/**
 * medbench's library API: the same pieces the CLI composes, and nothing of the CLI.
 *
 * - Runs: `evaluateDataset` (a built dataset file), `evaluateSuite` (a suite's own run from its
 *   data folder), `runSuite` with a plan (`datasetPlan`), `runModel`, `runSamples`.
 * - Manifests: a stored run's manifest (`runManifest`, `runManifestSchema`), and a run again from
 *   one (`rerunManifest`, `readManifest`): docs/manifests.md.
 * - Reports: `storedReport` of a suite's stored runs, each suite's `renderText`/`renderHtml`/`tables`;
 *   the `report --json` document (`reportDocument`, `REPORT_SCHEMA_VERSION`) and the JSON Schemas
 *   of it and of the config (`reportJsonSchema`, `configJsonSchema`); the store itself (`Store`, `storePathIn`).
 * - Models: every provider's adapter (OpenAI-compatible, Anthropic, Azure OpenAI, Amazon
 *   Bedrock, Gemini and Vertex AI, Ollama, GGUF on this machine, local ONNX encoders, the
 *   extractive baseline), the retrievers (BM25, LSA, dense), and the registries the CLI binds
 *   model specs with (`PROVIDERS`, `bindModel`).
 *
 * Importing it loads none of the optional parts (node-llama-cpp, onnxruntime-node, the Bedrock,
 * Azure identity and Gemini SDKs): each loads on a model's first use, and a missing one is a
 * `PART_MISSING` error naming what to install (`OPTIONAL_PARTS`, `loadOptionalPart`).
 *
 * @example
 * ```ts
 * import { evaluateSuite, medeurekaSuite, Store, storedReport, storePathIn } from 'medbench';
 * ```
 * docs/library.md has a whole example.
 */

export { bindModel } from './compose/bind-model.js';
export { configSchemaFor, loadConfig } from './compose/config.js';
export { datasetPlan } from './compose/dataset-plan.js';
export { type EpochRequest, epochPlan, parseEpochReducer } from './compose/epoch-plan.js';
export { type EvaluateDatasetRequest, evaluateDataset } from './compose/evaluate-dataset.js';
export { evaluateSuite } from './compose/evaluate-suite.js';
export { type ExportRequestsOptions, type ExportSummary, exportRequests } from './compose/export-requests.js';
export { resolveHome, storePathIn } from './compose/home.js';
export { type ImportSummary, importResponses } from './compose/import-responses.js';
export {
  configJsonSchema,
  REPORT_SCHEMA_VERSION,
  type ReportSections,
  reportDocument,
  reportDocumentSchema,
  reportJsonSchema,
} from './compose/report-document.js';
export { type RerunRequest, readManifest, rerunManifest } from './compose/rerun.js';
export { runManifest } from './compose/run-manifest.js';
export { type RunManifest, type RunRecipe, runManifestSchema } from './compose/run-manifest-schema.js';
export { type RetryOptions, type RunHooks, retryPolicyFrom, runModel } from './compose/run-model.js';
export {
  type ComputedWork,
  type ModelWork,
  type RunOutcome,
  type RunPlan,
  type RunRequest,
  runSuite,
  type SuiteRunRequest,
} from './compose/run-suite.js';
export { storedReport } from './compose/stored-report.js';
export type { CommandOption, SuiteCommand, SuitePlugin, SuiteRunDefinition } from './compose/suite-plugin.js';
export * from './compose/suites.js';
export * from './core/index.js';
export { reduceEpochResults, withEpochs } from './metrics/epoch-results.js';
export { AnthropicChatModel } from './providers/anthropic/anthropic-chat-model.js';
export {
  AzureOpenAIChatModel,
  type AzureOpenAIOptions,
} from './providers/azure-openai/azure-openai-chat-model.js';
export { AzureOpenAIEmbeddingModel } from './providers/azure-openai/azure-openai-embedding-model.js';
export { ExtractiveBaselineChatModel } from './providers/baselines/extractive-baseline-chat-model.js';
export { BedrockChatModel } from './providers/bedrock/bedrock-chat-model.js';
export { BedrockEmbeddingModel } from './providers/bedrock/bedrock-embedding-model.js';
export { httpOptions } from './providers/factory-options.js';
export { GeminiChatModel } from './providers/gemini/gemini-chat-model.js';
export { GeminiEmbeddingModel } from './providers/gemini/gemini-embedding-model.js';
export { GgufChatModel } from './providers/gguf/gguf-chat-model.js';
export { HttpEndpoint, type HttpEndpointOptions } from './providers/http-endpoint.js';
export { LocalOnnxEmbeddingModel } from './providers/local-onnx/local-onnx-embedding-model.js';
export { LocalOnnxTokenEncoder } from './providers/local-onnx/local-onnx-token-encoder.js';
export { OllamaChatModel } from './providers/ollama/ollama-chat-model.js';
export {
  OllamaEmbeddingModel,
  type OllamaEmbeddingModelOptions,
} from './providers/ollama/ollama-embedding-model.js';
export { OpenAICompatibleChatModel } from './providers/openai-compatible/openai-compatible-chat-model.js';
export { OpenAICompatibleCompletionModel } from './providers/openai-compatible/openai-compatible-completion-model.js';
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
export { getTokenizer, listTokenizers, resolveTokenizerName } from './tokenizers/registry.js';
export { VERSION } from './version.js';
export { writeStaticSite } from './view/static-site.js';
export { ViewData } from './view/view-data.js';
export { startViewServer } from './view/view-server.js';
