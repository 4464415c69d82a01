import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MedbenchError } from './errors.js';
import { installCommand, loadOptionalPart, OPTIONAL_PARTS, type OptionalPart } from './optional-part.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A module name that no install holds, given through a variable so no tool resolves it ahead. */
const NOWHERE = 'medbench-no-such-part';
const importOf = (name: string) => () => import(name);

const part: OptionalPart = { feature: 'the test feature', packages: { [NOWHERE]: '1.2.3' } };

describe('loadOptionalPart', () => {
  it('a part that is not installed: PART_MISSING naming the feature, the package and the exact install command', async () => {
    const error = await loadOptionalPart(part, importOf(NOWHERE)).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error)).toBe(true);
    const missing = error as MedbenchError;
    expect(missing.code).toBe('PART_MISSING');
    expect(missing.message).toBe(
      `the test feature needs ${NOWHERE}, which is not installed (medbench installs it only when wanted).`,
    );
    expect(missing.hint).toBe(
      `Install it where medbench is installed: npm install ${NOWHERE}@1.2.3 (with -g when medbench is installed globally).`,
    );
    expect((missing.cause as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('an installed part loads as it is', async () => {
    const module = await loadOptionalPart(part, () => import('node:path'));
    expect(module.join('a', 'b')).toBe(join('a', 'b'));
  });

  it("any other failure passes through unchanged: another package missing (a part's broken install), a thrown error", async () => {
    const other = await loadOptionalPart(part, importOf('medbench-another-missing-package')).catch(
      (caught: unknown) => caught,
    );
    expect(MedbenchError.is(other)).toBe(false);
    expect((other as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    const thrown = new Error('the addon failed to load');
    await expect(loadOptionalPart(part, () => Promise.reject(thrown))).rejects.toBe(thrown);
  });

  it('the install command carries the environment a part asks for, and every package of the part', () => {
    expect(installCommand(OPTIONAL_PARTS.onnx)).toBe(
      'ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node@1.30.0',
    );
    expect(installCommand(OPTIONAL_PARTS.bedrock)).toBe(
      'npm install @aws-sdk/client-bedrock-runtime@3.1162.0 @smithy/node-http-handler@4.14.2',
    );
  });
});

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

describe('the optional parts and package.json', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const packages = Object.values(OPTIONAL_PARTS).flatMap((entry) => Object.entries(entry.packages));

  it('each package is an optional peer dependency (its version the tested one, or later within the major) and a devDependency at the tested version, never a dependency', () => {
    for (const [name, version] of packages) {
      expect(manifest.peerDependencies?.[name], name).toBe(`^${version}`);
      expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(manifest.devDependencies[name], name).toBe(version);
      expect(manifest.dependencies[name], name).toBeUndefined();
    }
    expect(Object.keys(manifest.peerDependencies ?? {}).sort()).toEqual(
      packages.map(([name]) => name).sort(),
    );
  });

  it("the README's table gives every part's install command", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const entry of Object.values(OPTIONAL_PARTS))
      expect(readme).toContain(`| \`${installCommand(entry)}\` |`);
  });

  it('src/ imports an optional package only as types, or through loadOptionalPart on first use', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      .map((entry) => join(entry.parentPath, entry.name));
    const violations: string[] = [];
    let loads = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [name] of packages) {
        const quoted = `'${name.replace(/[/.]/g, '\\$&')}'`;
        for (const match of text.matchAll(new RegExp(`^import (?!type )[^;]*?from ${quoted}`, 'gm')))
          violations.push(`${relative(ROOT, file)}: ${match[0]}`);
        let at = text.indexOf(`import('${name}')`);
        for (; at >= 0; at = text.indexOf(`import('${name}')`, at + 1)) {
          const before = text.slice(Math.max(0, at - 80), at);
          if (before.endsWith('typeof ')) continue;
          if (/loadOptionalPart\(\s*OPTIONAL_PARTS\.\w+,\s*\(\) => $/.test(before)) loads++;
          else
            violations.push(
              `${relative(ROOT, file)}: ${before.split('\n').at(-1)!.trim()} import('${name}')`,
            );
        }
      }
    }
    expect(violations).toEqual([]);
    expect(loads).toBeGreaterThanOrEqual(10);
  });
});
