import { datasetPlan } from '../../../src/compose/dataset-plan.js';
import type { SuitePlugin } from '../../../src/compose/suite-plugin.js';
import { MedbenchError } from '../../../src/core/errors.js';
import { writeDataset } from '../../../src/runner/dataset-file.js';
import { arithSuite, buildArithSamples } from './suite.js';

/** `--pairs 2+3,4+4`: the sums to ask for. */
function parsePairs(value: string): Array<[number, number]> {
  return value.split(',').map((pair) => {
    const match = /^(\d+)\+(\d+)$/.exec(pair.trim());
    if (!match)
      throw new MedbenchError({ code: 'USAGE', message: `--pairs: "${pair}" is not a sum such as 2+3.` });
    return [Number(match[1]), Number(match[2])];
  });
}

// 6. The plugin: what the suite brings to the CLI and the library — its build command and its run —
//    registered in SUITE_PLUGINS (a test passes its own list); nothing in src/cli changes.
export const arithPlugin: SuitePlugin = {
  suite: arithSuite,
  commands: [
    {
      verb: 'build',
      name: 'arith',
      description: 'build an Arith dataset file: the sums of the given pairs, in English and German',
      options: [
        {
          flags: '--pairs <list>',
          description: 'sums as a+b, comma separated',
          required: true,
          parse: parsePairs,
        },
        { flags: '--out <file>', description: 'dataset file to write (JSONL)', required: true },
      ],
      run: async ({ options }, { output }) => {
        const written = await writeDataset({
          path: options.out as string,
          header: {
            suite: 'arith',
            createdAt: new Date().toISOString(),
            generator: 'arith',
            build: {},
            tokenizers: [],
          },
          samples: buildArithSamples(options.pairs as Array<[number, number]>),
        });
        output.stderr(`Wrote ${written.count} samples to ${options.out as string}.\n`);
      },
    },
  ],
  run: {
    data: 'an Arith dataset file',
    options: [],
    plan: (request) => datasetPlan({ ...request, dataset: request.data as string }, [arithSuite]),
  },
};
