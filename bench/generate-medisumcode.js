// `medbench generate medisumcode` on a synthetic MIMIC-IV-sized slice, against Python reading the
// same discharge.csv with its csv module (what generate_code_dataset.py does before anything else)
// in the same run. The files are written here: NOTES notes of about 10,000 characters (quoted,
// multi-line, with doubled quotes) and ten diagnoses each.
// Usage: npm run build && node bench/generate-medisumcode.js [notes] [repeats]
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMeDiSumCode, shippedIcdTables } from '../dist/index.js';

const notes = Number(process.argv[2] ?? 30000);
const repeats = Number(process.argv[3] ?? 3);
const folder = mkdtempSync(join(tmpdir(), 'medbench-bench-mdsc-'));
const discharge = join(folder, 'discharge.csv');
const diagnoses = join(folder, 'diagnoses_icd.csv');

async function writeFiles() {
  const out = createWriteStream(discharge);
  out.write('note_id,subject_id,hadm_id,note_type,note_seq,charttime,storetime,text\n');
  const body =
    'Patient presented with "chest pain", history of HTN, DM2.\nMeds: aspirin 81 mg daily.\n'.repeat(110);
  for (let index = 0; index < notes; index++) {
    const line = `${index}-DS-1,${index},${20000000 + index},DS,1,2180-01-01 00:00:00,2180-01-01 12:00:00,"${body.replaceAll('"', '""')}"\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  const rows = ['subject_id,hadm_id,seq_num,icd_code,icd_version'];
  for (let index = 0; index < notes; index++)
    for (let seq = 0; seq < 10; seq++)
      rows.push(`${index},${20000000 + index},${seq + 1},${seq % 2 ? '4019' : 'E119'},${seq % 2 ? 9 : 10}`);
  writeFileSync(diagnoses, `${rows.join('\n')}\n`);
}

const python = `
import csv, random, sys, time
random.seed(44)
started = time.perf_counter()
notes = [(line[2], line[7]) for i, line in enumerate(csv.reader(open(sys.argv[1]))) if i > 0]
random.shuffle(notes)
print(time.perf_counter() - started)
`;

try {
  await writeFiles();
  const megabytes = statSync(discharge).size / 1e6;
  console.log(
    `discharge.csv ${megabytes.toFixed(0)} MB, ${notes} notes; diagnoses_icd.csv ${notes * 10} rows`,
  );
  const ours = [];
  const theirs = [];
  for (let round = 0; round < repeats; round++) {
    const started = performance.now();
    const { records } = await generateMeDiSumCode({ discharge, diagnoses, tables: shippedIcdTables() });
    ours.push((performance.now() - started) / 1000);
    if (records.length !== 500) throw new Error(`expected 500 records, got ${records.length}`);
    const run = spawnSync('python3', ['-c', python, discharge], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    theirs.push(Number(run.stdout));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const spread = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} s`;
  console.log(
    `medbench generate medisumcode (reads the notes twice, diagnoses, writes nothing): median ${median(ours).toFixed(2)} s (${spread(ours)})`,
  );
  console.log(
    `python3 csv.reader over discharge.csv + random.shuffle only: median ${median(theirs).toFixed(2)} s (${spread(theirs)})`,
  );
  console.log(`ratio medbench / python reading alone: ${(median(ours) / median(theirs)).toFixed(2)}×`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
