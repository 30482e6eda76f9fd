"""``python -m curator.hook TOP``: what the installed pre-commit hook runs.

The same as ``curator --vault TOP validate --staged`` (the same ``App``, command
and error handler), without the command-line parser: click and the wiring of every
command cost ~35 ms of CPU, an eighth of a commit's hook, for a command line no
person types. The hook finds ``TOP`` with ``git rev-parse --show-toplevel``.
"""

from __future__ import annotations

import sys

from curator.cli.error_handler import Exit, error_handler
from curator.commands import validate
from curator.commands.app import App


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m curator.hook WORK-TREE  (curator --vault WORK-TREE validate --staged)", file=sys.stderr)
        return 2
    try:
        with error_handler():
            return validate.run(App(vault_arg=argv[0]), (), False, "text", staged=True)
    except Exit as e:
        return e.code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
