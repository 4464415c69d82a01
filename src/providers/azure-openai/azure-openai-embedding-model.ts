import {
  OpenAICompatibleEmbeddingModel,
  type OpenAICompatibleEmbeddingModelOptions,
} from '../openai-compatible/openai-compatible-embedding-model.js';
import { type AzureOpenAIOptions, azureEndpointOptions } from './azure-openai-chat-model.js';

/** Azure OpenAI embeddings: OpenAI's /embeddings on a deployment's URL, signed as its chat is. */
export class AzureOpenAIEmbeddingModel extends OpenAICompatibleEmbeddingModel {
  override readonly provider = 'azure-openai';

  constructor(
    options: AzureOpenAIOptions &
      Pick<
        OpenAICompatibleEmbeddingModelOptions,
        'batchSize' | 'maxParallelCalls' | 'dimensions' | 'sendDimensions' | 'encodingFormat' | 'revision'
      >,
  ) {
    super({ ...options, ...azureEndpointOptions(options) });
  }
}
