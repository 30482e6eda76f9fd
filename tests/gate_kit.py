"""Building vaults and proposal folders for the gate-edge tests through public surfaces only.

Nothing here imports Curator: diffs come from ``git diff``, blob ids from ``git hash-object``,
proposal folders are written as an agent with file tools would write them, and every
verdict comes from the ``curator`` command line (in-process through ``curator.cli.main.main``
or as a process) or the MCP client.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ulid import ULID

from tests.conftest import ROOT, GitVault, make_git_vault, run_process

REGION_LINES = 15  # the line of `<!-- curio:begin related -->` in ``region_note``


def new_ulid() -> str:
    return str(ULID())


def mint() -> str:
    return "kp:" + new_ulid()


def default_config() -> str:
    return (ROOT / "curator" / "default_config.yaml").read_text(encoding="utf-8")


def new_vault(path: Path, files: dict[str, str | bytes] | None = None) -> GitVault:
    """A committed vault with Curator's default config and ``files``."""
    v = make_git_vault(path)
    v.write(".kp/config.yaml", default_config())
    for rel, content in (files or {}).items():
        v.write(rel, content)
    v.commit("initial")
    return v


def plain_note(kp_id: str | None, title: str, body: str = "Some text.\n") -> str:
    head = f"kp_id: {kp_id}\n" if kp_id else ""
    return f"---\n{head}title: {title}\n---\n# {title}\n\n{body}"


def region_note(kp_id: str) -> str:
    """A note whose curio region runs from line 15 (begin) to line 21 (end), with 30 lines after it."""
    lines = ["---", f"kp_id: {kp_id}", "title: Region", "---", "# Region", ""]
    lines += [f"mine {i}" for i in range(7, 15)]  # lines 7-14
    lines += ["<!-- curio:begin related -->", "- one", "- two", "- three", "- four", "- five"]  # 15-20
    lines += ["<!-- curio:end related -->"]  # 21
    lines += [f"after {i}" for i in range(22, 52)]  # 22-51
    return "\n".join(lines) + "\n"


def head(v: GitVault) -> str:
    return v.git("rev-parse", "HEAD").stdout.strip()


def blob_of(v: GitVault, rel: str, rev: str = "HEAD") -> str:
    return v.git("rev-parse", f"{rev}:{rel}").stdout.strip()


def hash_object(v: GitVault, rel: str) -> str:
    return v.git("hash-object", "--", rel).stdout.strip()


def git_diff(v: GitVault, rel: str, new: str | bytes | None) -> str:
    """The section ``git diff`` writes for changing ``rel`` (as committed) to ``new`` (None: delete)."""
    path = v.root / rel
    old = path.read_bytes()
    try:
        if new is None:
            path.unlink()
        else:
            path.write_bytes(new.encode("utf-8") if isinstance(new, str) else new)
        out = v.git("diff", "--no-color", "--no-ext-diff", "--no-renames", "-U3", "--", rel).stdout
    finally:
        path.write_bytes(old)
    assert out.startswith("diff --git"), out
    return out


def write_proposal(
    v: GitVault,
    changes: list[dict[str, Any]],
    *,
    diff: str | bytes = "",
    files: dict[str, str | bytes] | None = None,
    ulid: str | None = None,
    manifest_extra: dict[str, Any] | None = None,
    events: bytes | None = None,
) -> str:
    """A proposal folder under .kp/proposals/, written by hand."""
    ulid = ulid or new_ulid()
    folder = v.root / ".kp" / "proposals" / ulid
    folder.mkdir(parents=True)
    manifest: dict[str, Any] = {
        "schema": "proposals/v1",
        "id": ulid,
        "title": "A proposal",
        "rationale": "because",
        "author": {"kind": "agent", "name": "tester"},
        "created": "2026-11-29T10:00:00Z",
        "base": head(v),
        "changes": changes,
    }
    manifest.update(manifest_extra or {})
    # JSON is YAML, and its escapes keep every character of a path as it is (a YAML dumper
    # writes NEL or U+2028 raw, and a loader reads them as line breaks).
    (folder / "proposal.yaml").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if diff:
        (folder / "changes.diff").write_bytes(diff.encode("utf-8") if isinstance(diff, str) else diff)
    for rel, content in (files or {}).items():
        target = folder / "files" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    if events is not None:
        (folder / "events.jsonl").write_bytes(events)
    return ulid


def validate(cli: Any, v: GitVault, *args: str) -> tuple[int, dict[str, Any]]:
    r = cli("--vault", v.root, "validate", "--format", "json", *args)
    assert r.code in (0, 1), r
    return r.code, json.loads(r.out)


def codes_of(report: dict[str, Any]) -> set[str]:
    return {f["code"] for f in report["findings"]}


def curator(
    v: GitVault, *args: str, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``curator --vault V ARGS`` as a process, without an embedder."""
    return run_process("--vault", v.root, *args, env={"CURATOR_EMBEDDER": "none", **(env or {})}, timeout=timeout)


def at_a_terminal(
    v: GitVault,
    args: list[str],
    at_prompt: Callable[[], None] | None = None,
    *,
    env: dict[str, str] | None = None,
    unset: tuple[str, ...] = (),
    answer: bytes = b"y\n",
) -> tuple[int, str]:
    """Run curator on ``v`` with a pseudo-terminal for its input and output, as a person at a
    prompt does. ``at_prompt``: done once ``apply it?`` shows, before ``answer`` is typed (without
    it, nothing is answered). ``env`` on top of no embedder, a dumb terminal and no pager (the
    pager's own tests name one), less the variables in ``unset``. Returns the exit code and
    everything it printed."""
    import pty
    import select

    primary, secondary = pty.openpty()
    environ = {**os.environ, "CURATOR_EMBEDDER": "none", "TERM": "dumb", "GIT_PAGER": "cat", **(env or {})}
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(v.root), *args],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env={k: v for k, v in environ.items() if k not in unset},
        close_fds=True,
    )
    os.close(secondary)
    said = b""

    def read_until(marker: bytes | None) -> None:
        nonlocal said
        while marker is None or marker not in said:
            ready, _, _ = select.select([primary], [], [], 60)
            assert ready, said
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the other end closed
                chunk = b""
            if not chunk:
                break
            said += chunk

    try:
        if at_prompt is not None:
            read_until(b"apply it?")
            at_prompt()
            os.write(primary, answer)
        read_until(None)  # everything until it exits
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        os.close(primary)
    return code, said.decode("utf-8", "replace")


def is_root() -> bool:
    return os.geteuid() == 0
