// UMLS concept matching throughput: 1,000 discharge-summary-length texts (~1,500 words)
// against a 1,000,000-name concept table (synthetic names of 1–4 words over a 200,000-word
// vocabulary, mostly distinct as UMLS names are; nothing licensed is needed). Prints build time, texts/s, tokens/s, memory.
// Usage: npm run build && node bench/umls-matching.js [names] [texts]
import { ConceptMatcher, conceptTokens } from '../dist/suites/clue/concept-matcher.js';

const nameCount = Number(process.argv[2] ?? 1_000_000);
const textCount = Number(process.argv[3] ?? 1000);
let state = 7;
const next = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
};
// 200,000 pseudo-words from clinical syllables: like UMLS, most names are distinct and most
// name a single concept.
const syllables =
  'ac ad al an ar at bi bro car cer chol co cor cy der dys em en ep gas gen glu hem hep hy in ir ka lo lym ma men my ne neu no ost pan path per pleu pro pul ren sa scle sep ste sy tach ter tho thy tri ul va ven'.split(
    ' ',
  );
const words = Array.from({ length: 200000 }, (_, index) => {
  let word = '';
  for (let value = index + syllables.length; value > 0; value = Math.floor(value / syllables.length)) {
    word += syllables[value % syllables.length];
  }
  return word;
});
const pick = () => words[Math.floor(next() * words.length)];

const buildStarted = performance.now();
const matcher = new ConceptMatcher(
  (function* () {
    for (let index = 0; index < nameCount; index++) {
      const length = 1 + Math.floor(next() * 4);
      yield { id: `C${String(index).padStart(7, '0')}`, name: Array.from({ length }, pick).join(' ') };
    }
  })(),
);
const buildSeconds = (performance.now() - buildStarted) / 1000;
const texts = Array.from({ length: textCount }, () =>
  Array.from({ length: 1500 }, () => (next() < 0.6 ? pick() : `w${Math.floor(next() * 5000)}`)).join(' '),
);
const tokens = texts.reduce((sum, text) => sum + conceptTokens(text).length, 0);
const started = performance.now();
let mentions = 0;
for (const text of texts) mentions += matcher.concepts(text).size;
const seconds = (performance.now() - started) / 1000;
console.log(
  `${nameCount} names (${matcher.size} distinct) indexed in ${buildSeconds.toFixed(1)} s; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
);
console.log(
  `${textCount} texts, ${tokens} tokens matched in ${seconds.toFixed(2)} s: ${(textCount / seconds).toFixed(0)} texts/s, ${(tokens / seconds / 1e6).toFixed(2)} M tokens/s (${mentions} concept ids found)`,
);
