import type { Language } from './constants.js';

/**
 * Figure B5, each language's instruction paragraph as one line, followed by the context
 * header. These strings are part of the published prompts: a single changed character
 * changes every NIAH token count.
 */
export const NIAH_INSTRUCTION: Record<Language, string> = {
  en: 'Please answer the question based on the context. Please output the answer directly according to the JSON format requirements. The format requirements is: {"answer": "xxx"}. The answer is required to come from the given content, and irrelevant text is strictly prohibited.\nContext:\n',
  zh: '请根据接下来的内容回答后续的问题。请按照JSON格式要求直接输出答案，格式要求：{"答案": "xxx"}。要求答案来自所给内容，严禁要给出无关文本。\n内容：\n',
};

export function niahQuestion(language: Language, question: string): string {
  return language === 'zh' ? `\n问题：${question}\n答案：` : `\nQuestion: ${question}\nAnswer: `;
}

/** Characters after which a needle or counting sentence may be inserted. */
export const SENTENCE_BOUNDARIES: Record<Language, ReadonlySet<string>> = {
  en: new Set(['\n', '.']),
  zh: new Set(['\n', '。']),
};

export const NIAH_ANSWER_KEYS = ['answer', '答案'] as const;
export const COUNTING_ANSWER_KEYS = ['little_star', '小星星'] as const;

/**
 * The Counting prefix, as the published prompts have it: a blank line, the Figure B6 (repeat,
 * increase, shuffle) or B7 (correction) story as one line, a blank line. Unlike the figures,
 * the JSON example has no spaces (`{"小星星":[x,x,x,...]}`): the 322 published zh prompts all
 * read so. No en prompt was published; the en prefix follows the same rule with the figures'
 * English story (its stray closing quote in Figure B6 left out).
 */
export const COUNTING_INSTRUCTION: Record<'plain' | 'correction', Record<Language, string>> = {
  plain: {
    en: '\n\nOn a moonlit and misty night, a little star in the sky above Antarctica opened its eyes and looked down, it was bored and started to count the number of little penguins on the ground. Please help the little star collect the number of little penguins, for example: {"little_star":[x,x,x,...]}. The summation is not required, and the numbers in [x,x,x,...] represent the counted number of little penguins by the little star. Only output the results in JSON format without any explanation.\n\n',
    zh: '\n\n在某个月光皎洁、云雾缭绕的夜晚，南极洲上空有一只小星星睁开了眼睛往下面看，它很无聊于是开始全神贯注地数地面一共有多少只小企鹅。请帮助小星星收集所数的小企鹅只数，按照如下格式：{"小星星":[x,x,x,...]}，不要求和，[x,x,x,...]中数字为小星星每次数小企鹅的只数，仅以JSON格式输出结果，不需要输出任何解释。\n\n',
  },
  correction: {
    en: '\n\nOn a moonlit and misty night, a little star in the sky above Antarctica opened its eyes and looked down, it was bored and started to count the number of little penguins on the ground. Please help the little star collect the correct number of little penguins, for example: {"little_star":[x,x,x,...]}. The summation is not required, and the numbers in [x,x,x,...] represent the correctly counted number of little penguins by the little star. Only output the results in JSON format without any explanation.\n\n',
    zh: '\n\n在某个月光皎洁、云雾缭绕的夜晚，南极洲上空有一只小星星睁开了眼睛往下面看，它很无聊于是开始全神贯注地数地面一共有多少只小企鹅。请帮助小星星收集所数的正确小企鹅只数，按照如下格式：{"小星星":[x,x,x,...]}，不要求和，[x,x,x,...]中数字为小星星每次数小企鹅正确的只数，仅以JSON格式输出结果，不需要输出任何解释。\n\n',
  },
};

/**
 * One counting sentence, without the newlines around it (Figures B2, B6, B7; zh as published,
 * with no comma after 区域 in the correction sentence). The en sentences are the figures' words,
 * "little penguin." included: no en prompt was published to say otherwise.
 */
export function countingSentence(options: {
  language: Language;
  count: number;
  wrongCount?: number;
}): string {
  const { language, count, wrongCount } = options;
  if (wrongCount === undefined) {
    return language === 'zh'
      ? `小星星看向一小块区域，数了${count}只小企鹅。`
      : `The little star looked to a small area and counted ${count} little penguin.`;
  }
  return language === 'zh'
    ? `小星星看向一小块区域数了${wrongCount}只小企鹅，但发现数错了，于是又数了一遍，这次数对了，是${count}只小企鹅。`
    : `The little star looked to a small area and counted ${wrongCount} little penguins, but found that a mistake had been made, so the counting was done again, and this time ${count} little penguins was counted correctly.`;
}
