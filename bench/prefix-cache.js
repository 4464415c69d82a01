// Prefix-ordered scheduling (issue 34, item 1): the share of input tokens a prefix cache serves
// when the full en + zh NIAH and Counting grid is sent in today's order (the dataset file's, the
// builder's: language, level, then depth, then needle) and in medbench's (`PrefixRuns`, what
// `runSamples` does now: the prefix order cut into one contiguous run a slot, each slot sending its
// run back to back). Every prompt is tokenized with o200k_base (token ids, not characters).
// Caches simulated, each documented rule stated where it is implemented below:
// - vLLM automatic prefix caching: 16-token blocks, each keyed by its tokens and its whole prefix
//   (a hash chain), a hit is the longest run of leading full blocks found, the prompt's last token
//   always computed, blocks evicted least recently used from a KV cache of CAPACITY tokens.
// - OpenAI-style prompt caching: prompts of at least 1,024 tokens, hits in increments of 128 tokens
//   of exact prefix, no capacity bound, a prefix kept 5 minutes after its last use (the docs say
//   5–10 minutes of inactivity, up to an hour off-peak); routing to one machine assumed.
// Concurrency C: a closed loop of C slots, each sending its next request when its last one is
// answered; a request takes 0.1 ms a token it does not find cached plus 1 s for its answer, and its
// blocks are cached when it ends: what is in flight is not shared.
// Reference, in the same run: the ceiling, the share of tokens that is a prefix of another prompt
// in the order that shares most (prompts sorted token by token, each sharing with the one before:
// the total minus the distinct prefixes, which no order and no cache can beat).
// Usage: npm run build && node bench/prefix-cache.js [release folder]
//        (LEVELS=4000,8000 for a quick look; CAPACITY=1048576 tokens for vLLM's KV cache)
import { getTokenizer, prepareMedOdysseyBuild } from '../dist/index.js';
import { PrefixRuns } from '../dist/runner/prefix-order.js';
import { gridRequest, releaseFolder } from './published-grid.js';

const data = releaseFolder();
const capacity = Number(process.env.CAPACITY ?? 2 ** 20);
/** Seconds a prompt token takes to compute (10,000 tokens/s), and an answer's seconds. */
const PREFILL = 1e-4;
const ANSWER = 1;

const started = performance.now();
const { samples } = await prepareMedOdysseyBuild({ ...gridRequest(data), mic: 'ratio', tokenizers: [] });
const today = [...samples];
const built = performance.now();
const o200k = await getTokenizer('o200k_base');
/** Token ids of each sample's prompt (every grid sample is one user message). */
const tokens = new Map(today.map((sample) => [sample.id, Uint32Array.from(o200k.encode(sample.prompt))]));
const encoded = performance.now();
const sortedAt = performance.now();
new PrefixRuns(today, 1);
const sorted = performance.now();
console.log(
  `${today.length} prompts (${today.filter((s) => s.task === 'niah').length} NIAH), ${(today.reduce((n, s) => n + s.prompt.length, 0) / 1e6).toFixed(1)} M characters, ${([...tokens.values()].reduce((n, t) => n + t.length, 0) / 1e6).toFixed(1)} M o200k tokens; build ${((built - started) / 1000).toFixed(1)} s, tokenize ${((encoded - built) / 1000).toFixed(1)} s, prefix order ${(sorted - sortedAt).toFixed(0)} ms`,
);

/** Keys of a prompt's full blocks of `size` tokens, each covering its tokens and its whole prefix. */
function blockKeys(ids, size) {
  const keys = new Float64Array(Math.floor(ids.length / size));
  let high = 0x811c9dc5;
  let low = 0x01000193;
  for (let block = 0; block < keys.length; block++) {
    for (let index = block * size; index < (block + 1) * size; index++) {
      const id = ids[index];
      high = Math.imul(high ^ id, 0x01000193) >>> 0;
      low = Math.imul(low ^ id ^ (low >>> 15), 0x85ebca6b) >>> 0;
    }
    // 53 bits of the chain: a collision among a few million blocks is out of reach.
    keys[block] = (high & 0x1fffff) * 2 ** 32 + low;
  }
  return keys;
}

const keysBySize = new Map(
  [16, 128].map((size) => [size, new Map(today.map((s) => [s.id, blockKeys(tokens.get(s.id), size)]))]),
);

/**
 * Tokens served from cache for each sample: `size`-token blocks, hits counted when at least
 * `minimum` tokens match, an LRU of `capacityBlocks` (Infinity: unbounded) whose blocks expire
 * `lifetime` seconds after their last use, C slots. Each slot
 * asks `take(slot)` for its next request when its last one ends (today: the next in file order;
 * medbench: its run of the prefix order, as `runSamples` does); a request takes PREFILL seconds a
 * token it does not find cached plus ANSWER seconds, and its blocks enter the cache when it ends.
 */
function simulate(take, { size, minimum, capacityBlocks, concurrency, lifetime = Infinity }) {
  const keys = keysBySize.get(size);
  // Block key → when it was last used (LRU order: the map's order).
  const cache = new Map();
  const touch = (key, time) => {
    cache.delete(key);
    cache.set(key, time);
    if (cache.size > capacityBlocks) cache.delete(cache.keys().next().value);
  };
  const served = new Map();
  const free = new Array(concurrency).fill(0);
  let inFlight = [];
  for (;;) {
    const now = Math.min(...free);
    if (now === Number.POSITIVE_INFINITY) return served;
    const slot = free.indexOf(now);
    const sample = take(slot);
    if (!sample) {
      free[slot] = Number.POSITIVE_INFINITY;
      continue;
    }
    // Those answered by now, in the order they ended.
    const ended = inFlight.filter((request) => request.end <= now).sort((a, b) => a.end - b.end);
    inFlight = inFlight.filter((request) => request.end > now);
    for (const request of ended) for (const key of keys.get(request.id)) touch(key, request.end);
    const own = keys.get(sample.id);
    const length = tokens.get(sample.id).length;
    // The last token is always computed (vLLM recomputes it when every block hits).
    const usable = Math.floor((length - 1) / size);
    let hits = 0;
    const alive = (key) => cache.has(key) && now - cache.get(key) <= lifetime;
    while (hits < usable && alive(own[hits])) hits++;
    for (let block = 0; block < hits; block++) touch(own[block], now);
    const cached = length >= minimum && hits * size >= minimum ? hits * size : 0;
    served.set(sample.id, cached);
    free[slot] = now + (length - cached) * PREFILL + ANSWER;
    inFlight.push({ id: sample.id, end: free[slot] });
  }
}

/** The reference: each prompt's longest shared prefix with the one before it, prompts sorted by token ids. */
function ceiling() {
  const compare = (left, right) => {
    const shared = Math.min(left.length, right.length);
    for (let index = 0; index < shared; index++)
      if (left[index] !== right[index]) return left[index] - right[index];
    return left.length - right.length;
  };
  const byTokens = [...today].sort((a, b) => compare(tokens.get(a.id), tokens.get(b.id)));
  const served = new Map(byTokens.map((sample) => [sample.id, 0]));
  for (let index = 1; index < byTokens.length; index++) {
    const left = tokens.get(byTokens[index - 1].id);
    const right = tokens.get(byTokens[index].id);
    let length = 0;
    while (length < left.length && length < right.length && left[length] === right[length]) length++;
    served.set(byTokens[index].id, Math.min(length, right.length - 1));
  }
  return served;
}

const groups = {
  NIAH: (s) => s.task === 'niah',
  'NIAH en': (s) => s.task === 'niah' && s.params.language === 'en',
  'NIAH zh': (s) => s.task === 'niah' && s.params.language === 'zh',
  Counting: (s) => s.task === 'counting',
};
function shares(served) {
  return Object.entries(groups)
    .map(([name, member]) => {
      const chosen = today.filter(member);
      const total = chosen.reduce((n, s) => n + tokens.get(s.id).length, 0);
      const hit = chosen.reduce((n, s) => n + served.get(s.id), 0);
      return `${name} ${(hit / total).toFixed(3)}`;
    })
    .join(', ');
}

console.log(`ceiling (reference, any order, unbounded cache, one request at a time): ${shares(ceiling())}`);
const vllm = { size: 16, minimum: 0, capacityBlocks: Math.floor(capacity / 16) };
const caches = [
  ...[1, 4, 32].map((concurrency) => [
    `vLLM APC, 16-token blocks, LRU ${capacity} tokens, C = ${concurrency}`,
    { ...vllm, concurrency },
  ]),
  [`vLLM APC, 16-token blocks, unbounded, C = 4`, { ...vllm, capacityBlocks: Infinity, concurrency: 4 }],
  ...[4, 32].map((concurrency) => [
    `OpenAI-style, ≥ 1,024 tokens in 128-token steps, unbounded, 5 min lifetime, C = ${concurrency}`,
    { size: 128, minimum: 1024, capacityBlocks: Infinity, lifetime: 300, concurrency },
  ]),
];
for (const [name, cache] of caches) {
  console.log(name);
  let next = 0;
  console.log(`  today's order:   ${shares(simulate(() => today[next++], cache))}`);
  const runs = new PrefixRuns(today, cache.concurrency);
  console.log(`  medbench order:  ${shares(simulate((slot) => runs.take(slot), cache))}`);
}
console.log(`peak memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
