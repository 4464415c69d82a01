import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { parseJsonText, readTextFile } from '../../io/text-file.js';
import { CodePointText } from '../../tokenizers/code-point-text.js';
import type { Language } from './constants.js';
import { normalizeReleaseText } from './normalize-release-text.js';

export const EN_GUIDELINE_ORDER = [
  'chronic_myeloid_leukemia_2024.md',
  'multiple_myeloma_2024.md',
  'colon_cancer_2024.md',
] as const;

/** The published zh haystack order (formats.md); a build reads them until it has enough text. */
export const ZH_BOOK_ORDER = [
  '(6.1.2-02453).本草-本草经-本经注释.《神农本草经百种录》.徐大椿.md',
  '(6.2.4-02573).本草-综合本草-清代本草.《本草纲目拾遗》(十卷).赵学敏.md',
  '(6.2.4-02591).本草-综合本草-清代本草.《本草述钩元》(三十二卷).刘若金.md',
  '(6.4.1-03082.2).本草-食疗本草-食疗.《饮膳正要》(三卷).忽思慧.md',
  '(6.2.1-02480).本草-综合本草-唐五代以前.《吴普本草》.吴普.md',
  '(6.4.1-03117.2).本草-食疗本草-食疗.《食鉴本草》.费伯雄.md',
  '(6.3-02989).本草-歌括便读.《本草易读》(八卷).汪昂.md',
  '(6.4.1-03079).本草-食疗本草-食疗.《食疗本草》.孟诜.md',
  '(6.2.4-02559).本草-综合本草-清代本草.《本草品汇精要》(四十二卷、续集十卷).刘文泰.md',
  '(6.2.4-02570).本草-综合本草-清代本草.《本草从新》(十八卷).吴仪洛.md',
  '(6.2.3-02498.2).本草-综合本草-明代本草.《滇南本草》(三卷).兰茂.md',
  '(6.2.3-02509).本草-综合本草-明代本草.《本草蒙筌》(十二卷).陈嘉谟.md',
  '(6.2.1-02481).本草-综合本草-唐五代以前.《本草经集注》.陶弘景.md',
  '(6.2.1-02482).本草-综合本草-唐五代以前.《新秀本草》(二十卷).苏敬.md',
  '(6.1.2-02454).本草-本草经-本经注释.《神农本草经读》(四卷).陈念祖.md',
  '(6.1.1-02438.3).本草-本草经-本经辑本.《神农本草经》(三卷).吴普.魏.md',
  '(6.1.2-02450).本草-本草经-本经注释.《本草崇原》(三卷).张志聪.md',
  '(6.2.4-02555.12).本草-综合本草-清代本草.《增订本草备要》.汪昂.md',
  '(6.2.3-02511.1).本草-综合本草-明代本草.《本草纲目》(五十二卷).李时珍.md',
  '(6.2.2-02484.6).本草-综合本草-宋金元本草.《本草衍义》(二十卷).寇宗奭.md',
  '(6.2.1-20001).本草-综合本草-唐五代以前本草.《海药本草》(六卷).李旬.md',
  '(6.2.4-02574).本草-综合本草-清代本草.《本草求真》(十卷).黄宫绣.md',
  '(6.1.2-02452).本草-本草经-本经注释.《本草经解要》(四卷).叶桂.md',
  '(6.2.4-02552).本草-综合本草-清代本草.《本草新编》(五卷).陈士铎.md',
  '(12.3-13344.12).综合性补给-中医丛书.《本草思辨录》.周岩.md',
  '(6.2.2-02494).本草-综合本草-宋金元本草.《汤液本草》(三卷).王好古.md',
  '(6.2.4-02556).本草-综合本草-清代本草.《本经逢原》(四卷).张璐.md',
  '(6.2.3-02531).本草-综合本草-明代本草.《本草征要》(四卷).李中梓.md',
  '(6.2.2-20002).本草-综合本草-宋金元本草.《本草图经》(十三卷).苏颂.md',
  '(6.2.3-02538).本草-综合本草-明代本草.《本草乘雅半偈》(十二卷).卢之颐.md',
] as const;

export type HaystackKind = 'medical' | 'generic';

const needleSchema = z.object({
  needle: z.string().min(1),
  input: z.string().min(1),
  ground_truth: z.array(z.string()).min(1),
  // The release writes "med"; the format notes say "medical": one type either way.
  type: z.enum(['general', 'med', 'medical']).transform((type) => (type === 'medical' ? 'med' : type)),
  id: z.number().int(),
});
export type Needle = z.infer<typeof needleSchema>;

/**
 * Finds the `dataset/` folder of a release given either the repository root or the
 * dataset folder itself.
 */
export function resolveDatasetFolder(folder: string): string {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `MedOdyssey release folder not found: ${folder}`,
      hint: 'Pass the repository root (holding dataset/) or its dataset/ folder (holding task_data/ and raw_data/).',
    });
  }
  for (const candidate of [join(folder, 'dataset'), folder]) {
    if (existsSync(join(candidate, 'task_data')) || existsSync(join(candidate, 'raw_data'))) return candidate;
  }
  throw new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: `${folder} is not a MedOdyssey release: neither ${join(folder, 'dataset/task_data')} nor ${join(folder, 'task_data')} exists.`,
    hint: 'Pass the repository root (holding dataset/) or its dataset/ folder (holding task_data/ and raw_data/).',
  });
}

/** A JSON file's value; a missing file or bad JSON is an error naming the file, with `hints` for each. */
export function readJsonFile(
  path: string,
  hints: { missing: string; invalid: string } = {
    missing: 'Check the release folder; the needles live in dataset/task_data/needles/.',
    invalid: 'Restore the file from the official release.',
  },
): unknown {
  if (!existsSync(path)) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `File not found: ${path}`,
      hint: hints.missing,
    });
  }
  try {
    return parseJsonText(readTextFile(path), path, hints.invalid);
  } catch (error) {
    if (MedbenchError.is(error) && !error.hint)
      throw new MedbenchError({
        code: error.code,
        message: error.message,
        hint: hints.invalid,
        cause: error,
      });
    throw error;
  }
}

export function loadNeedles(datasetFolder: string, language: Language): Needle[] {
  const path = join(datasetFolder, 'task_data', 'needles', `${language}_pure_needles.json`);
  const parsed = z.array(needleSchema).min(1).safeParse(readJsonFile(path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: item ${issue.path.join('.')} ${issue.message}`,
      hint: 'Each needle needs needle, input, ground_truth (array of strings), type ("general" or "med") and an integer id.',
    });
  }
  return parsed.data;
}

function haystackFiles(datasetFolder: string, language: Language, kind: HaystackKind): string[] {
  if (kind === 'medical') {
    const folder = join(datasetFolder, 'raw_data', language === 'en' ? 'en_guidelines' : 'zh_book');
    const order = language === 'en' ? EN_GUIDELINE_ORDER : ZH_BOOK_ORDER;
    return order.map((name) => join(folder, name));
  }
  return genericHaystackFiles(datasetFolder, language);
}

/** The generic haystack files of a language (`raw_data/<lang>_general_haystack/*.txt`), in name order. */
export function genericHaystackFiles(datasetFolder: string, language: Language): string[] {
  const folder = join(datasetFolder, 'raw_data', `${language}_general_haystack`);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => join(folder, name));
}

/**
 * Reads the haystack files in the published order, normalised, until at least
 * `minimumChars` characters are available. Missing later files are fine as long as the
 * earlier ones hold enough text.
 */
export function loadHaystack(options: {
  datasetFolder: string;
  language: Language;
  kind: HaystackKind;
  minimumChars: number;
  /** Read on until this many characters if the files hold them (exact mode may need more). */
  preferredChars?: number;
}): CodePointText {
  const files = haystackFiles(options.datasetFolder, options.language, options.kind);
  const wanted = Math.max(options.minimumChars, options.preferredChars ?? 0);
  let text = '';
  const missing: string[] = [];
  for (const file of files) {
    if (text.length >= wanted) break;
    if (!existsSync(file)) {
      missing.push(file);
      continue;
    }
    if (missing.length > 0) break; // the order matters: a gap would change every prompt after it
    text += normalizeReleaseText(readTextFile(file));
  }
  const haystack = new CodePointText(text);
  if (haystack.length < options.minimumChars) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `The ${options.language} ${options.kind} haystack holds ${haystack.length} characters; the largest level needs ${options.minimumChars}.`,
      hint:
        missing.length > 0
          ? `Missing haystack file(s), first: ${missing[0]}`
          : 'Add the haystack files of the official release, or build fewer/smaller levels (--levels).',
    });
  }
  return haystack;
}
