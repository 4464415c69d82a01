/**
 * The JSON Schema (draft 2020-12) keywords zod's `z.toJSONSchema` writes into schemas/, checked
 * against a value: what the tests use to validate real outputs against the shipped files, as no
 * validator is among medbench's dependencies. A keyword it does not know is an error, never skipped.
 */
type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'default']);
const KEYWORDS = new Set([
  ...ANNOTATIONS,
  'type',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
]);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const typeMatches = (type: string, value: unknown) =>
  type === typeOf(value) || (type === 'number' && typeOf(value) === 'integer');

function formatErrors(format: string, value: string, path: string): string[] {
  if (format === 'date-time') return DATE_TIME.test(value) ? [] : [`${path}: not a date-time`];
  if (format === 'uri') return URL.canParse(value) ? [] : [`${path}: not a URI`];
  throw new Error(`${path}: format ${format} is not known to this check`);
}

function stringErrors(schema: Schema, value: string, path: string): string[] {
  const errors: string[] = [];
  if (typeof schema.minLength === 'number' && [...value].length < schema.minLength)
    errors.push(`${path}: shorter than ${schema.minLength}`);
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    errors.push(`${path}: does not match ${schema.pattern}`);
  if (typeof schema.format === 'string') errors.push(...formatErrors(schema.format, value, path));
  return errors;
}

function numberErrors(schema: Schema, value: number, path: string): string[] {
  const errors: string[] = [];
  if (typeof schema.minimum === 'number' && value < schema.minimum)
    errors.push(`${path}: below ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && value > schema.maximum)
    errors.push(`${path}: above ${schema.maximum}`);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    errors.push(`${path}: not above ${schema.exclusiveMinimum}`);
  return errors;
}

function objectErrors(schema: Schema, value: Record<string, unknown>, path: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const errors = ((schema.required ?? []) as string[])
    .filter((name) => !(name in value))
    .map((name) => `${path}.${name}: required`);
  for (const [name, item] of Object.entries(value)) {
    const at = `${path}.${name}`;
    if (schema.propertyNames)
      errors.push(...jsonSchemaErrors(schema.propertyNames as Schema, name, `${at} (name)`));
    if (properties[name]) errors.push(...jsonSchemaErrors(properties[name], item, at));
    else if (schema.additionalProperties === false) errors.push(`${at}: not allowed`);
    else if (typeof schema.additionalProperties === 'object')
      errors.push(...jsonSchemaErrors(schema.additionalProperties as Schema, item, at));
  }
  return errors;
}

function arrayErrors(schema: Schema, value: unknown[], path: string): string[] {
  const errors: string[] = [];
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    errors.push(`${path}: too few items`);
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    errors.push(`${path}: too many items`);
  if (schema.items)
    value.forEach((item, index) => {
      errors.push(...jsonSchemaErrors(schema.items as Schema, item, `${path}[${index}]`));
    });
  return errors;
}

/** What is wrong with `value` under `schema`, each a path and a reason; [] when it is valid. */
export function jsonSchemaErrors(schema: Schema, value: unknown, path = '$'): string[] {
  const unknown = Object.keys(schema).filter((keyword) => !KEYWORDS.has(keyword));
  if (unknown.length > 0)
    throw new Error(`${path}: keywords ${unknown.join(', ')} are not known to this check`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    return [`${path}: not ${JSON.stringify(schema.const)}`];
  if (
    schema.enum &&
    !(schema.enum as unknown[]).some((option) => JSON.stringify(option) === JSON.stringify(value))
  )
    return [`${path}: not one of ${JSON.stringify(schema.enum)}`];
  if (schema.anyOf) {
    const branches = (schema.anyOf as Schema[]).map((branch) => jsonSchemaErrors(branch, value, path));
    if (branches.every((errors) => errors.length > 0))
      return [`${path}: no anyOf branch fits`, ...branches.flat()];
  }
  if (schema.oneOf) {
    const branches = (schema.oneOf as Schema[]).map((branch) => jsonSchemaErrors(branch, value, path));
    const fitting = branches.filter((errors) => errors.length === 0).length;
    if (fitting !== 1)
      return [`${path}: ${fitting} oneOf branches fit`, ...(fitting === 0 ? branches.flat() : [])];
  }
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((type) => typeMatches(type, value))) return [`${path}: not ${types.join(' or ')}`];
  }
  if (typeof value === 'string') return stringErrors(schema, value, path);
  if (typeof value === 'number') return numberErrors(schema, value, path);
  if (Array.isArray(value)) return arrayErrors(schema, value, path);
  if (typeof value === 'object' && value !== null)
    return objectErrors(schema, value as Record<string, unknown>, path);
  return [];
}
