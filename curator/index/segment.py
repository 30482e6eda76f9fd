"""Words inside sentences of scripts written without spaces: Chinese, Japanese, Korean,
Thai, Lao, Khmer and Myanmar.

FTS5's unicode61 tokenizer splits at spaces and punctuation, so a Chinese sentence is
one token and no word inside it can be found. Each run of such a script is indexed
again as overlapping character bigrams, as Lucene's CJK analyser does
(``全文检索`` → ``全文 文检 检索``), plus its last character alone. A query's run becomes
its bigrams as separate terms, ranked by BM25 as Lucene's CJK analyser ranks them, so
``怎么设置快捷键`` finds the page about ``设置快捷键`` though no note holds the whole question;
each two adjacent bigrams (three characters in a row) are also a phrase, so a note holding
the question's words in its order ranks above one holding the same characters scattered:
adjacency is a boost, never a requirement. A query of one character matches as a prefix of
the bigrams.

Bigrams rather than a dictionary segmenter (jieba, tinysegmenter, pythainlp): they
need no dictionary, treat every script the same, never miss a word a dictionary lacks,
and cost one regular expression and a join per passage; a dictionary segmenter
would cost more per character than the rest of indexing together.
"""

from __future__ import annotations

import itertools

from curator.script_pattern import ScriptPattern

UNSPACED = (
    "\u0e00-\u0e7f"  # Thai
    "\u0e80-\u0eff"  # Lao
    "\u1000-\u109f"  # Myanmar
    "\u1100-\u11ff"  # Hangul Jamo
    "\u1780-\u17ff\u19e0-\u19ff"  # Khmer
    "\u3040-\u30ff\u31f0-\u31ff"  # Hiragana, Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    "\uac00-\ud7af"  # Hangul syllables
    "\uff66-\uff9f"  # half-width Katakana
    "\U00020000-\U0002fa1f"  # Han extensions
)
RUN_RE = ScriptPattern(f"[{UNSPACED}]+")
PREFIX = "*"
"""A query term ending with this is a prefix query (one character of an unspaced script)."""


def has_unspaced(text: str) -> bool:
    # Most text is ASCII, answered at once. Otherwise one regex search: on the powershell-docs
    # passages and breadcrumbs (non-ASCII by their › separator) it is 1.5-3x faster than
    # testing each distinct character of the text in Python.
    if text.isascii():
        return False
    return RUN_RE.search(text) is not None


def bigrams(run: str) -> list[str]:
    """Overlapping pairs of ``run``, then its last character (so one character is findable)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def index_terms(text: str) -> str:
    """The bigram tokens of every unspaced run in ``text``, space-separated ('' for none)."""
    return " ".join(" ".join(bigrams(m.group(0))) for m in RUN_RE.finditer(text))


def run_terms(run: str) -> list[str]:
    """A run's query terms: each bigram, then each pair of adjacent bigrams as a phrase
    (``设置快捷`` → ``设置 置快 快捷 "设置 置快" "置快 快捷"``); one character a prefix term."""
    if len(run) == 1:
        return [run + PREFIX]
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    return grams + [f"{a} {b}" for a, b in itertools.pairwise(grams)]


def query_terms(token: str) -> list[str]:
    """Query terms for a word holding unspaced runs: each run's ``run_terms``; the spaced
    parts as they are."""
    terms: list[str] = []
    last = 0
    for m in RUN_RE.finditer(token):
        if m.start() > last:
            terms.append(token[last : m.start()])
        terms.extend(run_terms(m.group(0)))
        last = m.end()
    if last < len(token):
        terms.append(token[last:])
    return [t for t in terms if t.strip()]
