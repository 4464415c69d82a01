/**
 * The body of a successful answer in each protocol the LLM test server speaks, as each
 * provider's API reference documents it: a reasoning model's thinking comes apart from the
 * answer (vLLM's `reasoning_content`, Anthropic's thinking blocks, Bedrock's reasoningContent,
 * Gemini's thought parts, Ollama's `thinking`), and its tokens are output tokens.
 */
export function answerBody(answer: {
  path: string;
  model: unknown;
  text: string;
  reasoning?: string;
  reasoningTokens?: number;
  inputTokens: number;
}): Record<string, unknown> {
  const { text, reasoning, inputTokens } = answer;
  const reasoningTokens = answer.reasoningTokens ?? (reasoning ? Math.ceil(reasoning.length / 4) : 0);
  const answerTokens = Math.ceil(text.length / 4);
  // Every generated token, the thinking's included (what OpenAI, Anthropic, Bedrock and Ollama report).
  const outputTokens = answerTokens + reasoningTokens;
  const pathname = answer.path.split('?')[0]!;
  if (pathname.endsWith(':generateContent'))
    return {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [...(reasoning ? [{ text: reasoning, thought: true }] : []), { text }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: inputTokens,
        // Gemini counts thoughts apart from the candidates.
        candidatesTokenCount: answerTokens,
        ...(reasoning ? { thoughtsTokenCount: reasoningTokens } : {}),
        totalTokenCount: inputTokens + outputTokens,
      },
      modelVersion: 'test',
    };
  if (/^\/model\/[^/]+\/converse$/.test(pathname))
    return {
      output: {
        message: {
          role: 'assistant',
          content: [
            ...(reasoning
              ? [{ reasoningContent: { reasoningText: { text: reasoning, signature: 'sig' } } }]
              : []),
            { text },
          ],
        },
      },
      stopReason: 'end_turn',
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs: 1 },
    };
  if (pathname === '/api/chat')
    return {
      model: answer.model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content: text, ...(reasoning ? { thinking: reasoning } : {}) },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: inputTokens,
      eval_count: outputTokens,
    };
  if (pathname.endsWith('/completions') && !pathname.endsWith('/chat/completions'))
    return {
      id: 'cmpl-test',
      object: 'text_completion',
      choices: [{ index: 0, text, finish_reason: 'stop' }],
      usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens },
    };
  if (pathname.endsWith('/v1/messages'))
    return {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      content: [
        ...(reasoning ? [{ type: 'thinking', thinking: reasoning, signature: 'sig' }] : []),
        { type: 'text', text },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    };
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, ...(reasoning ? { reasoning_content: reasoning } : {}) },
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      ...(answer.reasoningTokens !== undefined
        ? { completion_tokens_details: { reasoning_tokens: answer.reasoningTokens } }
        : {}),
    },
  };
}
