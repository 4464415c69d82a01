import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type GenerateQueriesRequest, generateQueries } from '../../compose/generate-queries.js';
import { writeOutputFile } from '../../compose/output-file.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import { readTextFile } from '../../io/text-file.js';
import { generatedRelease } from '../../suites/medeureka/query-generation.js';
import { terminalSession } from '../run-session.js';

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
export async function generateQueriesCommand(
  options: GenerateQueriesCommandOptions,
  output: CommandOutput,
): Promise<void> {
  if (existsSync(options.out) && readdirSync(options.out).length > 0 && !options.force)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${options.out} is not empty`,
      hint: 'Give an empty or new folder as --out, or --force to replace its queries.jsonl, corpus.json and review.jsonl.',
    });
  const { hooks, dispose } = terminalSession(output);
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
    output.stderr(
      `${made} queries from ${results.length} documents (task ${task}) in ${options.out}` +
        `${made < results.length ? `; ${results.length - made} answers were not the JSON the prompt asks for (review.jsonl)` : ''}.\n` +
        `  Review them (the paper's were corrected by hand), then: medbench run medeureka --data ${options.out} --model <embedding model>\n`,
    );
  } finally {
    dispose();
  }
}
