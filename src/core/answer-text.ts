const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * The answer in a model's output, without the thinking an open reasoning model writes into it
 * (DeepSeek-R1, Qwen3, QwQ … behind vLLM, SGLang, Ollama or llama.cpp without a reasoning parser):
 * every `<think>…</think>` block is removed; an unclosed `<think>` ends the answer there (a model
 * cut off while thinking gave none); a `</think>` without its opening (the chat template opened
 * it in the prompt) ends the thinking. Output without these tags is returned as it is.
 */
export function answerWithoutThinking(output: string): string {
  if (!output.includes(OPEN) && !output.includes(CLOSE)) return output;
  let answer = output.replace(/<think>[\s\S]*?<\/think>/g, '');
  const opened = answer.indexOf(OPEN);
  if (opened >= 0) answer = answer.slice(0, opened);
  const closed = answer.lastIndexOf(CLOSE);
  if (closed >= 0) answer = answer.slice(closed + CLOSE.length);
  return answer.trim();
}
