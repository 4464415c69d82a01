# A straightforward ROUGE-1/2/L in Python, written the way rouge_score does it (regex
# tokeniser, Counter n-grams, full LCS table). Reads pairs as JSON on stdin, prints the
# mean F-measures and the seconds spent scoring (reading excluded) as JSON.
import collections
import json
import re
import sys
import time

NON_ALPHANUM = re.compile(r"[^a-z0-9]+")


def tokenize(text):
    return [token for token in re.split(r"\s+", NON_ALPHANUM.sub(" ", text.lower())) if token]


def ngrams(tokens, n):
    return collections.Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def fmeasure(overlap, predicted, expected):
    precision = overlap / predicted if predicted else 0.0
    recall = overlap / expected if expected else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def rouge_n(prediction, reference, n):
    predicted, expected = ngrams(prediction, n), ngrams(reference, n)
    overlap = sum(min(count, expected[gram]) for gram, count in predicted.items())
    return fmeasure(overlap, max(0, len(prediction) - n + 1), max(0, len(reference) - n + 1))


def lcs(left, right):
    table = [[0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i in range(1, len(left) + 1):
        for j in range(1, len(right) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if left[i - 1] == right[j - 1] else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


pairs = json.load(sys.stdin)
started = time.perf_counter()
totals = [0.0, 0.0, 0.0]
for prediction, reference in pairs:
    p, r = tokenize(prediction), tokenize(reference)
    totals[0] += rouge_n(p, r, 1)
    totals[1] += rouge_n(p, r, 2)
    totals[2] += fmeasure(lcs(p, r), len(p), len(r)) if p and r else 0.0
seconds = time.perf_counter() - started
print(json.dumps({"means": [total / len(pairs) for total in totals], "seconds": seconds}))
