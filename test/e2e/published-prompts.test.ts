import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, temporaryHome } from './cli.js';

/**
 * The published zh Counting prompts, rebuilt: every `input` of task_result/zh_counting_* and
 * counting_compare_result/* (322 lines, 28 distinct prompts per haystack) must equal the
 * prompt medbench builds from the release with the published draws, byte for byte. Needs
 * MEDBENCH_SHARED_DATA=<shared/data>.
 */
const shared = process.env.MEDBENCH_SHARED_DATA;
const release = shared ? join(shared, 'medodyssey') : undefined;
const available = release !== undefined && existsSync(join(release, 'counting-draws.json'));
if (!available) {
  console.warn(
    'SKIPPED published-prompts.test.ts: set MEDBENCH_SHARED_DATA to the shared data folder (holding medodyssey/) to rebuild the published Counting prompts.',
  );
}

interface PublishedLine {
  id: number;
  input: string;
  true_answer: number[];
}

function publishedLines(folder: string, pattern: RegExp): Array<{ file: string; line: PublishedLine }> {
  return readdirSync(folder)
    .filter((name) => pattern.test(name))
    .flatMap((name) =>
      readFileSync(join(folder, name), 'utf8')
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => ({ file: name, line: JSON.parse(text) as PublishedLine })),
    );
}

function builtSamples(path: string) {
  const [, ...samples] = readFileSync(path, 'utf8')
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text));
  return new Map(
    samples.map((sample: { params: { countingId: number }; prompt: string; gold: { counts: number[] } }) => [
      sample.params.countingId,
      sample,
    ]),
  );
}

const home = available ? temporaryHome() : '';
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!available)('the published zh Counting prompts', () => {
  const evaluation = join(release ?? '', 'evaluation_result');
  const sets = [
    {
      haystack: 'medical',
      lines: () => publishedLines(join(evaluation, 'task_result'), /^zh_counting_.+\.jsonl$/),
    },
    {
      haystack: 'generic',
      lines: () =>
        publishedLines(join(evaluation, 'counting_compare_result'), /^zh_counting_general_.+\.jsonl$/),
    },
  ] as const;

  it('the package ships the shared counting-draws.json unchanged', () => {
    const shipped = readFileSync(join(ROOT, 'assets', 'medodyssey', 'counting-draws.json'));
    expect(shipped.equals(readFileSync(join(release!, 'counting-draws.json')))).toBe(true);
  });

  for (const how of ['--counting-draws', '--counting-from-published'] as const) {
    it(`${how}: every published input, byte for byte`, { timeout: 120_000 }, async () => {
      let matched = 0;
      let total = 0;
      const misses: string[] = [];
      for (const set of sets) {
        const out = join(home, `${set.haystack}${how}.jsonl`);
        // --counting-draws alone: the draws the package ships (assets/medodyssey/counting-draws.json).
        const source = how === '--counting-draws' ? [] : [release!];
        const built = await runCli([
          'build',
          'medodyssey',
          '--data',
          release!,
          '--task',
          'counting',
          '--lang',
          'zh',
          '--haystack',
          set.haystack,
          how,
          ...source,
          '--tokenizers',
          'o200k_base',
          '--out',
          out,
        ]);
        expect(built.stderr.replace(/^build medodyssey: .*\n/gm, '')).toBe('');
        expect(built.code).toBe(0);
        const samples = builtSamples(out);
        expect(samples.size).toBe(28);
        for (const { file, line } of set.lines()) {
          total++;
          const sample = samples.get(line.id);
          if (
            sample?.prompt === line.input &&
            JSON.stringify(sample.gold.counts) === JSON.stringify(line.true_answer)
          )
            matched++;
          else misses.push(`${file} id ${line.id}`);
        }
      }
      console.log(`${how}: ${matched} of ${total} published Counting prompts rebuilt byte for byte.`);
      expect(misses).toEqual([]);
      expect(total).toBe(322);
    });
  }
});

describe.skipIf(!available)('a run of the published build, rerun from its manifest', () => {
  it('sends the same prompts byte for byte', { timeout: 120_000 }, async () => {
    // The medical haystack's --counting-draws build above (this file's one build of it).
    const dataset = join(home, 'medical--counting-draws.jsonl');
    const { startLlmTestServer } = await import('../support/llm-test-server.js');
    const server = await startLlmTestServer();
    try {
      const model = `openai-compatible:counter@${server.url}/v1`;
      const common = ['--tokenizer', 'o200k_base', '--context-window', '200000'];
      const run = await runCli(['--home', home, 'run', '--dataset', dataset, '--model', model, ...common]);
      expect(run.code, run.stderr).toBe(0);
      const first = server.requests.map((request) => JSON.stringify(request.body.messages)).sort();
      const manifest = join(home, 'manifest.json');
      const exported = await runCli(['--home', home, 'export', 'manifest', 'counter', '--out', manifest]);
      expect(exported.code, exported.stderr).toBe(0);
      // The release files the build read, as its header hashed them, in the manifest's dataset input.
      const [input] = JSON.parse(readFileSync(manifest, 'utf8')).recipe.inputs;
      const draws = readFileSync(join(ROOT, 'assets', 'medodyssey', 'counting-draws.json'));
      expect(input.release['counting-draws']).toBe(createHash('sha256').update(draws).digest('hex'));
      const haystack = Object.keys(input.release).filter((name) => name.startsWith('release/raw_data/'));
      expect(haystack.length).toBeGreaterThan(0);
      const again = join(home, 'rerun-home');
      const rerun = await runCli(['--home', again, 'rerun', manifest, '--dataset', dataset]);
      expect(rerun.code, rerun.stderr).toBe(0);
      const sent = server.requests
        .slice(first.length)
        .map((request) => JSON.stringify(request.body.messages));
      expect(first).toHaveLength(28);
      expect(sent.sort()).toEqual(first);
    } finally {
      await server.close();
    }
  });
});
