/** MedEureka's datasets: task keys, language, query → target granularity (docs/formats.md, MedEureka; the paper's Table 1). */
export interface MedEurekaDataset {
  name: string;
  keys: readonly string[];
  language: 'en' | 'zh' | 'en→zh';
  granularity: string;
}

const TERM_CATEGORIES = ['Disease_dignosis', 'Clinical_examination', 'Procedure_operation', 'Symptom_sign'];

export const MEDEUREKA_DATASETS: readonly MedEurekaDataset[] = [
  { name: 'Table I', keys: ['Table_zh'], language: 'zh', granularity: 'sentence → document' },
  { name: 'Table II', keys: ['Table_en'], language: 'en', granularity: 'sentence → document' },
  { name: 'Literature I', keys: ['Literature_zh'], language: 'zh', granularity: 'sentence → paragraph' },
  { name: 'Literature II', keys: ['Literature_en'], language: 'en', granularity: 'sentence → document' },
  { name: 'KB I', keys: ['KB_para_zh'], language: 'zh', granularity: 'sentence → paragraph' },
  { name: 'KB II', keys: ['KB_doc_zh'], language: 'zh', granularity: 'sentence → document' },
  {
    name: 'Term I',
    keys: TERM_CATEGORIES.map((category) => `${category}_zh`),
    language: 'zh',
    granularity: 'phrase → phrase',
  },
  {
    name: 'Term II',
    keys: TERM_CATEGORIES.map((category) => `${category}_cross`),
    language: 'en→zh',
    granularity: 'phrase → phrase',
  },
  { name: 'Term III', keys: ['AskAPatient_en'], language: 'en', granularity: 'phrase → phrase' },
  { name: 'Term IV', keys: ['SMM4H-17_en'], language: 'en', granularity: 'phrase → phrase' },
  { name: 'Term V', keys: ['TwADR-L_en'], language: 'en', granularity: 'phrase → phrase' },
  { name: 'EHR I', keys: ['EHR_query2sql_zh'], language: 'zh', granularity: 'sentence → SQL' },
  { name: 'EHR II', keys: ['EHR_query2para_zh'], language: 'zh', granularity: 'sentence → paragraph' },
  { name: 'EHR III', keys: ['EHR_sql2para_zh'], language: 'zh', granularity: 'SQL → paragraph' },
  { name: 'EHR IV', keys: ['EHR_query2doc_zh'], language: 'zh', granularity: 'sentence → document' },
  { name: 'Dialogue I', keys: ['Dialogue_qnorm_zh'], language: 'zh', granularity: 'sentence → sentence' },
  { name: 'Dialogue II', keys: ['Dialogue_en'], language: 'en', granularity: 'sentence → paragraph' },
  { name: 'Dialogue III', keys: ['Dialogue_zh'], language: 'zh', granularity: 'sentence → sentence' },
];

/**
 * The release spells the literature keys Study_en / Study_zh; Term II keys are `<category>_cross`
 * (the official toolkit's spelling), also accepted as `<category>_zh_cross`.
 */
export function canonicalTaskKey(key: string): string {
  return key.replace(/^Study_(en|zh)$/, 'Literature_$1').replace(/_zh_cross$/, '_cross');
}

/** Every canonical task key, in Table 1 order. */
export const MEDEUREKA_TASK_KEYS: readonly string[] = MEDEUREKA_DATASETS.flatMap((dataset) => dataset.keys);

/** Data type of a dataset (Table I → Table), for the paper's radar charts. */
export function dataTypeOf(dataset: MedEurekaDataset): string {
  return dataset.name.replace(/ [IVX]+$/, '');
}

export function datasetOfKey(key: string): MedEurekaDataset | undefined {
  const canonical = canonicalTaskKey(key);
  return MEDEUREKA_DATASETS.find((dataset) => dataset.keys.includes(canonical));
}
