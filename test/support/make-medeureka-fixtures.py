"""Writes the MedEureka loader fixtures in the official formats with Hugging Face `datasets`
(save_to_disk Arrow folder and the hub's Parquet copy). Run once with `datasets` installed;
the outputs are committed under test/fixtures/medeureka/."""
import json, sys
from datasets import Dataset, DatasetDict

out = sys.argv[1]
rows = [
    ("Study_en", "Which receptor does the virus bind?", ["ACE2 is the entry receptor of SARS-CoV-2."]),
    ("Study_en", "How long is the incubation period?", ["The median incubation period is about five days.", "Most cases show symptoms within 14 days."]),
    ("Disease_dignosis_zh", "血糖高", ["2型糖尿病"]),
    ("Disease_dignosis_cross", "high blood pressure", ["高血压"]),
]
corpus = {
    "Study_en": ["ACE2 is the entry receptor of SARS-CoV-2.", "The median incubation period is about five days.", "Most cases show symptoms within 14 days.", "Masks reduce transmission."],
    "Disease_dignosis_zh": ["2型糖尿病", "高血压", "冠心病"],
    "Disease_dignosis_cross": ["2型糖尿病", "高血压", "冠心病"],
}
test = Dataset.from_dict({"task_type": [r[0] for r in rows], "item": [[r[1], "<#SEP#>".join(r[2])] for r in rows]})
corpus_split = Dataset.from_dict({"task2corpus": [json.dumps(corpus, ensure_ascii=False)]})
DatasetDict({"test": test, "corpus": corpus_split}).save_to_disk(f"{out}/save-to-disk")
test.to_parquet(f"{out}/parquet/data/test-00000-of-00001.parquet")
corpus_split.to_parquet(f"{out}/parquet/data/corpus-00000-of-00001.parquet")
