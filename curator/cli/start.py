"""``curator ARGS``: the console entry.

``curator index`` and ``curator index --quiet`` with nothing else — what an editor's save
hook or a git hook runs, mostly on a vault where nothing changed — go straight to the
command: the same ``App``, command and error handler, without the command-line parser.
Click and the wiring of the root group cost ~30 ms of CPU there, a fifth of a no-change
reconcile of a 3,112-file vault (``python -X importtime``); ``curator.hook`` skips them for
the pre-commit hook the same way. Any other command line, or one that ``CURATOR_VAULT`` or
``CURATOR_INDEX_DIR`` steers (click reads and checks those), goes to ``curator.cli.main``."""

from __future__ import annotations

import gc
import os
import sys

from curator.cli.error_handler import Exit, error_handler, rebuilding_damage
from curator.commands import index
from curator.commands.app import App

GC_FIRST_GENERATION = 10_000
"""Allocations between collections of the youngest generation (Python's default is 700). A
command is one short process that builds many objects it keeps (a 6,500-change manifest, its
views, findings): at 700 the collector walked them again and again, ~8% of the CPU of a first
verdict on such a proposal (`curator proposals` cold, user time 3.9 s → 3.6 s)."""

QUICK: dict[tuple[str, ...], bool] = {("index",): False, ("index", "--quiet"): True, ("index", "-q"): True}
"""The command lines taken straight to ``curator index``, and whether each is quiet."""


def main(argv: list[str] | None = None) -> int:
    """Run one command line; ``argv`` None (the console entry) means this process is the command."""
    gc.set_threshold(GC_FIRST_GENERATION, *gc.get_threshold()[1:])
    try:
        return _command(tuple(sys.argv[1:] if argv is None else argv))
    finally:
        if argv is None:
            # The process exits next, and its last collections would walk every object the
            # command made (modules, numpy, the model's tensors) only to free what exit frees
            # anyway: 9 ms of a lexical search process and 22 ms of a hybrid one. Frozen, they are
            # left to the interpreter's teardown, which still joins threads and finalizes what
            # reference counting frees; every file a command writes is closed by its own `with`.
            gc.freeze()


def _command(args: tuple[str, ...]) -> int:
    quiet = QUICK.get(args)
    if quiet is None or os.environ.get("CURATOR_VAULT") or os.environ.get("CURATOR_INDEX_DIR"):
        from curator.cli import main as root  # heavy: click and every command's options

        return root.main(list(args))
    try:
        with error_handler():
            app = App()
            with rebuilding_damage(lambda: app):
                code = index.run(app, quiet)
            sys.stdout.flush()  # here, not at exit, where a closed pipe is not ours to catch
            return code
    except Exit as e:
        return e.code
