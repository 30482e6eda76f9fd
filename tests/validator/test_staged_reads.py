"""The staged view reads unchanged notes from the work tree, and still answers for the staged blobs.

Finding a new note's ``kp_id`` among 3,000 others used to inflate every note's blob.
Now a note whose work-tree file libgit2 finds unchanged (its stat cache, racy git
and all) is read from the disk. Each attack below makes the work tree differ from
the index while looking the same to a careless check; the answer must stay the
commit's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.validator.state import RepoState
from tests.conftest import ROOT, GitVault, make_git_vault, note

KP_NEW = "kp:01J000000000000000000000NW"
KP_DUP = "kp:01J000000000000000000000D1"
KP_OTHER = "kp:01J000000000000000000000D2"  # as long as KP_DUP: the file keeps its size


@pytest.fixture
def many(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    for i in range(12):
        v.write(f"notes/n{i:02}.md", note(f"kp:01J0000000000000000000N{i:03}", f"N{i}"))
    v.commit()
    return v


def _inflated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = RepoState.blob

    def spy(self: RepoState, oid: str) -> bytes | None:
        seen.append(oid)
        return real(self, oid)

    monkeypatch.setattr(RepoState, "blob", spy)
    return seen


def test_a_new_note_inflates_no_unchanged_note(many: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    committed = set(many.git("ls-tree", "-r", "--format=%(objectname)", "HEAD", "notes").stdout.split())
    many.write("notes/new.md", note(KP_NEW, "New"))
    many.git("add", "notes/new.md")
    seen = _inflated(monkeypatch)
    r = cli("--vault", many.root, "validate", "--staged")
    assert r.code == 0, r
    assert not committed & set(seen), "unchanged notes are read from the work tree"
    # ... and still found: a new note taking an unchanged note's id
    many.write("notes/dup.md", note("kp:01J0000000000000000000N004", "Dup"))
    many.git("add", "notes/dup.md")
    r = cli("--vault", many.root, "validate", "--staged")
    assert r.code == 1 and "already used by notes/n04.md" in r.out, r


def _stage_pair(v: GitVault) -> os.stat_result:
    """Two new notes staged with the same id; the work tree's copy of the first then says another."""
    v.write("notes/first.md", note(KP_DUP, "First"))
    v.write("notes/second.md", note(KP_DUP, "Second"))
    v.git("add", "notes/first.md", "notes/second.md")
    return os.stat(v.root / "notes/first.md")


def _rewrite_keeping_size_and_mtime(v: GitVault, before: os.stat_result) -> None:
    path = v.root / "notes/first.md"
    with open(path, "r+b") as f:  # in place: same inode
        f.write(note(KP_OTHER, "First").encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def _duplicate_found(v: GitVault, cli) -> None:
    r = cli("--vault", v.root, "validate", "--staged")
    assert r.code == 1, r
    assert f"KP006 notes/second.md: kp_id {KP_DUP} is already used by notes/first.md" in r.out + r.err, r


def test_same_size_and_mtime_do_not_pass_for_the_staged_bytes(many: GitVault, cli) -> None:
    _rewrite_keeping_size_and_mtime(many, _stage_pair(many))
    _duplicate_found(many, cli)  # the ctime moved: libgit2 hashed the file and saw it differ


def test_without_trusted_ctimes_nothing_is_read_from_the_work_tree(many: GitVault, cli) -> None:
    many.git("config", "core.trustctime", "false")
    _rewrite_keeping_size_and_mtime(many, _stage_pair(many))
    from curator.validator.index_file import staged_index
    from curator.vault import find_vault

    candidate = staged_index(find_vault(str(many.root)))
    # libgit2 is fooled now (as `git status` would be) ...
    assert "notes/first.md" in candidate.unchanged_in_worktree()
    assert candidate.same_on_disk == frozenset()  # ... so its answer is not used
    _duplicate_found(many, cli)


def test_a_racily_clean_entry_is_hashed(many: GitVault) -> None:
    """The file changed in the timestamp tick the index was written in: its stat data proves nothing."""
    many.git("config", "core.trustctime", "false")  # leave the racy rule alone to catch it
    before = _stage_pair(many)
    _rewrite_keeping_size_and_mtime(many, before)
    index = many.root / ".git" / "index"
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns))  # index and file: the same tick
    from curator.validator.index_file import staged_index
    from curator.vault import find_vault

    unchanged = staged_index(find_vault(str(many.root))).unchanged_in_worktree()
    assert "notes/first.md" not in unchanged
    assert "notes/second.md" in unchanged  # racily clean too, but hashed and found equal
    assert "notes/n00.md" in unchanged


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree"])
def test_entries_git_does_not_stat_are_read_from_their_blobs(many: GitVault, cli, flag: str) -> None:
    _stage_pair(many)
    many.git("update-index", flag, "notes/first.md")
    many.write("notes/first.md", note(KP_OTHER, "First, and longer than it was"))
    _duplicate_found(many, cli)
    (many.root / "notes/first.md").unlink()  # a sparse checkout leaves it out altogether
    _duplicate_found(many, cli)


def test_git_commit_all_reads_its_own_index(many: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """GIT_INDEX_FILE (what `git commit -a` and `git commit PATH` hand the hook) is diffed, not .git/index."""
    import shutil

    _stage_pair(many)
    other = many.root / ".git" / "next-index.lock"
    shutil.copyfile(many.root / ".git" / "index", other)
    many.git("reset", "-q")  # the repository's index no longer has them
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    _duplicate_found(many, cli)
    many.write("notes/first.md", note(KP_OTHER, "First"))
    _duplicate_found(many, cli)


def test_a_crlf_work_tree_has_its_blobs_ids(tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write(".gitattributes", "*.md text eol=crlf\n")
    v.write("notes/old.md", note(KP_DUP, "Old").replace("\n", "\r\n"))
    v.commit()
    assert b"\r\n" not in v.git("cat-file", "blob", "HEAD:notes/old.md").stdout.encode()
    v.write("notes/new.md", note(KP_DUP, "New").replace("\n", "\r\n"))
    v.git("add", "notes/new.md")
    seen = _inflated(monkeypatch)
    r = cli("--vault", v.root, "validate", "--staged")
    assert r.code == 1 and f"kp_id {KP_DUP} is already used by notes/old.md" in r.out, r
    old_blob = v.git("rev-parse", "HEAD:notes/old.md").stdout.strip()
    assert seen.count(old_blob) == 1  # read from the disk, confirmed from its blob


def test_a_new_note_marked_assume_unchanged_is_still_checked(many: GitVault, cli) -> None:
    """libgit2's tree-to-index diff leaves out a new entry marked assume-unchanged; `git commit` does not."""
    many.write("notes/dup.md", note("kp:01J0000000000000000000N004", "Dup"))
    many.git("add", "notes/dup.md")
    many.git("update-index", "--assume-unchanged", "notes/dup.md")
    assert many.git("diff", "--cached", "--name-only").stdout == "notes/dup.md\n"
    r = cli("--vault", many.root, "validate", "--staged")
    assert (
        r.code == 1
        and "KP006 notes/dup.md: kp_id kp:01J0000000000000000000N004 is already used by notes/n04.md" in r.out
    ), r


def test_the_kept_kp_id_map_follows_head_and_never_answers_alone(many: GitVault, cli) -> None:
    """HEAD's kp_ids are kept in the git directory between commits and brought forward by a tree
    diff; a note the map says owns an id is confirmed from its blob."""
    import json

    kept = many.root / ".git" / "curator-kp-ids.json"
    many.write("notes/new.md", note(KP_NEW, "New"))
    many.git("add", "notes/new.md")
    assert cli("--vault", many.root, "validate", "--staged").code == 0
    head_tree = many.git("rev-parse", "HEAD^{tree}").stdout.strip()
    data = json.loads(kept.read_text())
    assert data["tree"] == head_tree and data["notes"]["notes/n04.md"] == "kp:01J0000000000000000000N004"
    many.commit("the new note")  # HEAD moves: the kept map is one commit behind
    many.write("notes/again.md", note(KP_NEW, "Again"))
    many.git("add", "notes/again.md")
    r = cli("--vault", many.root, "validate", "--staged")
    assert r.code == 1 and f"kp_id {KP_NEW} is already used by notes/new.md" in r.out, r
    assert json.loads(kept.read_text())["tree"] == many.git("rev-parse", "HEAD^{tree}").stdout.strip()
    many.git("rm", "-q", "--cached", "notes/again.md")
    # A map that names an owner the blobs do not bear out reports nothing.
    data = json.loads(kept.read_text())
    data["notes"]["notes/n05.md"] = KP_DUP
    kept.write_text(json.dumps(data))
    many.write("notes/fresh.md", note(KP_DUP, "Fresh"))
    many.git("add", "notes/fresh.md")
    r = cli("--vault", many.root, "validate", "--staged")
    assert r.code == 0, r
    kept.write_text("{not json")  # unreadable: rebuilt
    many.write("notes/n05.md", note(KP_DUP, "Fresh"))  # and now a real owner, staged
    many.git("add", "notes/n05.md")
    r = cli("--vault", many.root, "validate", "--staged")
    assert r.code == 1 and f"KP006 notes/fresh.md: kp_id {KP_DUP} is already used by notes/n05.md" in r.out, r
