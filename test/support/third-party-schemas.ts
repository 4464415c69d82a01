import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The schemas other projects publish, pinned verbatim (test/fixtures/third-party-schemas/README.md). */
const FOLDER = join(import.meta.dirname, '..', 'fixtures', 'third-party-schemas');

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

const readSchema = (path: string) =>
  JSON.parse(readFileSync(join(FOLDER, path), 'utf8')) as Record<string, unknown>;

/** What ajv found wrong, one line per error (path and message); [] when valid. */
function errorsOf(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`);
}

/** Every Eval Ever's two schemas (draft-07, as they declare): the aggregate and the instance records. */
export function everyEvalEverValidators(): {
  aggregate: (value: unknown) => string[];
  instance: (value: unknown) => string[];
} {
  // strict off: the schemas carry a top-level `version` keyword ajv does not know.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const aggregate = ajv.compile(readSchema('every-eval-ever/eval.schema.json'));
  const instance = ajv.compile(readSchema('every-eval-ever/instance_level_eval.schema.json'));
  return { aggregate: (value) => errorsOf(aggregate, value), instance: (value) => errorsOf(instance, value) };
}

/**
 * Inspect's `EvalLog`, from the OpenAPI 3.1 document it publishes (its schemas are JSON Schema
 * 2020-12); strict off for OpenAPI's own keywords (`discriminator`, `openapi`, `paths`).
 */
export function inspectLogValidator(): (value: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...readSchema('inspect-ai/inspect-openapi.json'), $id: 'inspect-openapi' });
  const validate = ajv.compile({ $ref: 'inspect-openapi#/components/schemas/EvalLog' });
  return (value) => errorsOf(validate, value);
}
