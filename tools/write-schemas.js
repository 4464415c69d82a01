// Writes schemas/config.schema.json and schemas/report.schema.json from the zod schemas of the
// config and of every suite's `report --json` document (built: dist/). `npm run build` runs it;
// test/json-schemas.test.ts fails when the files are stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemaFiles } from '../dist/compose/report-document.js';
import { SUITE_PLUGINS, SUITES } from '../dist/compose/suites.js';

const folder = join(import.meta.dirname, '..', 'schemas');
mkdirSync(folder, { recursive: true });
for (const [name, text] of Object.entries(jsonSchemaFiles(SUITES, SUITE_PLUGINS)))
  writeFileSync(join(folder, name), text);
