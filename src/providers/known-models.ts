/** Context windows (tokens) of models medbench knows by name; a config can override them. */
const KNOWN_WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-4o|^gpt-4-turbo|^gpt-4-\d{4}-preview|^o1|^o3|^o4/, 128_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4$|^gpt-4-0613/, 8_192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^claude/, 200_000],
  [/^moonshot-v1-128k/, 128_000],
  [/^chatglm3-6b-128k|^yarn-mistral-7b-128k/i, 128_000],
  [/^internlm2-chat|^yi-6b-200k/i, 200_000],
];

export function knownContextWindow(modelId: string): number | undefined {
  return KNOWN_WINDOWS.find(([pattern]) => pattern.test(modelId))?.[1];
}

/**
 * OpenAI's reasoning models by name: the o-series (o1, o3, o4-mini …) and GPT-5 (not
 * gpt-5-chat, a chat model). They take `max_completion_tokens` and only the default temperature.
 */
export function isReasoningModelId(modelId: string): boolean {
  return (
    /^o[1-9](?:$|-)/.test(modelId) || (/^gpt-5(?:$|[.-])/.test(modelId) && !/^gpt-5[.\d]*-chat/.test(modelId))
  );
}
