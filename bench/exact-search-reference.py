"""numpy reference for bench/exact-search.js: exact inner-product top-k with a matrix product,
argpartition and a sort of the top k, in two forms:
  one-product: the whole query set at once (the straightforward form);
  blocked:     blocks of 1,000 queries (bounded memory, friendlier to caches);
  matmul:      the blocked products alone, no top-k (the arithmetic floor of this machine).
Reads float32 matrices written by the bench; prints timings and the top-k indexes' checksum."""
import json, sys, time
import numpy as np

queries_path, corpus_path, n_queries, n_corpus, dims, k, mode = sys.argv[1:8]
n_queries, n_corpus, dims, k = int(n_queries), int(n_corpus), int(dims), int(k)
Q = np.fromfile(queries_path, dtype=np.float32).reshape(n_queries, dims)
C = np.fromfile(corpus_path, dtype=np.float32).reshape(n_corpus, dims)

def top_k(block):
    scores = block @ C.T
    part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    values = np.take_along_axis(scores, part, axis=1)
    order = np.lexsort((part, -values), axis=1)
    return np.take_along_axis(part, order, axis=1)

start = time.perf_counter()
if mode == 'one-product':
    indexes = top_k(Q)
elif mode == 'matmul':
    for s in range(0, n_queries, 1000):
        Q[s:s + 1000] @ C.T
    indexes = np.zeros((0, 1), dtype=np.int64)
else:
    indexes = np.concatenate([top_k(Q[s:s + 1000]) for s in range(0, n_queries, 1000)])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "first": indexes[:, 0].astype(np.int64).tolist()[:2000]}))
