import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PARTS } from '../../src/core/optional-part.js';

/** The library as a user's code meets it: `import … from 'medbench'`, resolved to the built dist/. */

const ROOT = join(import.meta.dirname, '..', '..');
const INDEX = join(ROOT, 'src', 'index.ts');

/** A folder whose node_modules/medbench is this package (resolved through its package.json's exports). */
const user = mkdtempSync(join(tmpdir(), 'medbench-library-'));
mkdirSync(join(user, 'node_modules'));
symlinkSync(ROOT, join(user, 'node_modules', 'medbench'), 'dir');
writeFileSync(join(user, 'package.json'), '{ "type": "module", "private": true }\n');
afterAll(() => rmSync(user, { recursive: true, force: true }));

function libraryProgram(files: string[], options: ts.CompilerOptions = {}) {
  return ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    ...options,
  });
}

/** What `import … from 'medbench'` can name, each with the doc comment of its declaration. */
function libraryExports(): Array<{ name: string; documented: boolean }> {
  const program = libraryProgram([INDEX]);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(INDEX)!)!;
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, documented: target.getDocumentationComment(checker).length > 0 };
  });
}

describe('the library (src/index.ts, built to dist/)', () => {
  const exported = libraryExports();

  it("exports every provider's models, encoders and retrievers", () => {
    const providers = join(ROOT, 'src', 'providers');
    const classes = readdirSync(providers, { recursive: true, withFileTypes: true })
      .filter(
        (entry) =>
          entry.isFile() &&
          /-(?:chat-model|embedding-model|completion-model|token-encoder|retriever)\.ts$/.test(entry.name),
      )
      .flatMap((entry) => {
        const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
        return [...text.matchAll(/^export class (\w+)/gm)].map((match) => match[1]!);
      });
    expect(classes.length).toBeGreaterThan(15);
    const names = new Set(exported.map((entry) => entry.name));
    expect(classes.filter((name) => !names.has(name))).toEqual([]);
  });

  it('dist/ imports only dependencies and optional peer dependencies: nothing from devDependencies is needed at install', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const allowed = new Set([
      ...Object.keys(manifest.dependencies!),
      ...Object.keys(manifest.peerDependencies!),
    ]);
    const imported = new Set<string>();
    for (const file of readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(ROOT, 'dist', file), 'utf8');
      for (const match of text.matchAll(
        /^(?:import|export)\b[^;]*?from '([^'.][^']*)'|\bimport\('([^'.][^']*)'\)/gm,
      )) {
        const specifier = (match[1] ?? match[2])!;
        if (specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('every export has a doc comment', () => {
    expect(exported.length).toBeGreaterThan(100);
    expect(exported.filter((entry) => !entry.documented).map((entry) => entry.name)).toEqual([]);
  });

  it('importing it loads no optional part (each loads on first use); a load is seen when one happens', () => {
    const parts = Object.values(OPTIONAL_PARTS).flatMap((part) => Object.keys(part.packages));
    const script = `
      import { registerHooks } from 'node:module';
      const parts = ${JSON.stringify(parts)};
      const loaded = [];
      registerHooks({
        resolve(specifier, context, next) {
          if (parts.includes(specifier)) loaded.push(specifier);
          return next(specifier, context);
        },
      });
      await import('medbench');
      const atImport = [...loaded];
      // A Gemini client, made as a model's first request makes it: the SDK loads now.
      const { geminiClient } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/providers/gemini/gemini-client.js')).href)});
      await geminiClient({ apiKey: 'unused' });
      console.log(JSON.stringify({ atImport, afterUse: loaded }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: user,
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ atImport: [], afterUse: ['@google/genai'] });
  });

  it("docs/library.md's example type-checks against dist/'s declarations and runs", () => {
    const page = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(blocks).toHaveLength(1);
    const source = join(user, 'example.ts');
    writeFileSync(source, blocks[0]!);
    const program = libraryProgram([source], { skipLibCheck: false });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter(
        (diagnostic) =>
          !diagnostic.file || !relative(ROOT, diagnostic.file.fileName).startsWith('node_modules'),
      )
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
    const script = join(user, 'example.mjs');
    writeFileSync(
      script,
      ts.transpileModule(blocks[0]!, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
      }).outputText,
    );
    // Its home folder (under the temporary folder) goes with the user's folder.
    const child = spawnSync(process.execPath, [script], {
      cwd: user,
      env: { ...process.env, TMPDIR: user },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/MedEureka — MRR@10 \(%\)\nModel +Literature II/);
    expect(child.stdout).toMatch(/^bm25 +100\.00/m);
    expect(child.stdout).toMatch(/^MODEL_SPEC_INVALID: /m);
  });
});
