import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
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

/** docs/architecture.md and the adding-a-* guides: the code they name is checked against src/. */
function guides(): Array<{ guide: string; text: string }> {
  const names = readdirSync(join(ROOT, 'docs')).filter((name) => name.startsWith('adding-'));
  return ['architecture.md', ...names].map((guide) => ({
    guide,
    text: readFileSync(join(ROOT, 'docs', guide), 'utf8'),
  }));
}

/**
 * The files a path stands for: `src/suites/<suite>/suite.ts`, `counting-*.ts` (a placeholder or a
 * star is (part of) one path segment), and a folder's files.
 */
function placeholderPattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/<[^>]+>|\*/g, '[^/]+')}(?:/.+)?$`);
}

const MODIFIERS = String.raw`(?:readonly\s+|static\s+|private\s+|protected\s+|async\s+|get\s+)*`;

/** A declaration of `name` in a source file: a function, class, type or variable, or a member or key. */
function declarationOf(name: string): RegExp {
  return new RegExp(
    String.raw`\b(?:function\*?|class|interface|type|const|let|enum)\s+${name}\b|^\s+${MODIFIERS}${name}\??\s*[(:<]`,
    'm',
  );
}

/** What src/ and test/ define: exported names, member and key names, error codes and other constant strings. */
function symbolsOfSource() {
  const exported = new Set<string>();
  const members = new Set<string>();
  const codes = new Set<string>();
  const texts = new Map<string, string>();
  for (const file of [...filesUnder('src', ['.ts']), ...filesUnder('test', ['.ts'])]) {
    const text = readFileSync(file, 'utf8');
    texts.set(relative(ROOT, file), text);
    for (const name of exportedNames(text)) exported.add(name);
    // Members, methods and object keys: `name(`, `name:`, `name?:`, `readonly name:`.
    for (const match of text.matchAll(
      new RegExp(String.raw`^\s+${MODIFIERS}([A-Za-z_$][\w$]*)\??\s*[(:<]`, 'gm'),
    ))
      members.add(match[1]!);
    // Error codes and other constant strings: 'FILE_ERROR'.
    for (const match of text.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) codes.add(match[1]!);
  }
  /** The text of a source file, or of every file a placeholder path stands for. */
  const textsOf = (path: string): string[] => {
    const pattern = placeholderPattern(path);
    return [...texts].filter(([name]) => pattern.test(name)).map(([, text]) => text);
  };
  return { exported, members, codes, textsOf };
}

/** `name` (`src/file.ts`), `name`, `src/file.ts`, | `name` | `src/file.ts` |: where in a text a name is given with its file. */
function filesNamedWith(text: string): Map<number, string> {
  const named = new Map<number, string>();
  for (const match of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`\s*[(,|]\s*`((?:src|test)\/[^`\s]+\.ts)`/g))
    named.set(match.index, match[2]!);
  return named;
}

/** The code names of one guide that the code does not define (or that the file named with them does not hold). */
function unknownNames(
  text: string,
  code: ReturnType<typeof symbolsOfSource>,
): { unknown: string[]; checked: number } {
  const unknown: string[] = [];
  let checked = 0;
  const named = filesNamedWith(text);
  for (const match of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)) {
    const name = match[1]!;
    const file = named.get(match.index);
    // Plain lower-case words are statuses, keys and options, not symbols, unless a file is named with them.
    if (!/[A-Z]/.test(name) && !file) continue;
    checked++;
    const known = code.exported.has(name) || code.members.has(name) || code.codes.has(name);
    if (!file) {
      if (!known) unknown.push(name);
      continue;
    }
    const texts = code.textsOf(file);
    const declared = texts.some((source) => declarationOf(name).test(source));
    const used = texts.some((source) => new RegExp(`\\b${name}\\b`).test(source));
    if (!declared && !(known && used)) unknown.push(`${name} (${file})`);
  }
  // `Type.member`: an exported type, class or value, and a member of that name.
  for (const match of text.matchAll(/`([A-Z][\w$]*)\.([A-Za-z_$][\w$]*)(?:\(\))?`/g)) {
    const [owner, member] = [match[1]!, match[2]!];
    if (owner in globalThis) continue; // `Atomics.wait`
    checked++;
    if (!code.exported.has(owner) || !code.members.has(member)) unknown.push(`${owner}.${member}`);
  }
  return { unknown, checked };
}

/** The names a source text's `export` lines declare or list (`export { a, b as c, type D } from …` included). */
function exportedNames(text: string): string[] {
  const names = [
    ...text.matchAll(
      /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|const|let|enum)\s+([A-Za-z_$][\w$]*)/gm,
    ),
  ].map((match) => match[1]!);
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm))
    names.push(...importedNames(match[1]!, 'as'));
  return names;
}

/** `a, b as c, type D`: the names a list of an import (`own`: a, b, D) or export (`as`: a, c, D) gives. */
function importedNames(list: string, which: 'own' | 'as'): string[] {
  return list
    .split(',')
    .map((part) => {
      const names = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      return (which === 'as' ? names.at(-1) : names[0]) ?? '';
    })
    .filter(Boolean);
}

/** The names a module exports, following `export * from` (what `import … from 'medbench'` can name). */
function exportsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const names = new Set(exportedNames(text));
  for (const match of text.matchAll(/^export \* from '(\.[^']+)\.js'/gm))
    for (const name of exportsOf(join(dirname(file), `${match[1]}.ts`))) names.add(name);
  return names;
}

describe('documentation', () => {
  it('every docs/*.md that code, docs or README cite exists', () => {
    const missing: string[] = [];
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(/docs\/[a-z0-9-]+\.md/g))
        if (!existsSync(join(ROOT, match[0]))) missing.push(`${relative(ROOT, file)}: ${match[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every src/, test/, bench/, tools/ and examples/ path the docs and README name exists', () => {
    const everyFile = ['src', 'test', 'bench', 'tools', 'examples'].flatMap((folder) =>
      filesUnder(folder, ['']).map((file) => relative(ROOT, file)),
    );
    const missing: string[] = [];
    for (const file of sources.filter((path) => path.endsWith('.md'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /\b((?:src|test|bench|tools|examples)\/[\w./*<>-]*[\w*>-])/g,
      )) {
        const path = match[1]!;
        // A glob or a placeholder (`counting-*.ts`, `src/suites/<suite>/`) names at least one file.
        const found = /[<*]/.test(path)
          ? everyFile.some((name) => placeholderPattern(path).test(name))
          : existsSync(join(ROOT, path));
        if (!found) missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every file name the guides give alone (`suite.ts`) is in src/ or test/', () => {
    const names = new Set(
      [...filesUnder('src', ['']), ...filesUnder('test', [''])].map((file) => file.split('/').at(-1)!),
    );
    const missing = guides().flatMap(({ guide, text }) =>
      [...text.matchAll(/`([\w.-]+\.(?:ts|js))`/g)]
        .filter((match) => !names.has(match[1]!))
        .map((match) => `${guide}: ${match[1]}`),
    );
    expect(missing).toEqual([]);
  });

  it('every code name of docs/architecture.md and the adding-a-* guides is exported from src/ or test/ (or a member, or in the file named with it)', () => {
    const code = symbolsOfSource();
    let checked = 0;
    const unknown = guides().flatMap(({ guide, text }) => {
      const found = unknownNames(text, code);
      checked += found.checked;
      return found.unknown.map((name) => `${guide}: ${name}`);
    });
    expect(unknown).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it("every name the README, the docs and src/index.ts's example import from 'medbench', or architecture.md's library section names, is exported by src/index.ts", () => {
    const library = exportsOf(join(ROOT, 'src/index.ts'));
    const missing: string[] = [];
    let checked = 0;
    // The README's and the docs' examples, and src/index.ts's own `@example`.
    for (const file of sources)
      for (const match of readFileSync(file, 'utf8').matchAll(
        /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'medbench'/g,
      ))
        for (const name of importedNames(match[1]!, 'own')) {
          checked++;
          if (!library.has(name)) missing.push(`${relative(ROOT, file)}: ${name}`);
        }
    // What docs/architecture.md's "The library" says src/index.ts exports.
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = /\n## The library\n([\s\S]*?)\n## /.exec(architecture)![1]!;
    for (const match of section.matchAll(/`([A-Za-z_$][\w$]*)`/g)) {
      checked++;
      if (!library.has(match[1]!)) missing.push(`docs/architecture.md, The library: ${match[1]}`);
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(25);
  });

  it.each([
    ['adding-a-suite.md', 'Suite', 'src/core/suite.ts'],
    ['adding-a-suite.md', 'SuitePlugin', 'src/compose/suite-plugin.ts'],
    ['adding-a-suite.md', 'SuiteRunDefinition', 'src/compose/suite-plugin.ts'],
    ['adding-a-suite.md', 'RunPlan', 'src/compose/run-suite.ts'],
    ['adding-a-provider.md', 'ProviderDescriptor', 'src/providers/provider-descriptor.ts'],
  ])('%s names every member of %s in %s', (guide, name, file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const body = new RegExp(String.raw`^export interface ${name}\b[^{]*\{\n([\s\S]*?)\n\}`, 'm').exec(
      source,
    )![1]!;
    // Its own members: two spaces in, outside comments and nested types.
    const members = [...body.matchAll(/^ {2}(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*[(:<]/gm)].map(
      (match) => match[1]!,
    );
    const text = readFileSync(join(ROOT, 'docs', guide), 'utf8');
    expect(members.length).toBeGreaterThan(2);
    expect(members.filter((member) => !text.includes(`\`${member}\``))).toEqual([]);
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

  it("docs/cluster-shards.md's examples: the Slurm scripts pass bash -n; the Indexed Job runs --shard auto with MEDBENCH_SHARD_COUNT equal to its completions", () => {
    const page = readFileSync(join(ROOT, 'docs', 'cluster-shards.md'), 'utf8');
    const examples = [...new Set(page.match(/examples\/[\w.-]+/g))].sort();
    expect(examples).toEqual([
      'examples/kubernetes-indexed-job.yaml',
      'examples/kubernetes-merge-job.yaml',
      'examples/slurm-array.sh',
      'examples/slurm-merge.sh',
    ]);
    for (const script of examples.filter((path) => path.endsWith('.sh'))) {
      const checked = spawnSync('bash', ['-n', join(ROOT, script)], { encoding: 'utf8' });
      expect(checked.status, `${script}: ${checked.stderr}`).toBe(0);
      expect(readFileSync(join(ROOT, script), 'utf8')).toMatch(/^#!\/usr\/bin\/env bash\n/);
    }
    expect(readFileSync(join(ROOT, 'examples/slurm-array.sh'), 'utf8')).toMatch(
      /\n#SBATCH --array=0-\d+\n[\s\S]*--shard auto/,
    );
    // No YAML parser among the dependencies: the fields the shards rely on, read as lines.
    const manifest = readFileSync(join(ROOT, 'examples/kubernetes-indexed-job.yaml'), 'utf8');
    expect(manifest).not.toContain('\t');
    expect(manifest).toMatch(/\n {2}completionMode: Indexed\n/);
    const completions = /\n {2}completions: (\d+)\n/.exec(manifest)?.[1];
    expect(/- name: MEDBENCH_SHARD_COUNT\n +value: "(\d+)"/.exec(manifest)?.[1]).toBe(completions);
    expect(manifest).toContain('--shard auto');
    expect(readFileSync(join(ROOT, 'examples/kubernetes-merge-job.yaml'), 'utf8')).toContain(
      'medbench --home',
    );
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
