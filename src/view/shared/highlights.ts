/** Texts to mark in a sample's prompt: the needle and the gold answers (strings of 2 to 2000 characters). */
export function highlightsOf(sample: { params: Record<string, unknown>; gold: unknown }): string[] {
  const texts = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 3) return;
    if (typeof value === 'string' && value.length >= 2 && value.length <= 2000) texts.add(value);
    else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (value && typeof value === 'object')
      for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(sample.params.needle, 0);
  visit(sample.gold, 0);
  return [...texts].slice(0, 50);
}
