import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SOURCE = import.meta.dirname;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Project-relative targets of a file's relative imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) =>
    relative(SOURCE, resolve(dirname(file), match[1]!)),
  );
}

const COMPOSE_MAY_IMPORT = [
  'core',
  'io',
  'metrics',
  'search',
  'tokenizers',
  'store',
  'providers',
  'suites',
  'runner',
  'report',
] as const;

/** Allowed layers each layer may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  io: ['core'],
  metrics: ['core'],
  search: ['core'],
  /** Counting on worker threads uses io's worker pool. */
  tokenizers: ['core', 'io'],
  store: ['core'],
  providers: ['core', 'io', 'metrics', 'search'],
  /** A suite's own report (tables, charts) is built from report/'s generic parts. */
  suites: ['core', 'io', 'metrics', 'tokenizers', 'report'],
  runner: ['core', 'io', 'metrics', 'search', 'tokenizers', 'store'],
  /** Composition outside the CLI: config, provider and retriever registries, model binding. */
  compose: COMPOSE_MAY_IMPORT,
  /** Generic tables, SVG charts and HTML escaping; suite knowledge lives in each suite. */
  report: ['core'],
  /** Knows no suite: the suites it shows are handed to it (`SUITES`). */
  view: ['core', 'metrics', 'store', 'report'],
  /** Everything, through composition. */
  cli: [...COMPOSE_MAY_IMPORT, 'compose', 'view', 'version.js'],
};

/**
 * A suite's `commands/` folder composes its commands and its run (the suite's plugin): like the
 * CLI it may use compose and the layers below it, never the CLI or the viewer; the rest of the
 * suite knows nothing of it. `version.js`: a build records the medbench that wrote its dataset.
 */
const SUITE_COMMANDS_MAY_IMPORT = [...COMPOSE_MAY_IMPORT, 'compose', 'version.js'];

/** The suite registry: `SUITE_PLUGINS`. */
const REGISTRY = 'compose/suites.ts';

/** `suites/<name>/commands/…`: a suite's composition, a layer of its own. */
const layerOf = (path: string) =>
  /^suites\/[^/]+\/commands\//.test(path) ? 'suite-commands' : path.split('/')[0]!;

describe('architecture', () => {
  it('dependencies point inward', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SOURCE)) {
      const layer = layerOf(relative(SOURCE, file));
      const allowed = layer === 'suite-commands' ? SUITE_COMMANDS_MAY_IMPORT : ALLOWED[layer];
      if (!allowed) continue; // index.ts and version.ts are composition points
      for (const target of importsOf(file)) {
        const targetLayer = layerOf(target);
        // The registry (`SUITE_PLUGINS`) is the one file outside the suites that lists their plugins.
        const registry = relative(SOURCE, file) === REGISTRY && targetLayer === 'suite-commands';
        if (targetLayer !== layer && !allowed.includes(targetLayer) && !registry)
          violations.push(`${relative(SOURCE, file)} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the viewer page and the server share their rules, and the page reaches nothing else', () => {
    // view/shared: pure rules (filters, comparisons, file keys), read by both; imports only core types.
    // view/page: the browser bundle; besides shared it may use core types and the report's colour scale.
    // Both may use the shared statistics (metrics/uncertainty/: pure, checked browser-safe below)
    // and the epochs' reduction the report applies (metrics/epoch-results.js: core and statistics only).
    const STATISTICS = 'metrics/uncertainty/';
    const EPOCHS = 'metrics/epoch-results.js';
    const PAGE_MAY_IMPORT = [
      'view/shared/',
      'view/page/',
      'core/',
      'report/color-scale.js',
      STATISTICS,
      EPOCHS,
    ];
    const violations: string[] = [];
    for (const folder of ['shared', 'page'] as const)
      for (const file of sourceFiles(join(SOURCE, 'view', folder))) {
        const allowed = folder === 'shared' ? ['view/shared/', 'core/', STATISTICS, EPOCHS] : PAGE_MAY_IMPORT;
        const text = readFileSync(file, 'utf8');
        const packages = [...text.matchAll(/from '([^.'][^']*)'/g)].map((match) => match[1]!);
        for (const target of [...importsOf(file), ...packages])
          if (!allowed.some((prefix) => target.startsWith(prefix)))
            violations.push(`${relative(SOURCE, file)} → ${target}`);
      }
    for (const target of importsOf(join(SOURCE, EPOCHS.replace(/\.js$/, '.ts'))))
      if (!['core/', STATISTICS].some((prefix) => target.startsWith(prefix)))
        violations.push(`${EPOCHS} → ${target}`);
    // The server reaches the shared rules, never the page.
    for (const file of sourceFiles(join(SOURCE, 'view')).filter((path) => !path.includes('/page/')))
      for (const target of importsOf(file))
        if (target.startsWith('view/page/')) violations.push(`${relative(SOURCE, file)} → ${target}`);
    expect(violations).toEqual([]);
  });

  it('the shared statistics (metrics/uncertainty/) are browser-safe: they import only each other', () => {
    const violations = sourceFiles(join(SOURCE, 'metrics', 'uncertainty')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^\.\/[a-z-]+\.js$/.test(target))
        .map((target) => `${relative(SOURCE, file)} → ${target}`),
    );
    expect(sourceFiles(join(SOURCE, 'metrics', 'uncertainty')).length).toBeGreaterThan(5);
    expect(violations).toEqual([]);
  });

  it('judge-human agreement statistics (metrics/agreement/) are browser-safe too: their own files and the shared statistics', () => {
    const violations = sourceFiles(join(SOURCE, 'metrics', 'agreement')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^\.\/[a-z-]+\.js$/.test(target) && target !== '../uncertainty/index.js')
        .map((target) => `${relative(SOURCE, file)} → ${target}`),
    );
    expect(sourceFiles(join(SOURCE, 'metrics', 'agreement')).length).toBeGreaterThan(3);
    expect(violations).toEqual([]);
  });

  it('no import cycles (dynamic imports included)', () => {
    const graph = new Map(
      sourceFiles(SOURCE).map((file) => {
        const text = readFileSync(file, 'utf8');
        const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((match) =>
          relative(SOURCE, resolve(dirname(file), match[1]!)).replace(/\.js$/, '.ts'),
        );
        return [relative(SOURCE, file), targets] as const;
      }),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (node: string): void => {
      state.set(node, 'open');
      path.push(node);
      for (const next of graph.get(node) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(node, 'done');
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });

  it('outside src/suites/, only the registry names a suite', () => {
    const naming = sourceFiles(SOURCE)
      .map((file) => relative(SOURCE, file))
      .filter((file) => !file.startsWith('suites/'))
      .filter((file) => importsOf(join(SOURCE, file)).some((target) => target.startsWith('suites/')));
    expect(naming).toEqual([REGISTRY]);
  });

  it("a suite's own code knows nothing of its commands/ folder", () => {
    const violations = sourceFiles(join(SOURCE, 'suites'))
      .map((file) => relative(SOURCE, file))
      .filter((file) => layerOf(file) !== 'suite-commands')
      .flatMap((file) =>
        importsOf(join(SOURCE, file))
          .filter((target) => layerOf(target) === 'suite-commands')
          .map((target) => `${file} → ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('the library entry composes without the CLI', () => {
    expect(importsOf(join(SOURCE, 'index.ts')).filter((target) => target.startsWith('cli/'))).toEqual([]);
  });

  it('suites never import each other', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(join(SOURCE, 'suites'))) {
      const suite = relative(join(SOURCE, 'suites'), file).split('/')[0];
      for (const target of importsOf(file)) {
        if (target.startsWith('suites/') && target.split('/')[1] !== suite)
          violations.push(`${relative(SOURCE, file)} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('generic code names no suite in what it tells the user (no `medbench build medodyssey` hint)', () => {
    // Every layer but the suites themselves (the registry lists them by their plugins' names).
    const GENERIC = Object.keys(ALLOWED).filter((layer) => layer !== 'suites');
    const suites = readdirSync(join(SOURCE, 'suites'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const command = new RegExp(
      `\\b(?:build|import|run|export|generate|rescore) (?:${suites.join('|')})\\b`,
      'i',
    );
    const violations = GENERIC.flatMap((layer) =>
      sourceFiles(join(SOURCE, layer)).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            command.test(line) ? [`${relative(SOURCE, file)}:${index + 1}: ${line.trim()}`] : [],
          ),
      ),
    );
    expect(GENERIC).toEqual(expect.arrayContaining(['runner', 'compose', 'cli', 'view']));
    expect(suites.length).toBeGreaterThan(2);
    expect(violations).toEqual([]);
  });

  it("the viewer's generic code names no suite's sample filter param (`Suite.sampleFilters`)", async () => {
    const { SUITES } = await import('./compose/suites.js');
    const params = SUITES.flatMap((suite) => (suite.sampleFilters ?? []).map((filter) => filter.param));
    const named = new RegExp(`['"\`.](?:${params.join('|')})\\b(?!\\()`);
    const violations = sourceFiles(join(SOURCE, 'view')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          named.test(line.replace(/\/\/.*|^\s*\/?\*.*/, ''))
            ? [`${relative(SOURCE, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(params).toEqual(expect.arrayContaining(['level', 'depth']));
    expect(violations).toEqual([]);
  });

  it('core imports nothing, not even packages', () => {
    for (const file of sourceFiles(join(SOURCE, 'core'))) {
      const imports = [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
      expect(
        imports.every((target) => target.startsWith('./')),
        file,
      ).toBe(true);
    }
  });
});

/** Lines as `wc -l` counts them. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('size', () => {
  it('no source file is over 400 lines', () => {
    const big = sourceFiles(SOURCE)
      .map((file) => ({ file: relative(SOURCE, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter((entry) => entry.lines > 400);
    expect(big).toEqual([]);
  });

  it('no function is over 80 lines (declarations, methods, arrows and expressions alike)', () => {
    const long: string[] = [];
    for (const file of sourceFiles(SOURCE)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > 80)
            long.push(`${relative(SOURCE, file)}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
