import { availableParallelism } from 'node:os';
import { loadOptionalPart, OPTIONAL_PARTS } from '../core/optional-part.js';
import type { RankedList } from '../core/retriever.js';
import { onnxModelBytes } from './onnx-model-proto.js';
import { topK } from './top-k.js';

export interface ExactSearchRequest {
  /** Row-major query vectors, `dimensions` per row (normalised for cosine). */
  queries: Float32Array;
  /** Row-major corpus vectors. */
  corpus: Float32Array;
  dimensions: number;
  topK: number;
  /** Queries per block; bounds memory at blockSize × corpus rows scores. */
  blockSize?: number;
}

/** Below this many dot products the plain loop beats creating a session. */
const SMALL_PROBLEM = 4_000_000;

function rows(matrix: Float32Array, dimensions: number): number {
  return dimensions === 0 ? 0 : matrix.length / dimensions;
}

/** Inner products and top k in plain JavaScript: descending, ties by lower corpus index. */
export function exactSearchLoop(request: ExactSearchRequest): RankedList[] {
  const { queries, corpus, dimensions } = request;
  const corpusRows = rows(corpus, dimensions);
  const scores = new Float32Array(corpusRows);
  const results: RankedList[] = [];
  for (let query = 0; query < rows(queries, dimensions); query++) {
    const offset = query * dimensions;
    for (let document = 0; document < corpusRows; document++) {
      let dot = 0;
      const base = document * dimensions;
      for (let column = 0; column < dimensions; column++)
        dot += queries[offset + column]! * corpus[base + column]!;
      scores[document] = dot;
    }
    results.push(topK(scores, request.topK));
  }
  return results;
}

type Ort = typeof import('onnxruntime-node');

const SEARCH_GRAPH = onnxModelBytes({
  name: 'exact_top_k',
  nodes: [
    { opType: 'Gemm', inputs: ['queries', 'corpus'], outputs: ['scores'], attributes: { transB: 1 } },
    {
      opType: 'TopK',
      inputs: ['scores', 'k'],
      outputs: ['values', 'indices'],
      attributes: { axis: -1, largest: 1, sorted: 1 },
    },
  ],
  inputs: [
    { name: 'queries', type: 'float', shape: ['n', 'd'] },
    { name: 'corpus', type: 'float', shape: ['m', 'd'] },
    { name: 'k', type: 'int64', shape: [1] },
  ],
  outputs: [
    { name: 'values', type: 'float', shape: ['n', 'k'] },
    { name: 'indices', type: 'int64', shape: ['n', 'k'] },
  ],
});

/**
 * Exact (flat) inner-product search, top k per query. Large problems run as one ONNX graph
 * (Gemm, then TopK — which orders equal scores by lower index, as the spec's tie rule asks)
 * on onnxruntime, one block of queries at a time so memory stays bounded; small ones use a
 * plain loop.
 */
export async function exactSearch(request: ExactSearchRequest): Promise<RankedList[]> {
  const { dimensions } = request;
  const queryRows = rows(request.queries, dimensions);
  const corpusRows = rows(request.corpus, dimensions);
  const k = Math.min(request.topK, corpusRows);
  if (queryRows === 0 || k === 0)
    return Array.from({ length: queryRows }, () => ({ indexes: [], scores: [] }));
  if (queryRows * corpusRows * dimensions < SMALL_PROBLEM) return exactSearchLoop(request);
  const ort: Ort = await loadOptionalPart(OPTIONAL_PARTS.onnx, () => import('onnxruntime-node'));
  // Every core: onnxruntime's default took one thread of this 2-core machine (8.9 s against 14.5 s).
  const session = await ort.InferenceSession.create(SEARCH_GRAPH, {
    intraOpNumThreads: availableParallelism(),
  });
  try {
    const corpus = new ort.Tensor('float32', request.corpus, [corpusRows, dimensions]);
    const kTensor = new ort.Tensor('int64', BigInt64Array.from([BigInt(k)]), [1]);
    // 25.6 M scores a block (256 queries of a 100k corpus): for 10k × 100k × 768 on both cores
    // 6.7–7.2 s at 848 MB peak RSS, against 7.6–7.8 s at 897 MB for 320 and 7.2–7.6 s at 789 MB
    // for 192 (bench/README.md). onnxruntime's memory arena stays on: without it every block's scores
    // are fresh pages, and the search took twice as long.
    const blockSize = request.blockSize ?? Math.max(16, Math.min(1024, Math.floor(25_600_000 / corpusRows)));
    const results: RankedList[] = [];
    for (let start = 0; start < queryRows; start += blockSize) {
      const count = Math.min(blockSize, queryRows - start);
      const queries = new ort.Tensor(
        'float32',
        request.queries.subarray(start * dimensions, (start + count) * dimensions),
        [count, dimensions],
      );
      const output = await session.run({ queries, corpus, k: kTensor });
      const values = output.values!.data as Float32Array;
      const indices = output.indices!.data as BigInt64Array;
      for (let row = 0; row < count; row++) {
        const indexes: number[] = new Array(k);
        const scores: number[] = new Array(k);
        for (let column = 0; column < k; column++) {
          indexes[column] = Number(indices[row * k + column]!);
          scores[column] = values[row * k + column]!;
        }
        results.push({ indexes, scores });
      }
    }
    return results;
  } finally {
    await session.release();
  }
}

/** L2-normalises a vector in place; a zero vector stays zero. */
export function normalize(vector: Float64Array): Float64Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  if (length > 0) for (let index = 0; index < vector.length; index++) vector[index]! /= length;
  return vector;
}

/**
 * Exact cosine search in double precision (normalised query vectors against normalised corpus
 * vectors, top k each): the plain path for retrievers that compute their vectors themselves.
 */
export function exactCosineSearch(
  queries: readonly Float64Array[],
  corpus: readonly Float64Array[],
  k: number,
): RankedList[] {
  const scores = new Float64Array(corpus.length);
  return queries.map((query) => {
    for (let index = 0; index < corpus.length; index++) {
      const document = corpus[index]!;
      let dot = 0;
      for (let dimension = 0; dimension < query.length; dimension++)
        dot += query[dimension]! * document[dimension]!;
      scores[index] = dot;
    }
    return topK(scores, k);
  });
}
