/** Types of tools/doc-section.js, for the tests that check the generated sections of the docs. */
export function cli(home: string, args: readonly string[]): string;
export function importRelease(release: string): string;
export function generatedSection(options: {
  doc: string;
  markers: readonly [string, string];
  make: (home: string) => string;
  meta: ImportMeta;
}): { documented: (text?: string) => string };
