"""Holes in the gate (validator, pre-commit hook, CI's ``validate --commits``), each reproduced
through the command line and git alone and marked ``xfail(strict=True)``: each asserts what the
fixed product must do, so it fails today and turns into an XPASS failure the day the hole is
closed (then drop the marker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault
from tests.gate_kit import (
    codes_of,
    curator,
    git_diff,
    head,
    mint,
    new_vault,
    plain_note,
    validate,
    write_proposal,
)

KP_A = "kp:01J0000000000000000000ALPH"
KP_B = "kp:01J0000000000000000000BETA"


@pytest.fixture(autouse=True)
def _no_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")


@pytest.fixture
def gv(tmp_path: Path) -> GitVault:
    return new_vault(
        tmp_path / "gv",
        {
            "notes/alpha.md": plain_note(KP_A, "Alpha", "line one\nline two\nline three\n"),
            "notes/beta.md": plain_note(KP_B, "Beta", "Beta text.\n"),
        },
    )


def _hook_env() -> dict[str, str]:
    """The environment a person's `git commit` runs in: no Curator settings from the test run."""
    return {k: val for k, val in os.environ.items() if not k.startswith(("CURATOR_", "PRE_COMMIT"))}


def _install_hooks(cli, root: Path) -> dict:
    r = cli("--vault", root, "--json", "hooks", "install", "--python", sys.executable)
    assert r.code == 0, r
    return json.loads(r.out)


def _commit_with_hook(root: Path, message: str = "c") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", message], cwd=root, capture_output=True, text=True, env=_hook_env(), timeout=60
    )


def _event(event: str) -> bytes:
    return (json.dumps({"at": "2026-11-29T10:00:00Z", "event": event, "by": "human:alice"}) + "\n").encode()


# 2 ------------------------------------------------------------------------------------------


def test_validate_commits_checks_what_a_merge_introduces(gv: GitVault, cli) -> None:
    alpha = "notes/alpha.md"
    pid = write_proposal(
        gv,
        [
            {
                "op": "modify",
                "path": "notes/beta.md",
                "base_blob": gv.git("rev-parse", "HEAD:notes/beta.md").stdout.strip(),
            }
        ],
        diff=git_diff(gv, "notes/beta.md", gv.read("notes/beta.md").replace("Beta text.", "Beta text, more.")),
    )
    gv.commit("propose a change to beta")
    base = head(gv)
    # An honest merge of two valid branches: must still pass.
    gv.git("checkout", "-q", "-b", "side")
    gv.write("notes/side.md", plain_note(mint(), "Side"))
    gv.commit("a note on the side branch")
    gv.git("checkout", "-q", "main")
    gv.write("notes/main.md", plain_note(mint(), "Main"))
    gv.commit("a note on main")
    gv.git("merge", "-q", "--no-ff", "--no-verify", "-m", "honest merge", "side")
    honest = head(gv)
    # The forged merge: a second side branch, merged with --no-verify while writing an
    # `applied` event nothing applied and changing a committed kp_id.
    gv.git("checkout", "-q", "-b", "side2", base)
    gv.write("notes/side2.md", plain_note(mint(), "Side two"))
    gv.commit("another side note")
    gv.git("checkout", "-q", "main")
    gv.git("merge", "-q", "--no-ff", "--no-commit", "side2")
    gv.write(alpha, gv.read(alpha).replace(KP_A, "kp:01J0000000000000000FORGED"))
    gv.write(f".kp/proposals/{pid}/events.jsonl", _event("applied"))
    gv.git("add", "-A")
    gv.git("commit", "-q", "--no-verify", "-m", f"merge side2\n\nKp-Proposal: {pid}\nKp-Event: applied")
    forged = head(gv)

    r = cli("--vault", gv.root, "validate", "--commits", f"{base}..HEAD", "--format", "json")
    verdicts = {c["commit"]: c["ok"] for c in json.loads(r.out)["commits"]}
    assert verdicts.get(forged) is False, verdicts  # checked against each parent: the forgery is caught
    assert verdicts.get(honest) is True, verdicts  # and an honest merge passes
    assert r.code == 1, r


# 3 ------------------------------------------------------------------------------------------


def test_hooks_install_in_a_linked_worktree_installs_where_git_runs_them(gv: GitVault, tmp_path: Path, cli) -> None:
    linked = tmp_path / "linked"
    gv.git("worktree", "add", "-q", "-b", "other", str(linked))
    data = _install_hooks(cli, linked)
    where = subprocess.run(
        ["git", "rev-parse", "--path-format=absolute", "--git-path", "hooks"],
        cwd=linked,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # It says where it installed, and that is where git looks.
    assert os.path.realpath(data["hooks_dir"]) == os.path.realpath(where), (data, where)
    assert os.path.isfile(os.path.join(where, "pre-commit"))
    # And the hook runs: a commit in the linked worktree changing a committed kp_id is refused.
    note = linked / "notes" / "alpha.md"
    note.write_text(note.read_text().replace(KP_A, "kp:01J00000000000000000CHANGED"))
    subprocess.run(["git", "add", "notes/alpha.md"], cwd=linked, check=True)
    r = _commit_with_hook(linked, "change a kp_id")
    assert r.returncode != 0 and "KP006" in r.stdout + r.stderr, r


# 4 ------------------------------------------------------------------------------------------


def test_a_create_under_a_submodule_is_kp002(gv: GitVault, tmp_path: Path, cli) -> None:
    sub = make_git_vault(tmp_path / "upstream")
    sub.write("README.md", "# upstream\n")
    sub.commit("upstream")
    gv.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.root), "lib")
    gv.commit("add a submodule")
    assert gv.git("ls-files", "-s", "lib").stdout.startswith("160000")
    pid = write_proposal(
        gv,
        [{"op": "create", "path": "lib/new.md"}],
        files={"lib/new.md": plain_note(mint(), "Into the submodule")},
    )
    _, data = validate(cli, gv, pid)
    found = data["proposals"][0]["findings"]
    assert any(f["code"] == "KP002" and f["path"] == "lib/new.md" for f in found), found


@pytest.mark.parametrize("op", ["create", "modify", "delete"])
def test_a_change_at_a_submodule_s_own_path_is_kp002(gv: GitVault, tmp_path: Path, cli, op: str) -> None:
    """A gitlink named like a note (``vendored.md``, mode 160000): its path is no note's either."""
    sub = make_git_vault(tmp_path / "upstream")
    sub.write("README.md", "# upstream\n")
    sub.commit("upstream")
    gv.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.root), "vendored.md")
    gv.commit("add a submodule named like a note")
    gitlink = gv.git("ls-files", "-s", "vendored.md").stdout.split()
    assert gitlink[0] == "160000"
    text = plain_note(mint(), "Over the submodule")
    change: dict[str, str] = {"op": op, "path": "vendored.md"}
    diff = ""
    if op != "create":
        change["base_blob"] = gitlink[1]
    if op == "modify":
        diff = "--- a/vendored.md\n+++ b/vendored.md\n@@ -1 +1 @@\n-Subproject commit " + gitlink[1] + "\n+# Flat\n"
    pid = write_proposal(gv, [change], diff=diff, files={"vendored.md": text} if op == "create" else None)
    _, data = validate(cli, gv, pid)
    found = data["proposals"][0]["findings"]
    assert any(f["code"] == "KP002" and f["path"] == "vendored.md" for f in found), found
    assert data["proposals"][0]["ok"] is False


# 5 ------------------------------------------------------------------------------------------

_ID = "kp:01J00000000000000000SPELLD"
SPELLINGS = [
    pytest.param(f"---\nkp_id: {_ID}\ntitle: E\n---\n# E\n", id="plain"),
    pytest.param(f"---\nkp_id: '{_ID}'  # minted by hand\ntitle: E\n---\n# E\n", id="single-quoted-with-comment"),
    pytest.param(f"---\nkp_id: >-\n  {_ID}\ntitle: E\n---\n# E\n", id="folded-block"),
    pytest.param(f"---\n{{kp_id: '{_ID}', title: E}}\n---\n# E\n", id="flow-mapping"),
    pytest.param(
        '---\nkp_id: "kp\\x3a01J00000000000000000\\u0053PELLD"\ntitle: E\n---\n# E\n',
        id="double-quoted-escapes",
    ),
    pytest.param(f"---\nminted: &id {_ID}\nkp_id: *id\ntitle: E\n---\n# E\n", id="anchor-alias"),
    pytest.param(f'---\n"kp_id": {_ID}\ntitle: E\n---\n# E\n', id="quoted-key"),
    pytest.param(f'---\n"kp\\u005fid": {_ID}\ntitle: E\n---\n# E\n', id="escaped-key"),
    pytest.param(f"---\n---x: 1\ntitle: {'a' * 4200}\nkp_id: {_ID}\n---\n# E\n", id="fence-like-key-past-4kb"),
]


@pytest.mark.parametrize("committed", SPELLINGS)
def test_a_kp_id_in_any_yaml_spelling_is_already_used(gv: GitVault, tmp_path: Path, cli, committed: str) -> None:
    gv.write("notes/existing.md", committed)
    gv.commit("a note whose kp_id is spelled another way")
    check = cli("--vault", gv.root, "--json", "read", "notes/existing.md")
    assert check.code == 0 and json.loads(check.out)["kp_id"] == _ID, check  # Curator reads it as that id
    new = tmp_path / "dup.md"
    new.write_text(plain_note(_ID, "Second"), encoding="utf-8")
    r = cli(
        "--vault", gv.root, "--json", "propose", "--create", f"notes/dup.md={new}", "--title", "Dup", "--rationale", "r"
    )
    assert r.code == 1, r  # rejected: nothing staged
    assert "KP006" in r.out, r.out


# 6 ------------------------------------------------------------------------------------------


def test_the_hook_and_the_index_agree_on_what_a_note_is(gv: GitVault, cli) -> None:
    _install_hooks(cli, gv.root)
    gv.write(".trash/broken.md", "---\ntitle: [unclosed\n---\nthrown away\n")
    index = cli("--vault", gv.root, "--json", "index")
    assert index.code == 0, index
    assert ".trash/broken.md" in index.out  # named as skipped (excluded), not indexed
    doctor = curator(gv, "doctor")
    assert ".trash/broken.md" not in doctor.stdout + doctor.stderr
    gv.git("add", ".trash/broken.md")
    r = _commit_with_hook(gv.root, "trash a broken note")
    assert r.returncode == 0, r  # not a note for the index, not a note for the hook


# 7 (validator and hook; the index's side is in tests/index/test_hostile_notes.py) -----------

BOMBS = {
    # 9 aliases a level: small on disk, millions of nodes once expanded.
    "nested-anchors": "---\nkp_id: {kp}\ntitle: Bomb\n"
    + 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 7))
    + "---\n# Bomb\n",
    "deep-nesting": "---\nkp_id: {kp}\ntitle: Deep\ndeep: " + "[" * 1200 + "]" * 1200 + "\n---\n# Deep\n",
}


@pytest.mark.parametrize("shape", sorted(BOMBS))
def test_frontmatter_that_explodes_is_kp008(gv: GitVault, tmp_path: Path, cli, shape: str) -> None:
    text = BOMBS[shape].replace("{kp}", mint())
    # Staged by `curator propose` as a new note: refused.
    new = tmp_path / "bomb.md"
    new.write_text(text, encoding="utf-8")
    started = time.monotonic()
    r = cli(
        "--vault", gv.root, "--json", "propose", "--create", f"notes/bomb.md={new}", "--title", "B", "--rationale", "r"
    )
    assert time.monotonic() - started < 10
    assert r.code == 1 and "KP008" in r.out, r
    # Committed past Curator: the hook refuses it.
    _install_hooks(cli, gv.root)
    gv.write("notes/bomb.md", text)
    gv.git("add", "notes/bomb.md")
    hook = _commit_with_hook(gv.root, "a bomb")
    assert hook.returncode != 0 and "KP008" in hook.stdout + hook.stderr, hook


# 11 -----------------------------------------------------------------------------------------

ODD_PATHS = {
    "c1-nel": "notes/a\u0085b.md",
    "c1-csi": "notes/a\u009b2Jb.md",
    "line-separator": "notes/a\u2028b.md",
    "right-to-left-override": "notes/evil\u202edm.txt",
}


@pytest.mark.parametrize("name", sorted(ODD_PATHS))
def test_c1_controls_and_bidi_overrides_in_paths_are_kp002(gv: GitVault, cli, name: str) -> None:
    path = ODD_PATHS[name]
    pid = write_proposal(gv, [{"op": "create", "path": path}], files={path: plain_note(mint(), "Odd")})
    _, data = validate(cli, gv, pid)
    assert "KP002" in codes_of(data["proposals"][0]), data


TERMINAL_ESCAPES = {
    "esc-csi": "clear \x1b[2J the screen",
    "osc-title": "set \x1b]0;owned\x07 the title",
    "osc-hyperlink": "a \x1b]8;;https://example.org\x1b\\link\x1b]8;;\x1b\\ here",
    "c1-csi": "clear \u009b2J the screen",
}


@pytest.mark.parametrize("name", sorted(TERMINAL_ESCAPES))
def test_terminal_escapes_in_note_content_get_a_finding(gv: GitVault, cli, name: str) -> None:
    path = "notes/escapes.md"
    pid = write_proposal(
        gv, [{"op": "create", "path": path}], files={path: plain_note(mint(), "Esc", TERMINAL_ESCAPES[name] + "\n")}
    )
    _, data = validate(cli, gv, pid)
    found = [f for f in data["proposals"][0]["findings"] if f["path"] == path]
    # A warning, not a refusal (Curator shows it escaped), on the line that carries it.
    assert [(f["code"], f.get("warning"), f["line"]) for f in found] == [("KP009", True, 7)], found
    assert "terminal control" in found[0]["message"]
    assert data["proposals"][0]["ok"] is True


def test_a_huge_proposal_yaml_is_kp001_too_large(gv: GitVault, cli) -> None:
    pid = write_proposal(gv, [{"op": "create", "path": "notes/n.md"}], files={"notes/n.md": plain_note(mint(), "N")})
    manifest = gv.root / ".kp" / "proposals" / pid / "proposal.yaml"
    with manifest.open("r+b") as f:
        f.seek(0, 2)
        f.write(b"# padding\n")
        f.truncate(100 * 1024 * 1024)  # sparse: 100 MB on stat, nothing on disk
    _, data = validate(cli, gv, pid)
    found = [f for f in data["proposals"][0]["findings"] if f["code"] == "KP001"]
    assert found, data
    assert not any("missing" in f["message"] for f in found), found
    assert any("large" in f["message"] or "MiB" in f["message"] or "MB" in f["message"] for f in found), found


LOOKALIKES = [".CURIO/feed.md", ".curio./feed.md", ".Curio/feed.md", ".curio /feed.md"]


@pytest.mark.parametrize("path", LOOKALIKES)
def test_lookalikes_of_producer_paths_are_kp003(gv: GitVault, cli, path: str) -> None:
    pid = write_proposal(gv, [{"op": "create", "path": path}], files={path: plain_note(mint(), "Feed")})
    _, data = validate(cli, gv, pid)
    assert "KP003" in codes_of(data["proposals"][0]), data


def test_a_committed_hunk_whose_header_lies_is_judged_where_it_applies_by_validate_commits(tmp_path: Path, cli) -> None:
    """The CI side of a lying header: a proposal committed with ``--no-verify`` whose hunk says
    ``@@ -24`` (outside the managed region) while its lines match only at 17-19 (inside it) is
    KP004 in ``validate --commits`` and in ``validate ULID``, named at the lines it applies to."""
    from tests.gate_kit import REGION_LINES, region_note

    v = new_vault(tmp_path / "v", {"notes/region.md": region_note("kp:01J00000000000000000000RGN")})
    base = head(v)
    lying = (
        "diff --git a/notes/region.md b/notes/region.md\n"
        "--- a/notes/region.md\n+++ b/notes/region.md\n"
        "@@ -24,3 +24,3 @@\n - two\n-- three\n+- THREE\n - four\n"
    )
    blob = v.git("rev-parse", "HEAD:notes/region.md").stdout.strip()
    pid = write_proposal(v, [{"op": "modify", "path": "notes/region.md", "base_blob": blob}], diff=lying)
    v.git("add", "-A")
    v.git("commit", "-q", "--no-verify", "-m", "a proposal with a lying hunk header")

    r = cli("--vault", v.root, "validate", "--commits", f"{base}..HEAD", "--format", "json")
    assert r.code == 1, r
    (commit,) = json.loads(r.out)["commits"]
    (in_ci,) = commit["proposals"]
    code, report = validate(cli, v, pid)
    (alone,) = report["proposals"]
    for judged in (in_ci, alone):
        kp004 = [f for f in judged["findings"] if f["code"] == "KP004"]
        assert judged["ok"] is False and kp004, judged
        assert all(REGION_LINES < f["line"] < REGION_LINES + 6 for f in kp004), kp004
    assert commit["ok"] is False and code == 1


# 1: a header that counts fewer lines than follow it --------------------------------------------

SHORT_COUNTS = {
    # The header counts one context line; the change after it was read by no one.
    "change-after-the-counts": "@@ -7,1 +7,1 @@\n line one\n-line two\n+line 2\n line three\n",
    # It counts the removal and the addition, not the context after them.
    "context-after-the-counts": "@@ -7,2 +7,2 @@\n line one\n-line two\n+line 2\n line three\n",
}


@pytest.mark.parametrize("name", sorted(SHORT_COUNTS))
def test_a_hunk_whose_header_counts_fewer_lines_than_follow_it_is_kp001_as_git_apply_refuses_it(
    gv: GitVault, cli, name: str
) -> None:
    path = "notes/alpha.md"
    diff = f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n" + SHORT_COUNTS[name]
    (gv.root / "short.diff").write_text(diff)
    git_says = gv.git("apply", "--check", "short.diff", check=False)
    assert git_says.returncode != 0, "git applies it: not the case this test is about"
    (gv.root / "short.diff").unlink()
    pid = write_proposal(
        gv, [{"op": "modify", "path": path, "base_blob": gv.git("rev-parse", f"HEAD:{path}").stdout.strip()}], diff=diff
    )
    _, data = validate(cli, gv, pid)
    found = data["proposals"][0]["findings"]
    assert data["proposals"][0]["ok"] is False
    assert any(f["code"] == "KP001" and "counts fewer lines than follow it" in f["message"] for f in found), found
    before = gv.read(path)
    r = cli("--vault", gv.root, "apply", pid, "--yes")
    assert r.code == 1 and gv.read(path) == before, r


# 11: one file on some system ------------------------------------------------------------------

NFC, NFD = "caf\u00e9", "cafe\u0301"
SAME_FILE = {
    # (a note the vault holds or None, the paths the proposal creates)
    "nfd-of-an-existing-nfc-note": (f"notes/{NFC}.md", [f"notes/{NFD}.md"]),
    "nfc-and-nfd-in-one-proposal": (None, [f"notes/r{NFC}.md", f"notes/r{NFD}.md"]),
    "trailing-dot-folder": ("notes/alpha.md", ["notes./alpha.md"]),
    "trailing-space-folder": ("notes/alpha.md", ["notes /alpha.md"]),
    "hfs-ignored-joiner": ("notes/alpha.md", ["notes\u200c/alpha.md"]),
}


@pytest.mark.parametrize("name", sorted(SAME_FILE))
def test_paths_one_file_system_takes_for_one_file_are_kp002(gv: GitVault, cli, name: str) -> None:
    """A "create" that is, on macOS or Windows, the existing note (or another create of the same
    proposal) would overwrite it there without a modify's rules."""
    existing, paths = SAME_FILE[name]
    if existing and not (gv.root / existing).exists():
        gv.write(existing, plain_note(mint(), "Existing"))
        gv.commit("the existing note")
    pid = write_proposal(
        gv, [{"op": "create", "path": p} for p in paths], files={p: plain_note(mint(), "New") for p in paths}
    )
    _, data = validate(cli, gv, pid)
    found = data["proposals"][0]["findings"]
    assert any(f["code"] == "KP002" and f["path"] == paths[-1] for f in found), found


def test_a_folder_is_looked_at_once_per_state_and_a_symlinked_one_is_still_found(
    gv: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path rules ask of every change whether a symlink is on its way: the notes of one
    folder share its answer within one state, and a symlinked folder is named for each of them."""
    from curator.settings import Settings
    from curator.validator.state import RepoState
    from curator.vault import paths
    from curator.vault.discover import find_vault

    (gv.root / "real").mkdir()
    (gv.root / "deep" / "er").mkdir(parents=True)
    os.symlink("real", gv.root / "linked")
    asked: list[str] = []
    real_is_link = paths._is_link

    def counting(full: str) -> bool | None:
        asked.append(os.path.relpath(full, gv.root))
        return real_is_link(full)

    monkeypatch.setattr(paths, "_is_link", counting)
    vault = find_vault(str(gv.root))
    state = RepoState(vault, Settings())
    notes = [f"deep/er/n{i}.md" for i in range(50)]
    assert [state.symlink_on_path(p) for p in notes] == [None] * 50
    assert [state.symlink_on_path(f"linked/n{i}.md") for i in range(3)] == ["linked"] * 3
    assert state.symlink_on_path("missing/n.md") is None
    assert sorted(asked) == sorted(["deep", "deep/er", *notes, "linked", "missing"])
    # Another state looks again: a folder made a symlink since is found.
    (gv.root / "deep" / "er").rename(gv.root / "moved")
    os.symlink("../moved", gv.root / "deep" / "er")
    assert RepoState(vault, Settings()).symlink_on_path("deep/er/n0.md") == "deep/er"


def test_a_folder_is_asked_once_per_state_whether_it_is_a_submodule(
    gv: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from curator.settings import Settings
    from curator.validator.state import RepoState
    from curator.vault.discover import find_vault

    (gv.root / "deep" / "er").mkdir(parents=True)
    (gv.root / "sub" / ".git").mkdir(parents=True)
    state = RepoState(find_vault(str(gv.root)), Settings())
    asked: list[tuple[str, bool]] = []
    real = RepoState._is_gitlink

    def counting(self: RepoState, prefix: str, folder: bool) -> bool:
        asked.append((prefix, folder))
        return real(self, prefix, folder)

    monkeypatch.setattr(RepoState, "_is_gitlink", counting)
    notes = [f"deep/er/n{i}.md" for i in range(50)]
    assert [state.gitlink_on_path(p) for p in notes] == [None] * 50
    assert [state.gitlink_on_path(f"sub/n{i}.md") for i in range(3)] == ["sub"] * 3
    assert sorted(asked) == sorted([("deep", True), ("deep/er", True), *((p, False) for p in notes), ("sub", True)])
