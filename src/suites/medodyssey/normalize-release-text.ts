/**
 * Text normalisation of the official release, in the order the published build used:
 * newline runs collapse first, then every literal backslash + "x" becomes a newline.
 * (The other order produces different prompts: "\x" next to a newline would survive as "\n\n".)
 */
export function normalizeReleaseText(text: string): string {
  return text.replace(/\n+/g, '\n').replaceAll('\\x', '\n');
}
