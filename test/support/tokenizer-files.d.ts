/** The TemplateProcessing post-processor as tokenizer.json holds it. */
export interface TemplateJson {
  type: string;
  single: Array<{
    SpecialToken?: { id: string; type_id: number };
    Sequence?: { id: string; type_id: number };
  }>;
  pair: TemplateJson['single'];
  special_tokens: Record<string, { id: string; ids: number[]; tokens: string[] }>;
}
export function writeWordPieceTokenizer(
  folder: string,
  vocabulary: readonly string[],
  options?: { maxLength?: number; editTemplate?: (template: TemplateJson) => void },
): string;
export const llama3TokenizerPath: string;
export function writeLlama3WithBeginOfText(parent?: string): string;
