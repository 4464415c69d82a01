// A generated section of a doc, the text between two HTML-comment markers, made from the published
// MedOdyssey release by the built CLI: read for a test to check, written by the tool that makes it
// (tools/neighbour-pairs.js, tools/effective-lengths.js).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', 'bin', 'medbench.js');

/** The built CLI on a home: its stdout. */
export const cli = (home, args) =>
  execFileSync(process.execPath, [BIN, '--home', home, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** A home holding the published release, imported by the built CLI. */
export function importRelease(release) {
  const home = mkdtempSync(join(tmpdir(), 'medbench-release-'));
  cli(home, ['import', 'medodyssey-outputs', release]);
  return home;
}

/**
 * A doc's generated section: `documented(text?)` gives it as the doc holds it (trimmed, one closing
 * newline). When `meta` is the running script's `import.meta`, runs the tool's command line: imports
 * the release (the folder given, else $MEDBENCH_SHARED_DATA/medodyssey), makes the section with
 * `make(home)` and prints it, or with --write puts it into the doc; the home is removed after.
 */
export function generatedSection({ doc, markers, make, meta }) {
  const documented = (text = readFileSync(doc, 'utf8')) => {
    const start = text.indexOf(markers[0]);
    const end = text.indexOf(markers[1]);
    if (start < 0 || end < start) throw new Error(`${doc} lacks the markers ${markers.join(' … ')}`);
    return text
      .slice(start + markers[0].length, end)
      .trim()
      .concat('\n');
  };
  if (process.argv[1] && meta.filename === process.argv[1]) {
    const release =
      process.argv.slice(2).find((argument) => !argument.startsWith('--')) ??
      join(process.env.MEDBENCH_SHARED_DATA ?? '../shared/data', 'medodyssey');
    const home = importRelease(release);
    try {
      const section = make(home);
      if (process.argv.includes('--write')) {
        const text = readFileSync(doc, 'utf8');
        const start = text.indexOf(markers[0]) + markers[0].length;
        writeFileSync(doc, `${text.slice(0, start)}\n${section}${text.slice(text.indexOf(markers[1]))}`);
        process.stderr.write(`Wrote the section into ${doc}\n`);
      } else process.stdout.write(section);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  return { documented };
}
