import type { RankedList, Retriever } from '../../core/retriever.js';
import { exactCosineSearch, normalize } from '../../search/exact-search.js';
import { wordTokens } from './word-tokens.js';

type SparseRow = Array<[term: number, value: number]>;

/** Deterministic uniform numbers in [-1, 1) (mulberry32), so LSA embeddings are reproducible. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (((value ^ (value >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

/** Orthonormalises the columns of a rows × columns matrix in place (modified Gram–Schmidt). */
function orthonormalize(matrix: Float64Array[], columns: number): void {
  for (let column = 0; column < columns; column++) {
    for (let previous = 0; previous < column; previous++) {
      let dot = 0;
      for (const row of matrix) dot += row[column]! * row[previous]!;
      for (const row of matrix) row[column]! -= dot * row[previous]!;
    }
    let norm = 0;
    for (const row of matrix) norm += row[column]! * row[column]!;
    norm = Math.sqrt(norm) || 1;
    for (const row of matrix) row[column]! /= norm;
  }
}

/** Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations. */
function symmetricEigen(matrix: Float64Array[]): { values: number[]; vectors: Float64Array[] } {
  const size = matrix.length;
  const a = matrix.map((row) => Float64Array.from(row));
  const v = Array.from({ length: size }, (_, row) => {
    const line = new Float64Array(size);
    line[row] = 1;
    return line;
  });
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        if (Math.abs(a[p]![q]!) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, index) => row[index]!), vectors: v };
}

/**
 * `--model lsa`: a classical dense retriever that needs no pretrained weights. TF-IDF
 * (sublinear tf, smoothed idf, rows L2-normalised) over word tokens, reduced by a seeded
 * randomized truncated SVD fitted on the corpus; documents and queries are projected by
 * the same right singular vectors, L2-normalised, and ranked by exact cosine search.
 */
export class LsaRetriever implements Retriever {
  readonly name = 'lsa';
  readonly description: Record<string, unknown>;
  private readonly dimensions: number;
  private readonly seed: number;

  constructor(options: { dimensions?: number; seed?: number } = {}) {
    this.dimensions = options.dimensions ?? 128;
    this.seed = options.seed ?? 1;
    this.description = {
      retriever: 'lsa',
      dimensions: this.dimensions,
      seed: this.seed,
      weighting: 'tf-idf (1 + ln tf, smoothed idf)',
    };
  }

  async rank(request: {
    queries: readonly string[];
    corpus: readonly string[];
    topK: number;
  }): Promise<RankedList[]> {
    const vocabulary = new Map<string, number>();
    const documentTokens = request.corpus.map((text) => wordTokens(text));
    for (const tokens of documentTokens)
      for (const token of tokens) if (!vocabulary.has(token)) vocabulary.set(token, vocabulary.size);
    const documentFrequency = new Float64Array(vocabulary.size);
    for (const tokens of documentTokens)
      for (const token of new Set(tokens)) documentFrequency[vocabulary.get(token)!]! += 1;
    const total = request.corpus.length;
    const idf = documentFrequency.map((frequency) => Math.log((1 + total) / (1 + frequency)) + 1);
    const tfidf = (tokens: readonly string[]): SparseRow => {
      const counts = new Map<number, number>();
      for (const token of tokens) {
        const term = vocabulary.get(token);
        if (term !== undefined) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      const row: SparseRow = [...counts].map(([term, count]) => [term, (1 + Math.log(count)) * idf[term]!]);
      const norm = Math.sqrt(row.reduce((sum, [, value]) => sum + value * value, 0)) || 1;
      return row.map(([term, value]) => [term, value / norm]);
    };
    const rows = documentTokens.map(tfidf);
    const basis = this.fit(rows, vocabulary.size);
    const project = (row: SparseRow) => {
      const vector = new Float64Array(basis[0]?.length ?? 0);
      for (const [term, value] of row) {
        const line = basis[term]!;
        for (let dimension = 0; dimension < vector.length; dimension++)
          vector[dimension]! += value * line[dimension]!;
      }
      return normalize(vector);
    };
    const documents = rows.map(project);
    const queries = request.queries.map((query) => project(tfidf(wordTokens(query))));
    return exactCosineSearch(queries, documents, request.topK);
  }

  /** Right singular vectors (terms × k) of the documents × terms matrix, by randomized SVD. */
  private fit(rows: readonly SparseRow[], terms: number): Float64Array[] {
    const rank = Math.max(1, Math.min(this.dimensions, rows.length - 1, terms - 1));
    const width = Math.min(rank + 10, rows.length, terms);
    const random = seededUniform(this.seed);
    const times = (right: Float64Array[]) =>
      rows.map((row) => {
        const out = new Float64Array(width);
        for (const [term, value] of row) {
          const line = right[term]!;
          for (let column = 0; column < width; column++) out[column]! += value * line[column]!;
        }
        return out;
      });
    const transposeTimes = (left: Float64Array[]) => {
      const out = Array.from({ length: terms }, () => new Float64Array(width));
      rows.forEach((row, index) => {
        const line = left[index]!;
        for (const [term, value] of row) {
          const target = out[term]!;
          for (let column = 0; column < width; column++) target[column]! += value * line[column]!;
        }
      });
      return out;
    };
    let sample = times(Array.from({ length: terms }, () => Float64Array.from({ length: width }, random)));
    for (let iteration = 0; iteration < 2; iteration++) {
      orthonormalize(sample, width);
      const back = transposeTimes(sample);
      orthonormalize(back, width);
      sample = times(back);
    }
    orthonormalize(sample, width);
    const projectedT = transposeTimes(sample); // (Qᵀ X)ᵀ: terms × width
    const gram = Array.from({ length: width }, () => new Float64Array(width));
    for (const line of projectedT) {
      for (let i = 0; i < width; i++) for (let j = i; j < width; j++) gram[i]![j]! += line[i]! * line[j]!;
    }
    for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) gram[i]![j] = gram[j]![i]!;
    const { values, vectors } = symmetricEigen(gram);
    const order = values
      .map((value, index) => ({ value, index }))
      .sort((left, right) => right.value - left.value)
      .slice(0, rank);
    return projectedT.map((line) =>
      Float64Array.from(order, ({ value, index }) => {
        let sum = 0;
        for (let i = 0; i < width; i++) sum += line[i]! * vectors[i]![index]!;
        return value > 1e-12 ? sum / Math.sqrt(value) : 0;
      }),
    );
  }
}
