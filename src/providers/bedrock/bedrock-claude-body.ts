import type { ChatRequest, PromptCacheHint } from '../../core/chat-model.js';
import { bedrockFoundationModel } from '../anthropic/claude-pricing.js';
import { field } from '../http-json.js';
import { converseGeneration, converseShape } from './converse-shape.js';

/** The Messages API version a Claude InvokeModel body on Bedrock names (Bedrock's Claude parameters page). */
const ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** A text block of the Messages API, marked where the prompt cache is to keep everything up to its end. */
interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: { type: 'ephemeral' };
}

/** Whether a Bedrock model id (a foundation model, an inference profile or its ARN) is an Anthropic Claude model. */
export function isClaudeOnBedrock(modelId: string): boolean {
  return bedrockFoundationModel(modelId).startsWith('anthropic.claude');
}

/** Converse's blocks as Messages text blocks: a `cachePoint` marks the block before it (`cache_control`). */
function textBlocks(blocks: ReadonlyArray<{ text?: string; cachePoint?: unknown }>): TextBlock[] {
  const out: TextBlock[] = [];
  for (const block of blocks)
    if (block.text !== undefined) out.push({ type: 'text', text: block.text });
    else if (block.cachePoint && out.length > 0) out[out.length - 1]!.cache_control = { type: 'ephemeral' };
  return out;
}

/**
 * A Claude model's native InvokeModel body (the Messages API on Bedrock), made from what the
 * synchronous run sends to Converse, as Bedrock itself maps Converse onto Claude: the same system
 * blocks, the same turns and text blocks (a cache checkpoint as `cache_control` on the block it
 * follows), `inferenceConfig` as `max_tokens`, `temperature`, `top_p`, `stop_sequences`, and the
 * additional model request fields (thinking) as they are. The model reads the same text.
 */
export function claudeInvokeBody(request: ChatRequest, hint?: PromptCacheHint): Record<string, unknown> {
  const shape = converseShape(request.messages, hint);
  const generation = converseGeneration(request.parameters);
  const config: { maxTokens: number; temperature?: number; topP?: number; stopSequences?: string[] } =
    generation.inferenceConfig;
  return {
    anthropic_version: ANTHROPIC_VERSION,
    max_tokens: config.maxTokens,
    ...field('temperature', config.temperature),
    ...field('top_p', config.topP),
    ...field('stop_sequences', config.stopSequences),
    ...generation.additionalModelRequestFields,
    ...(shape.system ? { system: textBlocks(shape.system) } : {}),
    messages: shape.messages.map((message) => ({ role: message.role, content: textBlocks(message.content) })),
  };
}
