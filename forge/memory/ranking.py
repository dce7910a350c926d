"""Okapi BM25 ranking of memory entries against a query, over their indexes.

k1 = 1.2, b = 0.75, the Lucene idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``
that is never negative; ties go to higher confidence, then to the newer entry.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections.abc import Callable, Sequence

from forge.memory.index import MemoryIndex

BM25_K1 = 1.2
BM25_B = 0.75

_WORD = re.compile(r"[^\W_]+")


def tokenize(text: str) -> list[str]:
    """Lower-cased words (underscores split words: ``test_command`` is two).

    A plural ``s`` is dropped from longer words so ``tests`` finds ``test``.
    """
    words = []
    for word in _WORD.findall(text.casefold()):
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.append(word)
    return words


def _only(
    docs: Sequence[int], tfs: Sequence[int], keep: Callable[[int], bool]
) -> tuple[list[int], list[int]]:
    pairs = [(doc, tf) for doc, tf in zip(docs, tfs, strict=True) if keep(doc)]
    return [doc for doc, _ in pairs], [tf for _, tf in pairs]


def best_matches(
    words: list[str],
    indexes: list[MemoryIndex],
    category: str | None,
    limit: int,
) -> tuple[int, list[tuple[float, int, int]]]:
    """How many entries were searched, and the ``limit`` best by Okapi BM25 of ``words``.

    ``indexes`` are searched in order (project before global); each best entry
    comes as ``(score, position of its index in indexes, its entry number)``.

    Only entries holding a query word are scored. Ties go to confidence, then
    to the newer timestamp, then to the later entry (entries saved within one
    millisecond share a timestamp; project entries come before global ones).
    """
    codes = [None if category is None else index.category_code(category) for index in indexes]
    count = length = 0
    for index, code in zip(indexes, codes, strict=True):
        if category is None:
            count += index.count
            length += sum(index.category_lengths)
        elif code is not None:
            count += index.category_counts[code]
            length += index.category_lengths[code]
    if not words or not count:
        return count, []
    average = length / count or 1.0
    # (entries, term frequencies) of each word in each source, category filter applied
    postings: dict[str, list[list[tuple[Sequence[int], Sequence[int]]]]] = {}
    for word in words:
        postings[word] = []
        for index, code in zip(indexes, codes, strict=True):
            parts = index.postings.get(word)
            if category is not None:
                kinds = index.category
                parts = [
                    _only(docs, tfs, lambda doc: kinds[doc] == code)  # noqa: B023 - used at once
                    for docs, tfs in parts
                ]
            postings[word].append(parts)
    scores: list[dict[int, float]] = [{} for _ in indexes]
    longest = max((index.longest for index in indexes), default=0)
    # BM25's length normalisation, by entry length: entries share a handful of lengths
    norms = [BM25_K1 * (1 - BM25_B + BM25_B * size / average) for size in range(longest + 1)]
    factor = BM25_K1 + 1
    for word in words:
        df = sum(len(docs) for per_source in postings[word] for docs, _ in per_source)
        if not df:
            continue
        weight = math.log(1 + (count - df + 0.5) / (df + 0.5))
        once = [weight * 1 * factor / (1 + norm) for norm in norms]  # most words occur once
        for index, parts, scored in zip(indexes, postings[word], scores, strict=True):
            lengths, get = index.lengths, scored.get
            for docs, tfs in parts:
                for doc, tf in zip(docs, tfs, strict=True):
                    if tf == 1:
                        scored[doc] = get(doc, 0.0) + once[lengths[doc]]
                    else:
                        norm = norms[lengths[doc]]
                        scored[doc] = get(doc, 0.0) + weight * tf * factor / (tf + norm)
    every = [score for scored in scores for score in scored.values()]
    if not every:
        return count, []
    floor = heapq.nlargest(limit, every)[-1]
    # Fewer than ``limit`` entries score above the limit-th best score: all of
    # them are in; the rest are the best of those that tie with it.
    above: list[tuple[int, int]] = []
    tied: list[tuple[int, int]] = []
    for number, scored in enumerate(scores):
        for doc, score in scored.items():
            if score > floor:
                above.append((number, doc))
            elif score == floor:
                tied.append((number, doc))
    bases = list(itertools.accumulate((index.count for index in indexes), initial=0))

    def rank(hit: tuple[int, int]) -> tuple[float, float, str, int]:
        number, doc = hit
        index = indexes[number]
        return (scores[number][doc], index.confidence[doc], index.stamps[doc], bases[number] + doc)

    best = sorted(above, key=rank, reverse=True)
    best += heapq.nlargest(limit - len(best), tied, key=rank)
    return count, [(scores[number][doc], number, doc) for number, doc in best]
