import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelConfigFromSpec } from '../../src/compose/bind-model.js';
import { configSchema } from '../../src/compose/config.js';
import {
  parseChoiceList,
  parseNumber,
  parseNumberList,
  parsePositiveNumber,
  parseRange,
} from '../../src/compose/parse-options.js';
import { embeddingConfigFromSpec, sparseRetrieverSpec } from '../../src/compose/retrievers.js';
import { decodeUtf8, jsonSyntaxErrorOffset, parseJsonText } from '../../src/io/text-file.js';
import { extractIcd10Codes } from '../../src/metrics/icd10.js';
import { endpointIdentity } from '../../src/providers/endpoint-identity.js';
import { parseRetryAfter, redactCredentials } from '../../src/providers/http-json.js';
import { decodeBase64Embedding } from '../../src/providers/openai-compatible/openai-compatible-embedding-model.js';
import { mednliCorrect } from '../../src/suites/clue/answers.js';
import { longHealthChoiceOf } from '../../src/suites/clue/clue-tasks.js';
import { parseCsv } from '../../src/suites/clue/parse-csv.js';
import { extractJsonAnswer, findFlatJsonObjects } from '../../src/suites/medodyssey/json-answer.js';
import { caseAnswerFor } from '../../src/suites/medodyssey/medical-tasks.js';
import { fuzzParameters, onlyMedbenchErrorsSync } from '../support/fuzz.js';

/** Text a user may type or a file may hold: any code points, digits and signs, and ASCII. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...'0123456789.,-+eEkK xX_:@/'.split('')), maxLength: 16 }),
  fc.string({ maxLength: 60 }),
);
const runs = fuzzParameters(500);

describe('option parsers return a valid value or a USAGE error', () => {
  it('numbers, number lists, choices and ranges', () => {
    fc.assert(
      fc.property(
        text,
        fc.record({ min: fc.option(fc.integer(), { nil: undefined }), integer: fc.boolean() }),
        (value, rule) => {
          for (const parse of [
            () => {
              const number = parseNumber('--n', value, rule);
              expect(Number.isFinite(number)).toBe(true);
              if (rule.min !== undefined) expect(number).toBeGreaterThanOrEqual(rule.min);
              if (rule.integer) expect(Number.isInteger(number)).toBe(true);
            },
            () => {
              for (const number of parseNumberList('--levels', value, { min: 1 }))
                expect(Number.isInteger(number) && number >= 1).toBe(true);
            },
            () => expect(parsePositiveNumber('--x', value)).toBeGreaterThan(0),
            () => {
              const { min, max } = parseRange('--r', value);
              expect(Number.isInteger(min) && Number.isInteger(max) && 1 <= min && min <= max).toBe(true);
            },
            () => parseChoiceList('--task', value, ['niah', 'counting']),
          ]) {
            const error = onlyMedbenchErrorsSync(parse);
            if (error) expect(error.code).toBe('USAGE');
          }
        },
      ),
      runs,
    );
  });

  it('model and retriever specs', () => {
    const config = configSchema.parse({
      models: {
        local: {
          provider: 'openai-compatible',
          model: 'm',
          endpoints: [{ baseURL: 'http://127.0.0.1:1/v1' }],
        },
      },
    });
    const spec = fc.oneof(
      text,
      fc
        .tuple(
          fc.constantFrom('openai-compatible', 'openai', 'anthropic', 'baseline', 'local', 'nosuch', ''),
          fc.constantFrom(':', '', '::'),
          text,
          fc.constantFrom('@', '', '@@'),
          fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), text),
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(spec, (value) => {
        onlyMedbenchErrorsSync(() => modelConfigFromSpec(value, config));
        onlyMedbenchErrorsSync(() => sparseRetrieverSpec(value));
        onlyMedbenchErrorsSync(() => embeddingConfigFromSpec(value, config));
      }),
      runs,
    );
  });
});

describe('endpoint identity and error texts never carry a secret', () => {
  it('userinfo and key-like query values are gone from the identity', () => {
    const secret = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')),
      minLength: 12,
      maxLength: 24,
    });
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true }),
        secret,
        fc.constantFrom('key', 'api_key', 'apikey', 'token', 'access_token', 'sig'),
        (url, key, name) => {
          const parsed = new URL(url);
          parsed.username = 'user';
          parsed.password = key;
          parsed.searchParams.set(name, `${key}x`);
          const identity = onlyMedbenchErrorsSync(() => endpointIdentity(parsed.href))
            ? undefined
            : endpointIdentity(parsed.href);
          if (identity !== undefined) expect(identity).not.toContain(key);
        },
      ),
      runs,
    );
    fc.assert(
      fc.property(text, (value) => void onlyMedbenchErrorsSync(() => endpointIdentity(value))),
      runs,
    );
  });

  it('a sent key and Bearer tokens are gone from any error text', () => {
    const key = fc.string({
      unit: fc.constantFrom(...'ABCDEFabcdef0123456789-_'.split('')),
      minLength: 16,
      maxLength: 40,
    });
    fc.assert(
      fc.property(key, text, text, (secret, before, after) => {
        const body = `${before}Authorization: Bearer ${secret}${after} {"x-api-key": "${secret}"}`;
        const redacted = redactCredentials(body, { authorization: `Bearer ${secret}`, 'x-api-key': secret });
        expect(redacted).not.toContain(secret);
      }),
      runs,
    );
  });
});

describe('header and body parsers', () => {
  it('Retry-After is a finite wait of at least 0 ms, or none', () => {
    const value = fc.oneof(
      text,
      fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
      fc.integer().map(String),
    );
    fc.assert(
      fc.property(value, (header) => {
        const wait = parseRetryAfter(header, Date.UTC(2026, 0, 1));
        if (wait !== undefined) expect(Number.isFinite(wait) && wait >= 0).toBe(true);
      }),
      runs,
    );
  });

  it('a base64 embedding decodes to finite floats or an EMBEDDING_INVALID error', () => {
    const value = fc.oneof(
      text,
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64')),
    );
    fc.assert(
      fc.property(value, (encoded) => {
        onlyMedbenchErrorsSync(() => decodeBase64Embedding(encoded));
      }),
      runs,
    );
  });
});

describe('text and JSON decoding', () => {
  it('bytes decode, or the error names UTF-16 or invalid UTF-8 with the line', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const error = onlyMedbenchErrorsSync(() => decodeUtf8(bytes, 'f.txt'));
        if (error) expect(error.message).toMatch(/^f\.txt(:\d+)?: .*(UTF-16|not valid UTF-8)/);
      }),
      runs,
    );
  });

  it('valid UTF-8 round-trips, with a BOM dropped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), (value, bom) => {
        fc.pre(!value.startsWith('\uFEFF') && !value.startsWith('\u0000'));
        const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(value)]);
        const error = onlyMedbenchErrorsSync(() => decodeUtf8(bytes, 'f.txt'));
        // Only a NUL-riddled text (read as UTF-16) may be refused.
        if (!error) expect(decodeUtf8(bytes, 'f.txt')).toBe(value);
      }),
      runs,
    );
  });

  it('JSON parses to the value written, and anything else is an error with a line and column', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(parseJsonText(JSON.stringify(value, null, 1), 'f.json')).toEqual(
          JSON.parse(JSON.stringify(value)),
        );
      }),
      runs,
    );
    fc.assert(
      fc.property(text, (value) => {
        const error = onlyMedbenchErrorsSync(() => parseJsonText(value, 'f.json'));
        if (error) expect(error.message).toMatch(/f\.json:\d+:\d+: /);
      }),
      runs,
    );
  });

  it('the offset of a JSON syntax error agrees with V8 wherever V8 names one', () => {
    const jsonish = fc.oneof(
      fc.string({
        unit: fc.constantFrom(
          '{',
          '}',
          '[',
          ']',
          '"',
          ':',
          ',',
          '\\',
          'u',
          'a',
          '1',
          '-',
          '.',
          'e',
          ' ',
          '\n',
          't',
          'n',
        ),
        maxLength: 30,
      }),
      fc.jsonValue().chain((value) =>
        fc.nat().map((cut) => {
          const written = JSON.stringify(value);
          return written.slice(0, cut % (written.length + 1));
        }),
      ),
    );
    fc.assert(
      fc.property(jsonish, (value) => {
        let message = '';
        try {
          JSON.parse(value);
          return;
        } catch (error) {
          message = (error as Error).message;
        }
        const position = /position (\d+)/.exec(message);
        if (position) expect(jsonSyntaxErrorOffset(value)).toBe(Number(position[1]));
        else if (/end of JSON input/.test(message)) expect(jsonSyntaxErrorOffset(value)).toBe(value.length);
      }),
      fuzzParameters(3000),
    );
  });

  it('CSV rows keep their line numbers and never throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é') }), (value) => {
        const error = onlyMedbenchErrorsSync(() => parseCsv(value));
        if (error) return;
        const rows = parseCsv(value);
        for (const [index, row] of rows.entries())
          if (index > 0) expect(row.line).toBeGreaterThan(rows[index - 1]!.line);
      }),
      runs,
    );
  });
});

describe('answer extraction never throws', () => {
  /** Model outputs: anything, JSON-ish text with the answer keys, code fences, prose around JSON. */
  const output = fc.oneof(
    text,
    fc
      .tuple(
        text,
        fc.constantFrom('answer', '答案', 'count', 'counts', 'triplets', 'the correct answer'),
        fc.jsonValue({ maxDepth: 2 }),
        text,
      )
      .map(([before, key, value, after]) => `${before}{"${key}": ${JSON.stringify(value)}}${after}`),
    fc.string({
      unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'a', '1', ' ', '\n', '`'),
      maxLength: 40,
    }),
  );
  it('JSON answers, ICD-10 codes, LongHealth letters, MedNLI labels, Case answers', () => {
    fc.assert(
      fc.property(output, fc.jsonValue({ maxDepth: 2 }), (raw, parsed) => {
        onlyMedbenchErrorsSync(() => extractJsonAnswer(raw, ['answer', '答案']));
        onlyMedbenchErrorsSync(() => findFlatJsonObjects(raw));
        for (const code of extractIcd10Codes(raw)) expect(typeof code).toBe('string');
        onlyMedbenchErrorsSync(() => longHealthChoiceOf(raw));
        onlyMedbenchErrorsSync(() => mednliCorrect(raw, 'entailment'));
        for (const mode of ['standard', 'compat'] as const)
          onlyMedbenchErrorsSync(() => caseAnswerFor(parsed, 'A', mode));
      }),
      runs,
    );
  });
});
