/**
 * medbench's library API: the same pieces the CLI composes.
 *
 * @example
 * ```ts
 * import { Store, bindModel, readDataset, runSamples, medodysseyTasks } from 'medbench';
 * ```
 */
export { loadConfig } from './cli/config.js';
export { bindModel } from './cli/model-spec.js';
export * from './core/index.js';
export { extractJsonAnswer, findFlatJsonObjects } from './metrics/json-answer.js';
export { AnthropicChatModel } from './providers/anthropic-chat-model.js';
export { ExtractiveBaselineChatModel } from './providers/extractive-baseline-chat-model.js';
export { OpenAICompatibleChatModel } from './providers/openai-compatible-chat-model.js';
export {
  buildMedOdysseyReport,
  renderMedOdysseyHtml,
  renderMedOdysseyText,
} from './report/medodyssey-report.js';
export { readDataset, writeDataset } from './runner/dataset-file.js';
export type { ModelBinding } from './runner/model-binding.js';
export { DEFAULT_RETRY_POLICY, withRetry } from './runner/retry.js';
export { runSamples } from './runner/run-samples.js';
export { Store } from './store/store.js';
export { medodysseyTasks, prepareMedOdysseyBuild } from './suites/medodyssey/index.js';
export { readPublishedOutputs } from './suites/medodyssey/published-outputs.js';
export { getTokenizer, listTokenizers, resolveTokenizerName } from './tokenizers/registry.js';
export { VERSION } from './version.js';
