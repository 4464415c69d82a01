import type { Language } from './constants.js';

export type MedicalTask = 'kg' | 'term' | 'table' | 'case';

/** What goes before the context, between units, and after it (Figures B8 to B11). */
export interface MedicalPromptShape {
  head: string;
  separator: string;
  tail: string;
}

const LIST_FORMAT = '{"result": ["xxx", "xxx", "..."]}';

/** The prompt around a question's context, character for character as the figures print it. */
export function medicalPrompt(task: MedicalTask, language: Language, question: string): MedicalPromptShape {
  const zh = language === 'zh';
  switch (task) {
    case 'term':
      return zh
        ? {
            head: `请完成医疗术语标准化任务，从给定的术语库中选出输入医疗名词对应的标准术语，标准化结果按照下面的JSON格式输出：{"result": "xxx"}\n\n医疗名词：${question}\n\n术语库：`,
            separator: '\n',
            tail: '\n\n标准化结果：',
          }
        : {
            head: `Please complete the medical terminology normalization task by selecting the standard terminology that corresponds to the input medical noun from the given Termbase, and then output the normalized result in the following JSON format: {"result": "xxx"}\n\nMedical Phrase: ${question}\n\nTermbase: `,
            separator: '\n',
            tail: '\n\nNormalization result:',
          };
    case 'kg':
      return zh
        ? {
            head: `请给定一些三元组，格式为 实体1|关系|实体2，请找出能回答所提供问题的三元组，回答按照下面的JSON格式。给出的答案三元组仍需保持提供的格式。仅限从提供的三元组中给出答案，严禁给出答案JSON以外的内容：${LIST_FORMAT}\n\n三元组：`,
            separator: '\n',
            tail: `\n\n问题：${question}\n\n答案：`,
          }
        : {
            head: `Given some triplets in the format Entity1|Relation|Entity2, please find the triplets that can answer the provided question. The answer is in the JSON format below. The given answer triplets must still be in the format provided. Answers can only be given from the provided triplets, and answers other than JSON are strictly prohibited: ${LIST_FORMAT}\n\nTriplets: `,
            separator: '\n',
            tail: `\n\nQuestion: ${question}\n\nAnswer:`,
          };
    case 'table':
      return zh
        ? {
            head: `给定一些markdown格式的表格，请根据表格给出后续问题的答案。给出的答案需符合下面的JSON格式。仅限从提供的表格中给出答案，严禁给出未提供的内容，严禁给出额外内容：${LIST_FORMAT}\n\n表格: `,
            separator: '\n\n',
            tail: `\n\n问题: ${question}\n\n答案:`,
          }
        : {
            head: `Given some markdown tables, please give answers to the subsequent questions based on the tables. The answers given must conform to the following JSON format. Only answers from the provided tables are allowed. It is strictly forbidden to give answers that are not provided, and it is strictly forbidden to give additional content: ${LIST_FORMAT}\n\nTables: `,
            separator: '\n\n',
            tail: `\n\nQuestion: ${question}\n\nAnswer:`,
          };
    case 'case':
      return zh
        ? {
            head: `给定一些病例，请根据病例给出后续问题的答案。给出的答案需符合下面的JSON格式。仅限从提供的病例中给出答案，严禁给出未提供的内容，严禁给出额外内容：${LIST_FORMAT}\n\n病例: `,
            separator: '\n\n',
            tail: `\n\n问题: ${question}\n\n答案:`,
          }
        : {
            head: `Given some medical cases, please give answers to the follow-up questions based on the cases. The answers given must conform to the following JSON format. Only answers based on the cases provided are allowed. It is strictly forbidden to give answers that are not provided or to give additional content: ${LIST_FORMAT}\n\nMedcases: `,
            separator: '\n\n',
            tail: `\n\nQuestion: ${question}\n\nAnswer:`,
          };
  }
}
