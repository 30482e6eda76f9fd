"""``python -m curator.hook [--mint-new] TOP``: what the installed pre-commit hook runs.

The same as ``curator --vault TOP validate --staged`` (the same ``App``, command
and error handler), without the command-line parser: click and the wiring of every
command cost ~35 ms of CPU, an eighth of a commit's hook, for a command line no
person types. The hook finds ``TOP`` with ``git rev-parse --show-toplevel``.

With ``--mint-new`` (``curator hooks install --mint-new``) it first runs ``curator
mint --staged``: each new note the commit holds without a ``kp_id`` gets one, in its
file and in the index, as a formatter re-stages what it fixed. Whatever that leaves
undone, the validator then refuses with its usual message.
"""

from __future__ import annotations

import sys

from curator.cli.error_handler import Exit, error_handler
from curator.commands import validate
from curator.commands.app import App

USAGE = "usage: python -m curator.hook [--mint-new] WORK-TREE  (curator --vault WORK-TREE validate --staged)"


def main(argv: list[str]) -> int:
    minting = argv[:1] == ["--mint-new"]
    args = argv[1:] if minting else argv
    if len(args) != 1 or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    if minting:
        from curator.commands import mint  # the index's ref reader (apsw) only for a hook that mints

        try:
            with error_handler():
                mint.run(App(vault_arg=args[0]), (), staged=True, quiet=True)
        except Exit:
            pass  # said in one line; the validator below refuses what is left
    try:
        with error_handler():
            return validate.run(App(vault_arg=args[0]), (), False, "text", staged=True)
    except Exit as e:
        return e.code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
