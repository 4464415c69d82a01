// BM25 indexing and querying: 100,000 documents (~50 words) and 10,000 queries (~6 words) of
// synthetic English text, medbench's Bm25Retriever against a straightforward Python BM25 in the
// same run (same lower-cased word tokens, same parameters). Prints both times, the ratio
// (target: medbench at least 5x faster) and whether every top 10 agrees; then the speed-up of
// tokenizing the corpus on worker threads, English and Chinese.
// Usage: npm run build && node bench/bm25.js [documents] [queries]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Bm25Retriever } from '../dist/providers/retrievers/bm25-retriever.js';
import { tokenizeCorpus, tokenizeTexts } from '../dist/providers/retrievers/bm25-tokens.js';

const documents = Number(process.argv[2] ?? 100000);
const queryCount = Number(process.argv[3] ?? 10000);
let state = 11;
const random = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
};
const syllables = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ra',
  'tu',
  'si',
  'vo',
  'de',
  'pa',
  'ri',
  'gu',
  'he',
  'zo',
  'fi',
  'by',
];
const vocabulary = Array.from({ length: 20000 }, (_, index) => {
  let word = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor(rest / 16)) word += syllables[rest % 16];
  return word;
});
// A mild Zipf-like skew: word rank ~ vocabulary size · u², so some words are common.
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2)];
const text = (words) => Array.from({ length: words }, word).join(' ');
const corpus = Array.from({ length: documents }, () => `${text(40 + Math.floor(random() * 20))}.`);
const queries = Array.from({ length: queryCount }, () => text(4 + Math.floor(random() * 4)));

const started = performance.now();
const rankings = await new Bm25Retriever().rank({ queries, corpus, topK: 10 });
const medbenchSeconds = (performance.now() - started) / 1000;

const python = JSON.parse(
  execFileSync('python3', [join(import.meta.dirname, 'bm25-python-reference.py')], {
    input: JSON.stringify({ corpus, queries }),
    maxBuffer: 1 << 28,
  }).toString(),
);
const pythonSeconds = python.index_seconds + python.query_seconds;
const agree = python.tops.every((top, index) => top.join() === rankings[index].indexes.join());
console.log(`BM25: ${documents} documents, ${queryCount} queries, top 10`);
console.log(`medbench: ${medbenchSeconds.toFixed(2)} s (index and queries)`);
console.log(
  `python:   ${pythonSeconds.toFixed(2)} s (index ${python.index_seconds.toFixed(2)} s, queries ${python.query_seconds.toFixed(2)} s)`,
);
console.log(
  `medbench is ${(pythonSeconds / medbenchSeconds).toFixed(1)}x faster (target >= 5); every top 10 agrees: ${agree}`,
);

// Indexing on every core: the corpus's word tokens on worker threads (what the retriever does for
// a corpus of 2 M characters or more) against one pass in this thread, three rounds side by side,
// for this English corpus and a Chinese one of the same size (ICU's dictionary segmenter).
const hanzi = '患者治疗临床诊断药物剂量症状检查结果医院手术感染肿瘤血压心脏肝肾功能慢性急性发热咳嗽疼痛';
const chinese = Array.from({ length: documents / 5 }, () =>
  Array.from(
    { length: 100 + Math.floor(random() * 40) },
    () => hanzi[Math.floor(random() * hanzi.length)],
  ).join(''),
);
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0].toFixed(2)}, median ${sorted[1].toFixed(2)}, max ${sorted[2].toFixed(2)}`;
};
for (const [name, texts] of [
  ['English', corpus],
  ['Chinese', chinese],
]) {
  const one = [];
  const all = [];
  let threads = 1;
  for (let round = 0; round < 3; round++) {
    let started = performance.now();
    tokenizeTexts(texts);
    one.push((performance.now() - started) / 1000);
    started = performance.now();
    threads = (await tokenizeCorpus(texts)).threads;
    all.push((performance.now() - started) / 1000);
  }
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  console.log(
    `word tokens of the ${name} corpus (${(characters / 1e6).toFixed(1)} M characters): one thread ${spread(one)} s; ${threads} worker threads ${spread(all)} s; speed-up ${spread(one.map((seconds, index) => seconds / all[index]))}`,
  );
}
