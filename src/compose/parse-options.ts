import { MedbenchError } from '../core/errors.js';

/** Bounds of a numeric option; `integer` by default. */
export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

function describeRule(rule: NumberRule): string {
  const kind = rule.integer === false ? 'a number' : 'a whole number';
  if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `${kind} of at least ${rule.min}`;
  if (rule.max !== undefined) return `${kind} of at most ${rule.max}`;
  return kind;
}

/** Parses one number, checking type and range; throws a USAGE error naming the flag and the rule. */
export function parseNumber(flag: string, value: string, rule: NumberRule = {}, shown = value): number {
  const text = value.trim();
  const integer = rule.integer !== false;
  // Number('') is 0 and Number('0x10') is 16: only plain decimal notation is a number here, and
  // a whole number is digits alone (not 1e3 or 10.0, which Number reads as whole numbers too).
  const plain = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  const number = plain.test(text) ? Number(text) : Number.NaN;
  // A whole number in another notation: the error says which one to use.
  const notation = integer && text !== '' && Number.isNaN(number) && Number.isInteger(Number(text));
  if (
    !Number.isFinite(number) ||
    (integer && !Number.isInteger(number)) ||
    (rule.min !== undefined && number < rule.min) ||
    (rule.max !== undefined && number > rule.max)
  ) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `${flag}: "${shown}" is not ${describeRule(rule)}${notation ? ' in decimal digits (1000, not 1e3, 0x3e8 or 1000.0)' : ''}.`,
    });
  }
  return number;
}

/** Parses "4000,8000" or "4k,8k" into numbers, each checked against `rule`. */
export function parseNumberList(flag: string, value: string, rule: NumberRule = { min: 0 }): number[] {
  return value.split(',').map((item) => {
    const text = item.trim().toLowerCase();
    const thousands = text.endsWith('k');
    const number = parseNumber(flag, thousands ? text.slice(0, -1) : text, { integer: false }, item.trim());
    // Checked again as a whole: "4.5k" is 4500, "1.0005k" is not a whole number.
    return parseNumber(flag, String(thousands ? Math.round(number * 1e6) / 1e3 : number), rule, item.trim());
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
  return parseNumber(flag, value, { min: Number.MIN_VALUE, integer: false });
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

/** An environment variable's name (letters, digits and _, not starting with a digit), as the shell takes it. */
export function parseEnvironmentName(flag: string, value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    throw new MedbenchError({
      code: 'USAGE',
      message: `${flag}: "${value}" is not an environment variable name (letters, digits and _, not starting with a digit).`,
    });
  return value;
}
