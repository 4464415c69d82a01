// Embedding pre-processing: tokenising passages for a local ONNX encoder (embeddings, BERTScore).
// medbench's EncoderTokenizer runs Hugging Face's Rust tokenizers on every core, one pass per text;
// the reference, in the same run, is the pure-JS port it used before (and still uses where no
// binary fits), two passes per text (with and without special tokens) in this thread. Every
// passage's ids and content range are compared: they must be identical.
// Tokenizers: a BERT-style WordPiece tokenizer.json this script builds from the corpus's own words
// (lower-cased, accents stripped, 30,000 pieces), and the Llama 3 tokenizer.json with the
// begin-of-text template of Meta's release (byte-level BPE, as decoder-based embedders use).
// Passages: the release's en guidelines (about 1,500 characters each) and zh books (about 500),
// cut to 512 tokens. Three rounds; min / median / max printed.
// Usage: npm run build && node bench/encoder-tokenizer.js [release folder] [passages per language]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EncoderTokenizer } from '../dist/providers/local-onnx/encoder-tokenizer.js';
import { writeLlama3WithBeginOfText, writeWordPieceTokenizer } from '../test/support/tokenizer-files.js';

const release = process.argv[2] ?? join(process.env.MEDBENCH_SHARED_DATA ?? '../shared/data', 'medodyssey');
const perLanguage = Number(process.argv[3] ?? 2000);
const rounds = 3;
const maxLength = 512;
const read = (folder) =>
  readdirSync(join(release, 'raw_data', folder))
    .sort()
    .map((file) => readFileSync(join(release, 'raw_data', folder, file), 'utf8'))
    .join('\n');

/** `text` cut into passages of about `size` characters at whitespace (zh: anywhere). */
function passages(text, size, count) {
  const out = [];
  for (let at = 0; at < text.length && out.length < count; ) {
    let end = Math.min(text.length, at + size);
    const space = text.indexOf(' ', end);
    if (space > 0 && space - end < 40) end = space;
    out.push(text.slice(at, end).trim());
    at = end;
  }
  return out.filter((passage) => passage.length > 0);
}

const corpus = {
  en: passages(read('en_guidelines'), 1500, perLanguage),
  zh: passages(read('zh_book'), 500, perLanguage),
};
const folder = mkdtempSync(join(tmpdir(), 'medbench-encoder-tokenizer-'));

/** A WordPiece tokenizer.json (BERT layout) whose vocabulary is the corpus's commonest pieces. */
function wordPiece() {
  const counts = new Map();
  const add = (piece) => counts.set(piece, (counts.get(piece) ?? 0) + 1);
  const text = `${corpus.en.join(' ')} ${corpus.zh.join(' ')}`
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Han}/u.test(word)) for (const char of word) add(char);
    else {
      add(word);
      for (let cut = 1; cut < word.length; cut++) if (word.length - cut <= 6) add(`##${word.slice(cut)}`);
    }
  }
  const chars = new Set(text.replace(/\s/g, ''));
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const base = [...specials, ...[...chars].sort(), ...[...chars].sort().map((char) => `##${char}`)];
  const ranked = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([piece]) => piece);
  const vocabulary = [...new Set([...base, ...ranked])].slice(0, 30_000);
  return writeWordPieceTokenizer(mkdtempSync(join(folder, 'wordpiece-')), vocabulary);
}

const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(2)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} / ${sorted.at(-1).toFixed(2)}`;
};

async function timed(tokenizer, texts) {
  const started = performance.now();
  const tokens = await tokenizer.tokenize(texts, maxLength);
  return { seconds: (performance.now() - started) / 1000, tokens };
}

try {
  console.log(
    `passages: en ${corpus.en.length} (${corpus.en.join('').length.toLocaleString()} characters), zh ${corpus.zh.length} (${corpus.zh.join('').length.toLocaleString()}); cut to ${maxLength} tokens`,
  );
  for (const [name, path] of [
    ['WordPiece (BERT layout, 30,000 pieces)', wordPiece()],
    ['Llama 3 (byte-level BPE)', writeLlama3WithBeginOfText(folder)],
  ]) {
    const loadStarted = performance.now();
    const native = await EncoderTokenizer.load(path);
    const nativeLoad = (performance.now() - loadStarted) / 1000;
    const inThreadStarted = performance.now();
    const inThread = await EncoderTokenizer.load(path, { prefer: 'in-thread' });
    const inThreadLoad = (performance.now() - inThreadStarted) / 1000;
    if (native.path !== 'native') throw new Error('no native tokenizer on this platform');
    console.log(
      `${name}: loading ${nativeLoad.toFixed(2)} s (native; the pure-JS port is not built), ${inThreadLoad.toFixed(2)} s (pure-JS); padding id ${native.padId} / ${inThread.padId}`,
    );
    for (const language of ['en', 'zh']) {
      const texts = corpus[language];
      const characters = texts.reduce((sum, text) => sum + text.length, 0);
      const ratios = [];
      const nativeRates = [];
      const scriptRates = [];
      let mismatches = 0;
      for (let round = 0; round < rounds; round++) {
        const script = await timed(inThread, texts);
        const fast = await timed(native, texts);
        mismatches = fast.tokens.filter(
          (item, index) => JSON.stringify(item) !== JSON.stringify(script.tokens[index]),
        ).length;
        ratios.push(script.seconds / fast.seconds);
        nativeRates.push(characters / fast.seconds / 1e6);
        scriptRates.push(characters / script.seconds / 1e6);
      }
      console.log(
        `${name}, ${language}: native ${spread(nativeRates)} M chars/s, pure JS (two passes) ${spread(scriptRates)}: speed-up ${spread(ratios)}×; ${mismatches} of ${texts.length} passages differ`,
      );
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
