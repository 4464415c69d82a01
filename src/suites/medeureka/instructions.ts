import { MedbenchError } from '../../core/errors.js';
import { canonicalTaskKey } from './datasets.js';

/**
 * The query instruction of each task key: Figure C12 of the MedEureka paper, as spelled in the
 * official toolkit (`eval/Toolkit.py`, including its missing full stops).
 */
export const MEDEUREKA_INSTRUCTIONS: Readonly<Record<string, string>> = {
  Literature_en: 'Given a query for the experts, retrieve relevant scientific articles.',
  Literature_zh: '给定一个来自患者的问题，查询相关的医学片段。',
  Table_en: 'Given a query, retrieve the relevant medical table.',
  Table_zh: '给定一个问题，查询相关的医学诊疗表格。',
  KB_para_zh: '给定一个问题，查询中药药品说明书中的相关片段。',
  KB_doc_zh: '给定一个问题，查询相关的中药药品说明书。',
  AskAPatient_en: 'Given a social media phrase, retrieve relevant medical terminology',
  'SMM4H-17_en': 'Given a social media phrase, retrieve relevant medical terminology',
  'TwADR-L_en': 'Given a social media phrase, retrieve relevant medical terminology',
  Disease_dignosis_zh: '给定一个短语，查询标准的疾病诊断术语。',
  Clinical_examination_zh: '给定一个短语，查询标准的体格检查短语。',
  Procedure_operation_zh: '给定一个短语，查询标准的手术操作短语。',
  Symptom_sign_zh: '给定一个短语，查询标准的症状体征短语。',
  Disease_dignosis_cross: 'Given a phrase, retrieve normalized disease diagnosis term.',
  Clinical_examination_cross: 'Given a phrase, retrieve normalized clinical examination term.',
  Procedure_operation_cross: 'Given a phrase, retrieve normalized procedure operation term.',
  Symptom_sign_cross: 'Given a phrase, retrieve normalized symptom sign term.',
  EHR_query2sql_zh: '给定一个关于医疗电子病历的问题，查询相关的SQL语句。',
  EHR_sql2para_zh: '给定一个SQL语句，查询相关的医疗电子病历段落。',
  EHR_query2para_zh: '给定一个问题，查询相关的医疗电子病历段落。',
  EHR_query2doc_zh: '给定一个问题，查询相关的医疗电子病历。',
  Dialogue_qnorm_zh: '给定一个来自患者的问题，查询相关的问题。',
  Dialogue_en: "Given a query for patients, retrieve relevant medical patient's questions",
  Dialogue_zh: '给定一个来自患者的问题，查询相关的回答。',
};

/**
 * How a model family combines an instruction with a query. `{instruction}` and `{query}` are
 * replaced; `none` embeds the bare query.
 */
export const INSTRUCTION_TEMPLATES: Readonly<Record<string, string | null>> = {
  /** e5-mistral-7b-instruct, multilingual-e5-large-instruct, gte-Qwen2 (the toolkit's get_detailed_instruct). */
  e5: 'Instruct: {instruction}\nQuery: {query}',
  /** bge v1.5 (FlagModel's query_instruction_for_retrieval prefix). */
  bge: '{instruction}{query}',
  /** bge-multilingual-gemma2 (FlagLLMModel). */
  'bge-gemma2': '<instruct>{instruction}\n<query>{query}',
  none: null,
};

export interface QueryInstruction {
  /** The Figure C12 text, or null when the template is `none`. */
  instruction: string | null;
  /** The template name or literal template, as recorded with results. */
  template: string;
}

/** Resolves a preset name or a literal template holding `{query}`. */
export function resolveTemplate(template: string): string | null {
  if (template in INSTRUCTION_TEMPLATES) return INSTRUCTION_TEMPLATES[template] ?? null;
  if (!template.includes('{query}')) {
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `Unknown instruction template "${template}".`,
      hint: `Use a preset (${Object.keys(INSTRUCTION_TEMPLATES).join(', ')}) or a template with {instruction} and {query}, such as "Instruct: {instruction}\\nQuery: {query}".`,
    });
  }
  return template;
}

/** The instruction a task key gets under a template (null under `none`). */
export function instructionFor(key: string, template: string): QueryInstruction {
  if (resolveTemplate(template) === null) return { instruction: null, template };
  const instruction = MEDEUREKA_INSTRUCTIONS[canonicalTaskKey(key)];
  if (instruction === undefined) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `MedEureka has no instruction for the task key ${key}.`,
      hint: "Task keys are those of the paper's Table 1, listed in docs/formats.md (MedEureka).",
    });
  }
  return { instruction, template };
}

/** Applies a template to one query: `{instruction}` first, so a query holding "{instruction}" stays as it is. */
export function applyInstruction(query: string, instruction: QueryInstruction): string {
  const template = resolveTemplate(instruction.template);
  if (template === null || instruction.instruction === null) return query;
  const [before, after] = splitOnce(template, '{query}');
  return (
    before.replaceAll('{instruction}', instruction.instruction) +
    query +
    after.replaceAll('{instruction}', instruction.instruction)
  );
}

function splitOnce(text: string, separator: string): [string, string] {
  const index = text.indexOf(separator);
  return [text.slice(0, index), text.slice(index + separator.length)];
}
