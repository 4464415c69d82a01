"""A straightforward Python Okapi BM25 (k1 1.5, b 0.75) for bench/bm25.js: lower-cased word
tokens, an inverted index of dicts, per-query score accumulation, heapq for the top 10 (ties by
lower document index). Reads {corpus, queries} JSON on stdin; prints timings and the top 10s."""
import heapq, json, math, re, sys, time

data = json.load(sys.stdin)
corpus, queries, k1, b = data["corpus"], data["queries"], 1.5, 0.75
tokenize = lambda text: re.findall(r"\w+", text.lower())

start = time.perf_counter()
postings, lengths = {}, []
for doc, text in enumerate(corpus):
    counts = {}
    for token in tokenize(text):
        counts[token] = counts.get(token, 0) + 1
    lengths.append(sum(counts.values()))
    for token, freq in counts.items():
        postings.setdefault(token, []).append((doc, freq))
average = sum(lengths) / len(lengths)
indexed = time.perf_counter()

tops = []
n = len(corpus)
for query in queries:
    scores = {}
    for token in set(tokenize(query)):
        plist = postings.get(token)
        if not plist:
            continue
        idf = math.log(1 + (n - len(plist) + 0.5) / (len(plist) + 0.5))
        for doc, freq in plist:
            norm = k1 * (1 - b + b * lengths[doc] / average)
            scores[doc] = scores.get(doc, 0.0) + idf * freq * (k1 + 1) / (freq + norm)
    tops.append([doc for doc, _ in heapq.nsmallest(10, scores.items(), key=lambda item: (-item[1], item[0]))])
done = time.perf_counter()
print(json.dumps({"index_seconds": indexed - start, "query_seconds": done - indexed, "tops": tops}))
