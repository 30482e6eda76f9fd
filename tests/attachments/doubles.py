"""Extractors that misbehave on purpose, to prove the sandbox's limits hold whatever the
library does: one computes forever, one sleeps forever, one allocates without end, one crashes the process,
one floods its answer, one raises what a damaged file makes a library raise."""

from __future__ import annotations

import os
import time

from curator.attachments.base import Extraction, Limits


class Misbehaving:
    kind = "test"
    package = "curator"
    suffixes: tuple[str, ...] = (".bad",)
    libraries: tuple[str, ...] = ()
    version = 1

    def __init__(self, how: str) -> None:
        self.how = how

    def extract(self, data: bytes, limits: Limits) -> Extraction:
        if self.how == "spin":
            n = 0
            while True:
                n += 1
        if self.how == "hog":
            held = []
            while True:
                held.append(bytearray(16 * 1024 * 1024))
        if self.how == "sleep":
            time.sleep(3600)
        if self.how == "abort":
            os.abort()
        if self.how == "flood":
            return Extraction(("x" * (4 * limits.max_chars + 2 * 1024 * 1024),))
        if self.how == "recurse":

            def down(n: int) -> int:
                return down(n + 1) + 1

            down(0)
        if self.how == "raise":
            raise ValueError("a damaged file")
        return Extraction((data.decode("utf-8"),))
