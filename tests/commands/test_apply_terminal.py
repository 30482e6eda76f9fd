"""``curator apply`` as a person meets it: a long diff through the pager git would use, the steps
of a long apply on one line of stderr, and without a terminal a usage error instead of a prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note, run_process
from tests.gate_kit import at_a_terminal

LONG = "".join(f"Line {n} of a long note.\n" for n in range(1, 301))


def _long_change(vault: GitVault) -> str:
    """A proposal whose diff runs to hundreds of lines: more than a screen."""
    vault.write("notes/long.md", note("kp:01J0000000000000000000LONG", "Long", LONG))
    vault.commit("long")
    text = vault.read("notes/long.md")
    c, d = modify(vault, "notes/long.md", text.replace("of a long note.", "of a longer note."))
    return make_proposal(vault, [c], diff=d, title="Lengthen every line")


def _pager(tmp_path: Path, name: str) -> tuple[str, Path, Path]:
    """A pager command that keeps what it was given, and the environment it ran with."""
    paged, env = tmp_path / f"{name}.txt", tmp_path / f"{name}.env"
    return f"env > {env}; cat > {paged}", paged, env


@pytest.mark.parametrize("where", ["GIT_PAGER", "core.pager", "PAGER"])
def test_a_long_diff_goes_through_the_pager_git_would_use_then_the_question(
    vault: GitVault, tmp_path: Path, where: str
) -> None:
    pid = _long_change(vault)
    command, paged, env = _pager(tmp_path, "chosen")
    decoy, decoy_paged, _ = _pager(tmp_path, "decoy")
    setting = {"GIT_PAGER": command}
    if where == "core.pager":
        vault.git("config", "core.pager", command)
        setting = {"PAGER": decoy}  # core.pager comes before PAGER, as in git
    elif where == "PAGER":
        setting = {"PAGER": command}
    unset = () if where == "GIT_PAGER" else ("GIT_PAGER",)
    code, said = at_a_terminal(vault, ["apply", pid], lambda: None, env=setting, unset=unset, answer=b"n\n")
    assert code == 1 and "not applied" in said, said
    shown = paged.read_text()
    assert "+Line 300 of a longer note." in shown and "Lengthen every line" in shown, shown[:500]
    assert "Line 300 of a longer" not in said  # on the screen only through the pager
    assert "LESS=FRX" in env.read_text().splitlines() and "LV=-c" in env.read_text().splitlines()
    assert not decoy_paged.exists()
    assert "of a long note." in vault.read("notes/long.md")


def test_a_pager_setting_of_its_own_is_kept_and_cat_means_none(vault: GitVault, tmp_path: Path) -> None:
    pid = _long_change(vault)
    command, _paged, env = _pager(tmp_path, "mine")
    at_a_terminal(vault, ["apply", pid], lambda: None, env={"GIT_PAGER": command, "LESS": "-R"}, answer=b"n\n")
    assert "LESS=-R" in env.read_text().splitlines()
    code, said = at_a_terminal(vault, ["apply", pid], lambda: None, env={"GIT_PAGER": "cat"}, answer=b"n\n")
    assert code == 1 and "+Line 300 of a longer note." in said, said[-500:]


def test_apply_without_a_terminal_and_without_yes_is_a_usage_error(vault: GitVault) -> None:
    pid = _long_change(vault)
    r = run_process("--vault", vault.root, "apply", pid, input="y\n")
    assert r.returncode == 2, r
    assert r.stderr == "curator: apply needs confirmation (pass --yes when not at a terminal)\n", r.stderr
    assert "of a long note." in vault.read("notes/long.md")
    # One already applied is said to be so, as with --yes, rather than asked about.
    assert run_process("--vault", vault.root, "apply", pid, "--yes").returncode == 0
    again = run_process("--vault", vault.root, "apply", pid, input="y\n")
    said_yes = run_process("--vault", vault.root, "apply", pid, "--yes")
    assert again.stderr == said_yes.stderr and f"proposal {pid} is already applied" in again.stderr, again.stderr
    assert again.returncode == said_yes.returncode != 0


def test_apply_shows_its_steps_at_a_terminal_and_nothing_without_one(vault: GitVault) -> None:
    pid = _long_change(vault)
    code, said = at_a_terminal(vault, ["apply", pid, "--yes"], env={"TERM": "xterm-256color", "COLUMNS": "100"})
    assert code == 0, said
    for step in ("apply: checking the proposal", "apply: writing files", "apply: committing"):
        assert step in said, said
    assert "of a longer note." in vault.read("notes/long.md")

    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    quiet = make_proposal(vault, [c], diff=d, title="Reword beta")
    r = run_process("--vault", vault.root, "apply", quiet, "--yes")
    assert r.returncode == 0 and "Beta words." in vault.read("notes/beta.md"), r
    assert r.stderr == "", r.stderr  # no steps, no escape codes: a script reads the result
