import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { parseJsonText, readTextFile } from '../../io/text-file.js';

export interface SourceDocument {
  id: string;
  text: string;
}

const lineSchema = z.object({ id: z.string().min(1).optional(), text: z.string() });

function invalid(message: string): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message,
    hint: 'Give a folder of .md or .txt files (one document each), or a JSON-lines file of { "id"?, "text" }.',
  });
}

/**
 * A user's document collection: a folder of `.md`/`.txt` files (one document each, by file name,
 * text as written), or a JSON-lines file of `{ id?, text }`. Empty documents are errors naming
 * where they are; so are two documents with one id.
 */
export function readDocuments(path: string): SourceDocument[] {
  if (!existsSync(path))
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `documents not found: ${path}` });
  const documents: SourceDocument[] = [];
  if (statSync(path).isDirectory()) {
    const names = readdirSync(path)
      .filter((name) => ['.md', '.txt'].includes(extname(name).toLowerCase()))
      .sort();
    for (const name of names) documents.push({ id: name, text: readTextFile(join(path, name)) });
  } else {
    readTextFile(path)
      .split('\n')
      .forEach((line, index) => {
        if (line.trim() === '') return;
        const parsed = lineSchema.safeParse(parseJsonText(line, `${path}:${index + 1}`));
        if (!parsed.success) throw invalid(`${path}:${index + 1}: not { "id"?, "text" }`);
        documents.push({ id: parsed.data.id ?? `line-${index + 1}`, text: parsed.data.text });
      });
  }
  if (documents.length === 0) throw invalid(`${path}: no documents`);
  const seen = new Set<string>();
  for (const document of documents) {
    if (document.text.trim() === '') throw invalid(`${path}: document ${document.id} is empty`);
    if (seen.has(document.id)) throw invalid(`${path}: two documents have the id ${document.id}`);
    seen.add(document.id);
  }
  return documents;
}
