// Re-scoring speed of published outputs: writes ~4,000 lines in the official
// evaluation_result format (20 NIAH files of 140 lines, 20 counting files of 28 lines, 6
// medical files of 100 lines), then times `import medodyssey-outputs`'s reading and
// re-scoring (target: under 5 s).
// Usage: npm run build && node bench/rescore-published.js
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPublishedOutputs } from '../dist/index.js';

const root = mkdtempSync(join(tmpdir(), 'medbench-bench-published-'));
try {
  const needles = join(root, 'dataset', 'task_data', 'needles');
  mkdirSync(needles, { recursive: true });
  for (const language of ['en', 'zh']) {
    const source = readFileSync(
      join(
        import.meta.dirname,
        '..',
        'samples',
        'medodyssey',
        'dataset',
        'task_data',
        'needles',
        `${language}_pure_needles.json`,
      ),
      'utf8',
    );
    writeFileSync(join(needles, `${language}_pure_needles.json`), source);
  }
  const niah = join(root, 'evaluation_result', 'niah_result');
  const tasks = join(root, 'evaluation_result', 'task_result');
  mkdirSync(niah, { recursive: true });
  mkdirSync(tasks, { recursive: true });
  const filler = 'The answer, based on the context, is given below in JSON. '.repeat(6);
  let lines = 0;
  for (let model = 0; model < 10; model++) {
    for (const language of ['en', 'zh']) {
      const rows = [];
      for (let index = 0; index < 140; index++) {
        const output = `${filler}\`\`\`json\n{"answer": "value ${index}"}\n\`\`\``;
        rows.push(
          JSON.stringify({
            idx: index % 4,
            needle: 'n',
            question: 'q',
            type: 'general',
            true_answer: 'a',
            pred_answer: `value ${index}`,
            pred_origin: output,
            'position(%)': [0, 25, 50, 75, 100][index % 5],
            'length(string)': 1,
            'length(tokens)': 1,
            'length(origin)': 4000 * (1 + (index % 7)),
            model: `model-${model}`,
            note: '',
          }),
        );
      }
      writeFileSync(join(niah, `${language}_model-${model}_v1.jsonl`), `${rows.join('\n')}\n`);
      const counting = Array.from({ length: 28 }, (_, index) =>
        JSON.stringify({
          id: index,
          type: ['acquisition_1', 'acquisition_inc', 'acquisition_shuffle', 'reasoning'][index % 4],
          input: 'prompt '.repeat(200),
          true_answer: [1, 2, 3],
          pred_answer: [1, 2, 3],
          pred_origin: `${filler}{"little_star": [1, 2, 3]}`,
          model: `model-${model}`,
          token_len: 1,
          sample_size: 4000 * (1 + Math.floor(index / 4)),
          note: '',
        }),
      );
      writeFileSync(join(tasks, `${language}_counting_model-${model}_v1.jsonl`), `${counting.join('\n')}\n`);
      lines += 168;
    }
  }
  for (const task of ['en_kg', 'zh_kg', 'en_norm', 'zh_norm', 'zh_table', 'zh_medcase']) {
    const list = !task.endsWith('norm');
    const rows = Array.from({ length: 100 }, (_, index) =>
      JSON.stringify({
        id: index,
        type: 't',
        input: 'q',
        true_answer: list ? [`a|b|${index}`, `c|d|${index}`] : `term ${index}`,
        pred_answer: null,
        pred_origin: `${filler}{"result": ${list ? `["a|b|${index}"]` : `"term ${index}"`}}`,
        model: 'model-0',
        token_len: 1,
        sample_size: 4000,
        note: '',
      }),
    );
    writeFileSync(join(tasks, `${task}_model-0_v1.jsonl`), `${rows.join('\n')}\n`);
    lines += 100;
  }
  const started = performance.now();
  const { statistics } = readPublishedOutputs({ folder: root });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `re-scored ${statistics.lines} published lines from ${statistics.files} files (${lines} written) in ${seconds.toFixed(2)} s (target < 5 s)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
