// Tokenizer choice: for each tokenizer medbench ships, the speed of its implementation and of the
// other exact implementations on the npm registry, on the release's haystacks (the en guidelines,
// the zh books), each compared id for id with medbench's. Three repeats; min/median/max printed.
// HF's Rust binding (@anush008/tokenizers) is a dependency: medbench counts Llama 3 corpora with it
// (countMany). The other alternatives are not; install them for a comparison with
//   npm i --no-save tiktoken@1.0.22 @huggingface/tokenizers@0.2.0
// Each text is encoded three times in one process: the first pass is cold; the repeats show what a
// tokenizer's cache does for medbench's work, where prompts share one haystack.
// Usage: npm run build && node bench/tokenizers.js [release folder]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTokenizer } from '../dist/tokenizers/registry.js';

const release = process.argv[2] ?? join(process.env.MEDBENCH_SHARED_DATA ?? '../shared/data', 'medodyssey');
const read = (folder) =>
  readdirSync(join(release, 'raw_data', folder))
    .sort()
    .map((file) => readFileSync(join(release, 'raw_data', folder, file), 'utf8'))
    .join('\n');
const texts = { en: read('en_guidelines').slice(0, 1_000_000), zh: read('zh_book').slice(0, 400_000) };

async function optional(specifier) {
  try {
    return await import(specifier);
  } catch {
    return undefined;
  }
}

/** Each candidate: a name and an encode (sync or async) giving an array of ids. */
async function candidates(tokenizer) {
  const list = [{ name: `medbench (${tokenizer.name})`, encode: (text) => tokenizer.encode(text) }];
  if (tokenizer.name === 'o200k_base') {
    const tiktoken = await optional('tiktoken');
    if (tiktoken) {
      const encoding = tiktoken.get_encoding('o200k_base');
      list.push({ name: 'tiktoken (WebAssembly)', encode: (text) => encoding.encode_ordinary(text) });
    }
  }
  if (tokenizer.name === 'llama3') {
    const file = join(import.meta.dirname, '..', 'node_modules', '@lenml', 'tokenizer-llama3', 'models');
    const rust = await optional('@anush008/tokenizers');
    if (rust) {
      const native = rust.Tokenizer.fromFile(join(file, 'tokenizer.json'));
      list.push({
        name: 'HF tokenizers, Rust binding (medbench countMany)',
        encode: async (text) => (await native.encode(text, null, { addSpecialTokens: false })).getIds(),
      });
    }
    const js = await optional('@huggingface/tokenizers');
    if (js) {
      const json = (name) => JSON.parse(readFileSync(join(file, name), 'utf8'));
      const hf = new js.Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
      list.push({
        name: '@huggingface/tokenizers (pure JS)',
        encode: (text) => hf.encode(text, { add_special_tokens: false }).ids,
      });
    }
  }
  return list;
}

const sameIds = (left, right) =>
  left.length === right.length && left.every((id, index) => id === right[index]);
for (const name of ['o200k_base', 'llama3']) {
  const tokenizer = await getTokenizer(name);
  const list = await candidates(tokenizer);
  if (list.length === 1) console.log(`${name}: no alternative installed (see the header).`);
  for (const [language, text] of Object.entries(texts)) {
    let reference;
    for (const candidate of list) {
      const rates = [];
      let ids;
      for (let repeat = 0; repeat < 3; repeat++) {
        const started = performance.now();
        ids = await candidate.encode(text);
        reference ??= ids;
        rates.push(text.length / ((performance.now() - started) / 1000) / 1e6);
      }
      const cold = rates[0];
      rates.sort((a, b) => a - b);
      console.log(
        `${name} ${language} ${candidate.name.padEnd(42)} cold ${cold.toFixed(2)} M chars/s; of three: min ${rates[0].toFixed(2)}, median ${rates[1].toFixed(2)}, max ${rates[2].toFixed(2)}; ids identical to medbench's: ${sameIds([...ids], [...reference])}`,
      );
    }
  }
}

// What the exact build does with a corpus: count its lines in bulk. countMany (Llama 3: the Rust
// encoder's batches, on every core; OpenAI encodings: worker threads) against `count` line by line in
// this thread, three rounds each; the counts must be equal line for line.
const { countMany } = await import('../dist/tokenizers/count-many.js');
for (const name of ['o200k_base', 'llama3']) {
  const tokenizer = await getTokenizer(name);
  for (const [language, text] of Object.entries(texts)) {
    const lines = text.split(/(?<=\n)/);
    const one = [];
    const bulk = [];
    let path;
    let equal = true;
    for (let repeat = 0; repeat < 3; repeat++) {
      let started = performance.now();
      const single = lines.map((line) => tokenizer.count(line));
      one.push(text.length / ((performance.now() - started) / 1000) / 1e6);
      started = performance.now();
      const counts = await countMany(tokenizer, lines, { onPath: (chosen) => (path = chosen) });
      bulk.push(text.length / ((performance.now() - started) / 1000) / 1e6);
      equal &&= single.every((count, index) => count === counts[index]);
    }
    const median = (values) => [...values].sort((a, b) => a - b)[1].toFixed(2);
    console.log(
      `${name} ${language} lines: count in this thread median ${median(one)} M chars/s; countMany (${path}) median ${median(bulk)} M chars/s (${(Number(median(bulk)) / Number(median(one))).toFixed(1)}×); counts equal: ${equal}`,
    );
  }
}
