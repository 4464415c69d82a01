import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutputFile } from '../../../compose/output-file.js';
import type { SuiteCommand, SuiteCommandContext } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import { readTextFile } from '../../../io/text-file.js';
import { generatedRelease } from '../query-generation.js';
import { type GenerateQueriesRequest, generateQueries } from './generate-queries.js';

export interface GenerateQueriesCommandOptions
  extends Omit<GenerateQueriesRequest, 'exampleTable' | 'exampleOutput' | 'task'> {
  taskKey?: string;
  exampleTable: string;
  exampleOutput?: string;
  out: string;
  force?: boolean;
}

/**
 * `medbench generate queries`: MedEureka-style queries from the user's own documents, written as a
 * plain MedEureka release that `run medeureka --data` evaluates embedding models on.
 */
export async function generateQueriesToFolder(
  options: GenerateQueriesCommandOptions,
  context: SuiteCommandContext,
): Promise<void> {
  if (existsSync(options.out) && readdirSync(options.out).length > 0 && !options.force)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${options.out} is not empty`,
      hint: 'Give an empty or new folder as --out, or --force to replace its queries.jsonl, corpus.json and review.jsonl.',
    });
  const { hooks, dispose } = context.session();
  try {
    const { task, results } = await generateQueries(
      {
        ...options,
        ...(options.taskKey !== undefined ? { task: options.taskKey } : {}),
        exampleTable: readTextFile(options.exampleTable),
        ...(options.exampleOutput !== undefined
          ? { exampleOutput: readTextFile(options.exampleOutput) }
          : {}),
      },
      hooks,
    );
    for (const [name, content] of Object.entries(generatedRelease(task, results)))
      writeOutputFile(join(options.out, name), content);
    const made = results.filter((result) => result.query).length;
    context.output.stderr(
      `${made} queries from ${results.length} documents (task ${task}) in ${options.out}` +
        `${made < results.length ? `; ${results.length - made} answers were not the JSON the prompt asks for (review.jsonl)` : ''}.\n` +
        `  Review them (the paper's were corrected by hand), then: medbench run medeureka --data ${options.out} --model <embedding model>\n`,
    );
  } finally {
    dispose();
  }
}

/** `medbench generate queries`, with `run`'s model and retry options (not those of a stored run). */
export const generateQueriesCommand: SuiteCommand = {
  verb: 'generate',
  name: 'queries',
  description:
    "MedEureka-style queries from your own documents with the paper's query-generation prompt (Figure C11), written as a MedEureka release for run medeureka",
  options: [
    {
      flags: '--documents <path>',
      description: 'a folder of .md/.txt documents (tables), or a JSON-lines file of { id?, text }',
      required: true,
    },
    { flags: '--model <spec>', description: 'the generating model', required: true },
    {
      flags: '--example-table <file>',
      description: "the example table the prompt shows (the paper's: MSD's causes of chest pain)",
      required: true,
    },
    {
      flags: '--out <folder>',
      description: 'folder for queries.jsonl, corpus.json and review.jsonl',
      required: true,
    },
    {
      flags: '--language <language>',
      description: "the prompt: zh (the paper's) or en (medbench's translation)",
      choices: ['zh', 'en'],
      default: 'zh',
    },
    {
      flags: '--example-output <file>',
      description: "the example's output JSON (default: the paper's, or its translation for en)",
    },
    {
      flags: '--task-key <key>',
      description: 'the MedEureka task key to file the queries under (default Table_<language>)',
    },
    { flags: '--force', description: 'replace the files in --out' },
    {
      flags: '--redact',
      description:
        'keep no note, prompt or answer text in generate.sqlite (SHA-256 hashes and lengths only; the answers stay in memory until the files are written, so a re-run after a stop asks the model again)',
    },
  ],
  modelOptions: { outputLimit: "the recipe's 2000" },
  run: (call, context) =>
    generateQueriesToFolder(call.options as unknown as GenerateQueriesCommandOptions, context),
};
