import { MedbenchError } from '../core/errors.js';

/** Parses "4000,8000" or "4k,8k" into numbers; throws a USAGE error naming the flag. */
export function parseNumberList(flag: string, value: string): number[] {
  return value.split(',').map((item) => {
    const text = item.trim().toLowerCase();
    const number = text.endsWith('k') ? Number(text.slice(0, -1)) * 1000 : Number(text);
    if (!Number.isFinite(number) || number < 0) {
      throw new MedbenchError({
        code: 'USAGE',
        message: `${flag}: "${item}" is not a number.`,
        hint: `Example: ${flag} 4k,8k,16k`,
      });
    }
    return number;
  });
}

export function parseChoiceList<Choice extends string>(
  flag: string,
  value: string,
  choices: readonly Choice[],
): Choice[] {
  return value.split(',').map((item) => {
    const text = item.trim();
    if (!(choices as readonly string[]).includes(text)) {
      throw new MedbenchError({
        code: 'USAGE',
        message: `${flag}: "${text}" is not one of ${choices.join(', ')}.`,
      });
    }
    return text as Choice;
  });
}

export function parsePositiveNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new MedbenchError({ code: 'USAGE', message: `${flag}: "${value}" must be a positive number.` });
  }
  return number;
}

/** "6-20" or "8" → { min, max }. */
export function parseRange(flag: string, value: string): { min: number; max: number } {
  const [low, high = low] = value.split('-').map((part) => Number(part.trim()));
  if (!Number.isInteger(low) || !Number.isInteger(high) || low! < 1 || high! < low!) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `${flag}: "${value}" must be N or MIN-MAX with 1 <= MIN <= MAX.`,
    });
  }
  return { min: low!, max: high! };
}
