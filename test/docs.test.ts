import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/compose/config.js';
import { providersMarkdownTable, providersReadmeTable } from '../src/compose/provider-table.js';
import { PROVIDERS } from '../src/providers/registry.js';

/** The documents error hints and the README point to are in the repository, and current. */

const ROOT = join(import.meta.dirname, '..');

function filesUnder(folder: string, extensions: readonly string[]): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => join(entry.parentPath, entry.name));
}

const sources = [...filesUnder('src', ['.ts']), ...filesUnder('docs', ['.md']), join(ROOT, 'README.md')];

describe('documentation', () => {
  it('every docs/*.md that code, docs or README cite exists', () => {
    const missing: string[] = [];
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(/docs\/[a-z0-9-]+\.md/g))
        if (!existsSync(join(ROOT, match[0]))) missing.push(`${relative(ROOT, file)}: ${match[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every src/, test/ and bench/ path the docs and README name exists', () => {
    const missing: string[] = [];
    for (const file of sources.filter((path) => path.endsWith('.md'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /\b((?:src|test|bench)\/[\w./*<>-]*[\w*>-])/g,
      )) {
        const path = match[1]!;
        // Globs and placeholders (`counting-*.ts`, `src/suites/<suite>/`) are not paths to check.
        if (path.includes('<') || path.includes('*')) continue;
        if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every code symbol docs/architecture.md and the adding-a-* guides name is defined in src/', () => {
    const defined = new Set<string>();
    for (const file of filesUnder('src', ['.ts'])) {
      const text = readFileSync(file, 'utf8');
      const patterns = [
        /\b(?:function\*?|class|interface|type|const|let|enum)\s+([A-Za-z_$][\w$]*)/g,
        // Members, methods and object keys: `name(`, `name:`, `name?:`, `readonly name:`.
        /^\s+(?:readonly\s+|static\s+|private\s+|async\s+|get\s+)*([A-Za-z_$][\w$]*)\??\s*[(:<]/gm,
        // Error codes and other constant strings: 'FILE_ERROR'.
        /'([A-Z][A-Z0-9_]+)'/g,
      ];
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) defined.add(match[1]!);
    }
    const guides = [
      'architecture.md',
      ...readdirSync(join(ROOT, 'docs')).filter((name) => name.startsWith('adding-')),
    ];
    const unknown: string[] = [];
    let checked = 0;
    for (const guide of guides) {
      const text = readFileSync(join(ROOT, 'docs', guide), 'utf8');
      for (const match of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)) {
        const name = match[1]!;
        // Plain lower-case words are statuses, keys and options, not symbols.
        if (!/[A-Z]/.test(name)) continue;
        checked++;
        if (!defined.has(name)) unknown.push(`${guide}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('nothing points users to files they do not have (the shared spec and seeds)', () => {
    const cited = sources.filter((file) => /shared\/(spec|seeds)/.test(readFileSync(file, 'utf8')));
    expect(cited.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it("docs/providers/README.md's table is the one the descriptors make (what `medbench providers` says)", () => {
    const page = readFileSync(join(ROOT, 'docs/providers/README.md'), 'utf8');
    expect(page).toContain(`\n${providersMarkdownTable()}\n`);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\n${providersReadmeTable()}\n`);
    for (const provider of PROVIDERS)
      expect(existsSync(join(ROOT, 'docs/providers', provider.docs.page))).toBe(true);
  });

  it('the config example of docs/formats.md loads', async () => {
    const text = readFileSync(join(ROOT, 'docs', 'formats.md'), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(text)![1]!;
    const folder = mkdtempSync(join(tmpdir(), 'medbench-docs-'));
    try {
      writeFileSync(join(folder, 'medbench.config.json'), example);
      const { config } = await loadConfig(join(folder, 'medbench.config.json'));
      expect(Object.keys(config.models)).toEqual(['local-llama']);
      expect(Object.keys(config.embeddingModels)).toEqual(['bge', 'onnx']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
