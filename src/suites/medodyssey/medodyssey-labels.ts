/** Display names shared by the MedOdyssey text and HTML reports. */
export const METRIC_NAMES: Readonly<Record<string, string>> = {
  esm: 'ESM (exact string matching)',
  ssm: 'SSM (subset string matching)',
};

export const TYPE_NAMES: Readonly<Record<string, string>> = {
  repeat: 'Rep.',
  increase: 'Inc.',
  shuffle: 'Shuf.',
  correction: 'Cor.',
};

export const LANGUAGE_NAMES: Readonly<Record<string, string>> = { en: 'En', zh: 'Zh' };

export const NEEDLE_TYPE_NAMES: Readonly<Record<string, string>> = { general: 'General', med: 'Medical' };

/** Figure 6's three context settings, in the paper's order. */
export const COUNTING_SETTINGS = ['medical MIC', 'generic MIC', 'medical per-model maximum'] as const;

export const TASK_NAMES: Readonly<Record<string, string>> = {
  niah: 'NIAH',
  counting: 'Counting',
  kg: 'KG',
  term: 'Term',
  table: 'Table',
  case: 'Case',
};

/** "zh" + "kg" → "Zh.KG". */
export function datasetName(language: string, task: string): string {
  return `${LANGUAGE_NAMES[language] ?? language}.${TASK_NAMES[task] ?? task}`;
}

export const MEDODYSSEY_METRICS = ['esm', 'ssm'] as const;
