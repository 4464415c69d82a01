import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MedbenchError } from '../../core/errors.js';
import { readTextFile } from '../../io/text-file.js';
import { CodePointText, codePointLength } from '../../tokenizers/code-point-text.js';
import type { Language } from './constants.js';
import { normalizeReleaseText } from './normalize-release-text.js';
import { EN_GUIDELINE_ORDER, genericHaystackFiles, type HaystackKind, ZH_BOOK_ORDER } from './release.js';

/**
 * The zh books Counting reads, in order. The published prompts start with 《食疗本草》 and
 * continue into 《本草图经》; none reaches a third book, so the rest of the order is not
 * known and medbench continues with the NIAH order.
 */
export const COUNTING_ZH_BOOK_ORDER: readonly string[] = [
  '(6.4.1-03079).本草-食疗本草-食疗.《食疗本草》.孟诜.md',
  '(6.2.2-20002).本草-综合本草-宋金元本草.《本草图经》(十三卷).苏颂.md',
  ...ZH_BOOK_ORDER.filter((name) => !name.includes('《食疗本草》') && !name.includes('《本草图经》')),
];

/**
 * A Counting haystack: the text that goes into prompts, where a cut may end, and where a
 * counting sentence may go. For the zh generic haystack the prompt text has every 。 turned
 * into a newline (the published build replaced them in the kept text, one character for one),
 * while cuts and insertion points are decided on the original characters.
 */
export interface CountingHaystack {
  language: Language;
  kind: HaystackKind;
  text: CodePointText;
  /** Ascending positions p whose character ends a cut: the kept text is [0, p]. */
  cutPositions: Int32Array;
  /** Ascending offsets o (1 … length) right after a sentence-boundary character: insertion points. */
  insertionOffsets: Int32Array;
  files: string[];
}

interface HaystackRule {
  files: (datasetFolder: string) => string[];
  normalize: (text: string) => string;
  cutCharacter: string;
  boundaries: ReadonlySet<string>;
  /** Replace in the kept text after cutting (zh generic: 。 → newline). */
  replace?: { from: string; to: string };
}

const collapse = (text: string) => text.replaceAll('\r\n', '\n').replace(/\n+/g, '\n');

/** The published rules (spec: Counting), and medbench's choices where nothing was published (en). */
function ruleFor(language: Language, kind: HaystackKind): HaystackRule {
  if (kind === 'medical') {
    const folder = language === 'en' ? 'en_guidelines' : 'zh_book';
    const order = language === 'en' ? EN_GUIDELINE_ORDER : COUNTING_ZH_BOOK_ORDER;
    return {
      files: (datasetFolder) => order.map((name) => join(datasetFolder, 'raw_data', folder, name)),
      normalize: normalizeReleaseText,
      cutCharacter: '\n',
      boundaries: new Set(['\n', language === 'en' ? '.' : '。']),
    };
  }
  return language === 'zh'
    ? {
        files: (datasetFolder) => genericHaystackFiles(datasetFolder, 'zh'),
        normalize: collapse,
        cutCharacter: '。',
        boundaries: new Set(['\n', '。']),
        replace: { from: '。', to: '\n' },
      }
    : {
        files: (datasetFolder) => genericHaystackFiles(datasetFolder, 'en'),
        normalize: collapse,
        cutCharacter: '\n',
        boundaries: new Set(['\n', '.']),
      };
}

/**
 * Reads the Counting haystack of a language and kind, in order, until `minimumChars` code
 * points: each file normalised (newline runs collapsed; for the medical books also the literal
 * `\x` → newline) and followed by one extra newline, so files are separated by a blank line.
 */
export function loadCountingHaystack(options: {
  datasetFolder: string;
  language: Language;
  kind: HaystackKind;
  minimumChars: number;
  /** Read on until this many characters if the files hold them (exact modes may use more than γ predicts). */
  preferredChars?: number;
}): CountingHaystack {
  const rule = ruleFor(options.language, options.kind);
  const paths = rule.files(options.datasetFolder);
  let original = '';
  let length = 0;
  const read: string[] = [];
  const wanted = Math.max(options.minimumChars, options.preferredChars ?? 0);
  for (const path of paths) {
    if (length >= wanted) break;
    if (!existsSync(path)) {
      if (length >= options.minimumChars) break;
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `The ${options.language} ${options.kind} Counting haystack needs ${path}, which is missing (${length} of the ${options.minimumChars} characters needed read so far).`,
        hint: 'Give the full release: its haystack files are read in the published order, and a gap would change every prompt after it.',
      });
    }
    const text = `${rule.normalize(readTextFile(path))}\n`;
    original += text;
    length += codePointLength(text);
    read.push(path);
  }
  if (length < options.minimumChars) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `The ${options.language} ${options.kind} Counting haystack holds ${length} characters; the largest level needs ${options.minimumChars}.`,
      hint: 'Add the haystack files of the official release, or build smaller levels (--levels).',
    });
  }
  return countingHaystackOf({ language: options.language, kind: options.kind, text: original, files: read });
}

/** A Counting haystack over text already normalised and joined as the loader does. */
export function countingHaystackOf(options: {
  language: Language;
  kind: HaystackKind;
  text: string;
  files?: string[];
}): CountingHaystack {
  const rule = ruleFor(options.language, options.kind);
  const source = new CodePointText(options.text);
  const cuts: number[] = [];
  const insertions: number[] = [];
  for (let position = 0; position < source.length; position++) {
    const character = source.charAt(position);
    if (character === rule.cutCharacter) cuts.push(position);
    if (rule.boundaries.has(character)) insertions.push(position + 1);
  }
  return {
    language: options.language,
    kind: options.kind,
    text: rule.replace
      ? new CodePointText(options.text.replaceAll(rule.replace.from, rule.replace.to))
      : source,
    cutPositions: Int32Array.from(cuts),
    insertionOffsets: Int32Array.from(insertions),
    files: options.files ?? [],
  };
}

/** Index of the last value ≤ limit in an ascending array, or −1. */
export function lastAtMost(values: Int32Array, limit: number): number {
  let low = 0;
  let high = values.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (values[middle]! <= limit) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The published cut: walk left from `budget` to the nearest cut character and keep through it. */
export function keptLength(haystack: CountingHaystack, budget: number): number {
  const index = lastAtMost(haystack.cutPositions, Math.min(budget, haystack.text.length - 1));
  return index === -1 ? 0 : haystack.cutPositions[index]! + 1;
}
