"""Copies in a versioned docs tree: how many distinct pages a top 10 shows on the powershell-docs
tree, which keeps most pages in each of five versions (``reference/5.1/``, ``7.4/`` … ``7.7/``),
this checkout beside another.

    python benchmarks/copies_powershell.py [--peer DIR|REV] [--mode lexical|hybrid]

The tree is indexed lexically (``CURATOR_EMBEDDER=none``, unless ``--mode hybrid``) by each side
into its own index folder; then each question below runs as ``curator search Q --json --k 10``.
A page counts once whatever version folder it is in (``reference/7.5/X.md`` is ``reference/X.md``):
the figure is how many different pages the ten slots show, per question and summed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, peer_checkout, powershell_vault

QUESTIONS = (
    "set execution policy",
    "Get-ChildItem",
    "how do I list files recursively",
    "remote session to another computer",
    "convert object to json",
    "read a csv file",
    "environment variables",
    "run a script as administrator",
    "parameter validation attribute",
    "pipeline input by property name",
    "error handling try catch",
    "format output as a table",
    "schedule a job",
    "install a module from the gallery",
    "string comparison case sensitive",
)
VERSION = re.compile(r"^reference/[0-9.]+/")


def pages_shown(checkout: str, vault: Path, mode: str) -> list[int]:
    env = {**os.environ, "PYTHONPATH": checkout}
    if mode == "lexical":
        env["CURATOR_EMBEDDER"] = "none"
    index = tempfile.mkdtemp(prefix="curator-copies-")
    base = [sys.executable, "-m", "curator", "--vault", str(vault), "--index-dir", index]
    subprocess.run([*base, "index", "--quiet"], env=env, cwd=tempfile.gettempdir(), check=True)
    shown = []
    for q in QUESTIONS:
        out = subprocess.run(
            [*base, "search", q, "--json", "--k", "10", "--mode", mode],
            env=env,
            cwd=tempfile.gettempdir(),
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        shown.append(len({VERSION.sub("reference/", h["path"]) for h in json.loads(out)["hits"]}))
    return shown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", help="another checkout (a folder, or a git revision of this repository)")
    ap.add_argument("--mode", default="lexical", choices=["lexical", "hybrid"])
    args = ap.parse_args()
    vault = powershell_vault()
    sides = {"this": str(ROOT)}
    if args.peer:
        sides["peer"] = peer_checkout(args.peer)
    for name, checkout in sides.items():
        shown = pages_shown(checkout, vault, args.mode)
        print(f"{name:5} {checkout}: distinct pages in a top 10, per question {shown}, all {sum(shown)} of {10 * len(shown)}")


if __name__ == "__main__":
    main()
