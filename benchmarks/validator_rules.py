"""Each validator rule alone on one large proposal, beside a peer checkout: no rule may get slower.

    python benchmarks/validator_rules.py [--vault generated|powershell] [--notes 6500] [--runs 3] --peer DIR|REV

The vault and its ``curator adopt`` proposal are made as in ``review_scale.py``. For each checkout
(a process with ``PYTHONPATH`` naming it, run from the vault's folder) every rule runs ``--runs``
times, each time on a proposal read afresh (``subject.build``), so a rule pays for what it reads
(a note's frontmatter) however the rules before it share their reads; reading the proposal is
timed as a step of its own. Medians of CPU seconds (``time.process_time``) per step.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GIT_ENV, ROOT, peer_checkout
from review_scale import adopted

PER_RULE = """
import json, statistics, sys, time
from curator.commands.app import App
from curator.proposals import store
from curator.validator import verdict
from curator.validator.state import RepoState
from curator.validator.subject import build
app = App(vault_arg=sys.argv[1])
vault, settings = app.vault(), app.settings()
proposal = store.load_within(vault.root, sys.argv[2], settings.limits)
state = RepoState(vault, settings)
build(proposal, state)  # the state's own walks and lookups, shared by every rule, done once
times = {}
for _ in range(int(sys.argv[3])):
    t = time.process_time()
    build(proposal, state)
    times.setdefault("read the proposal", []).append(time.process_time() - t)
    for rule in verdict.RULES:
        subject = build(proposal, state)
        t = time.process_time()
        found = list(rule(subject, state))
        name = rule.__module__.rsplit(".", 1)[-1]
        times.setdefault(name, []).append(time.process_time() - t)
print(json.dumps({name: statistics.median(values) for name, values in times.items()}))
"""


def measure(vault: Path, ulid: str, env: dict[str, str], runs: int) -> dict[str, float]:
    r = subprocess.run(
        [sys.executable, "-c", PER_RULE, str(vault), ulid, str(runs)], env=env, cwd=vault, capture_output=True, text=True
    )
    if r.returncode != 0:
        sys.exit(r.stderr)
    return dict(json.loads(r.stdout))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vault", choices=("generated", "powershell"), default="generated")
    ap.add_argument("--notes", type=int, default=6500)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer", required=True, help="a checkout folder, or a git revision of this repository")
    args = ap.parse_args()
    peer = peer_checkout(args.peer)
    vault, ulid, changes = adopted(args.vault, args.notes, peer)
    base = {**os.environ, **GIT_ENV, "CURATOR_EMBEDDER": "none"}
    base.pop("CURATOR_VAULT", None)
    this = measure(vault, ulid, {**base, "PYTHONPATH": str(ROOT)}, args.runs)
    other = measure(vault, ulid, {**base, "PYTHONPATH": peer}, args.runs)
    print(f"each rule alone on one adopt proposal of {changes} changes ({args.vault}); median CPU seconds of {args.runs}")
    print(f"{'step':<20}{'this':>10}{'peer':>10}   peer / this")
    for name in sorted(set(this) | set(other), key=lambda n: (n != "read the proposal", n)):
        a, b = this.get(name), other.get(name)
        ratio = f"{b / a:.1f}x" if a and b else "-"
        print(f"{name:<20}{a if a is not None else float('nan'):>10.3f}{b if b is not None else float('nan'):>10.3f}   {ratio}")


if __name__ == "__main__":
    main()
