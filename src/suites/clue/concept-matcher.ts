/** One concept name: its concept id (a UMLS CUI) and the name as written. */
export interface ConceptName {
  id: string;
  name: string;
}

/** Words too common to stand alone as a concept mention. */
const STOPWORDS = new Set(
  'a an and are as at be by for from has he in is it its of on or she that the to was were will with no not'.split(
    ' ',
  ),
);

/** Lower-cased letter/digit runs. */
export function conceptTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light plural stemmer for approximate matching: -ies → -y, -es/-s dropped (not -ss, -us, -is). */
export function approximateToken(token: string): string {
  if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (token.length > 4 && /(?:ches|shes|xes|sses)$/.test(token)) return token.slice(0, -2);
  if (token.length > 3 && token.endsWith('s') && !/(?:ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

/** Token ids stay below 2^21, so node · 2^21 + token is an exact number for any node below 2^32. */
const TOKEN_SPACE = 2 ** 21;

/** A trie over token ids, its edges in one numeric-keyed map (cheap lookups, no per-node maps). */
class TokenTrie {
  private readonly edges = new Map<number, number>();
  private readonly ids: Array<Set<string> | undefined> = [undefined];

  add(tokens: readonly number[], id: string): void {
    let node = 0;
    for (const token of tokens) {
      const key = node * TOKEN_SPACE + token;
      let next = this.edges.get(key);
      if (next === undefined) {
        next = this.ids.length;
        this.ids.push(undefined);
        this.edges.set(key, next);
      }
      node = next;
    }
    let set = this.ids[node];
    if (!set) {
      set = new Set();
      this.ids[node] = set;
    }
    set.add(id);
  }

  /** The longest name starting at `start`: its length in tokens and its ids. */
  longestAt(tokens: readonly number[], start: number): { length: number; ids: Set<string> } | undefined {
    let found: { length: number; ids: Set<string> } | undefined;
    let node = 0;
    for (let position = start; position < tokens.length; position++) {
      const token = tokens[position]!;
      if (token < 0) break;
      const next = this.edges.get(node * TOKEN_SPACE + token);
      if (next === undefined) break;
      node = next;
      const ids = this.ids[node];
      if (ids) found = { length: position - start + 1, ids };
    }
    return found;
  }

  get names(): number {
    return this.ids.filter((ids) => ids !== undefined).length;
  }
}

export class ConceptMatcher {
  private readonly exact = new TokenTrie();
  private readonly approximate = new TokenTrie();
  /** Interned tokens (exact and stemmed share one table). */
  private readonly vocabulary = new Map<string, number>();
  /** Stems already computed: the regexes of approximateToken would dominate otherwise. */
  private readonly stems = new Map<string, string>();

  constructor(names: Iterable<ConceptName>) {
    for (const { id, name } of names) {
      const tokens = conceptTokens(name);
      if (tokens.length === 0) continue;
      if (tokens.length === 1 && (tokens[0]!.length < 3 || STOPWORDS.has(tokens[0]!))) continue;
      this.exact.add(
        tokens.map((token) => this.intern(token)),
        id,
      );
      this.approximate.add(
        tokens.map((token) => this.intern(this.stem(token))),
        id,
      );
    }
  }

  private intern(token: string): number {
    let id = this.vocabulary.get(token);
    if (id === undefined) {
      id = this.vocabulary.size;
      if (id >= TOKEN_SPACE) throw new RangeError('more than 2^21 distinct name tokens');
      this.vocabulary.set(token, id);
    }
    return id;
  }

  private stem(token: string): string {
    let stem = this.stems.get(token);
    if (stem === undefined) {
      stem = approximateToken(token);
      if (this.stems.size < 2_000_000) this.stems.set(token, stem);
    }
    return stem;
  }

  /** Distinct names (exact token sequences) in the dictionary. */
  get size(): number {
    return this.exact.names;
  }

  /** The mentions in `text`, left to right: the matched tokens and their concept ids. */
  mentions(text: string): Array<{ text: string; ids: Set<string> }> {
    const tokens = conceptTokens(text);
    const exactIds = tokens.map((token) => this.vocabulary.get(token) ?? -1);
    const stemmedIds = tokens.map((token) => this.vocabulary.get(this.stem(token)) ?? -1);
    const found: Array<{ text: string; ids: Set<string> }> = [];
    for (let start = 0; start < tokens.length; ) {
      const exact = this.exact.longestAt(exactIds, start);
      const approximate = this.approximate.longestAt(stemmedIds, start);
      const match = exact && (!approximate || exact.length >= approximate.length) ? exact : approximate;
      if (!match) {
        start++;
        continue;
      }
      found.push({ text: tokens.slice(start, start + match.length).join(' '), ids: match.ids });
      start += match.length;
    }
    return found;
  }

  /** The set of concept ids mentioned in `text`. */
  concepts(text: string): Set<string> {
    const found = new Set<string>();
    for (const mention of this.mentions(text)) for (const id of mention.ids) found.add(id);
    return found;
  }
}
