export function writeWordPieceTokenizer(
  folder: string,
  vocabulary: readonly string[],
  options?: { maxLength?: number },
): string;
export const llama3TokenizerPath: string;
export function writeLlama3WithBeginOfText(parent?: string): string;
