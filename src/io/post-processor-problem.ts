/**
 * What in a tokenizer.json's post-processor would make Hugging Face's Rust tokenizers panic
 * while encoding, or undefined when nothing does. Their TemplateProcessing is read from the
 * file without the checks its builder makes, and a panic in the native binding aborts the whole
 * process (no error to catch), so these are found before the file reaches it:
 * - a special token the template places but its `special_tokens` do not define (a map lookup);
 * - a special token whose `ids` and `tokens` differ in length;
 * - the single-text template placing the second sequence ($B), which a single text lacks.
 * A post-processor of another shape is left to the library, which rejects what it cannot read.
 */
export function postProcessorProblem(tokenizerJson: unknown): string | undefined {
  return processorProblem(field(tokenizerJson, 'post_processor'), 'post_processor');
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function defines(specials: unknown, name: string): boolean {
  return (
    specials !== null &&
    typeof specials === 'object' &&
    !Array.isArray(specials) &&
    Object.hasOwn(specials, name)
  );
}

function processorProblem(processor: unknown, where: string): string | undefined {
  const type = field(processor, 'type');
  if (type === 'Sequence') {
    const processors = field(processor, 'processors');
    if (!Array.isArray(processors)) return undefined;
    for (const [index, inner] of processors.entries()) {
      const problem = processorProblem(inner, `${where}.processors[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (type !== 'TemplateProcessing') return undefined;
  const specials = field(processor, 'special_tokens');
  for (const [name, special] of Object.entries(
    specials !== null && typeof specials === 'object' ? specials : {},
  )) {
    const ids = field(special, 'ids');
    const tokens = field(special, 'tokens');
    if (Array.isArray(ids) && Array.isArray(tokens) && ids.length !== tokens.length)
      return `${where}.special_tokens[${JSON.stringify(name)}] has ${ids.length} ids but ${tokens.length} tokens`;
  }
  for (const template of ['single', 'pair'] as const) {
    const pieces = field(processor, template);
    if (!Array.isArray(pieces)) continue;
    for (const [index, piece] of pieces.entries()) {
      const special = field(field(piece, 'SpecialToken'), 'id');
      if (typeof special === 'string' && !defines(specials, special))
        return `${where}.${template}[${index}] places the special token ${JSON.stringify(special)}, which ${where}.special_tokens does not define`;
      if (template === 'single' && field(field(piece, 'Sequence'), 'id') === 'B')
        return `${where}.single[${index}] places the second sequence ($B), which a single text does not have`;
    }
  }
  return undefined;
}
