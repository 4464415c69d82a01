import { LANGUAGES } from './constants.js';
import { COUNTING_INSTRUCTION, countingSentence, NIAH_INSTRUCTION, niahQuestion } from './prompts.js';

/**
 * MedOdyssey's NIAH and Counting templates per language, placeholders in braces (a run's manifest
 * hashes them); the KG/Term/Table/Case templates come from the release's prompt.json, in the build.
 */
export function medodysseyTemplates(): Record<string, string> {
  return Object.fromEntries(
    LANGUAGES.flatMap((language) => [
      [`niah.${language}.instruction`, NIAH_INSTRUCTION[language]],
      [`niah.${language}.question`, niahQuestion(language, '{question}')],
      [`counting.${language}.instruction`, COUNTING_INSTRUCTION.plain[language]],
      [`counting.${language}.correction-instruction`, COUNTING_INSTRUCTION.correction[language]],
      [`counting.${language}.sentence`, countingSentence({ language, count: 0 }).replace('0', '{count}')],
      [
        `counting.${language}.correction-sentence`,
        countingSentence({ language, count: 1, wrongCount: 0 })
          .replace('0', '{wrong}')
          .replace('1', '{count}'),
      ],
    ]),
  );
}
