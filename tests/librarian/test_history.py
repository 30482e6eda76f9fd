"""When git added each note: one walk, remembered, walked again only for new commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.librarian.history import added_times
from curator.vault import find_vault
from tests.conftest import GitVault, git, make_git_vault


def _commit_at(v: GitVault, when: str, monkeypatch: pytest.MonkeyPatch, message: str = "c") -> None:
    monkeypatch.setenv("GIT_AUTHOR_DATE", when)
    monkeypatch.setenv("GIT_COMMITTER_DATE", when)
    v.commit(message)


T1, T2, T3 = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"
E1, E2, E3 = 1767225600, 1769904000, 1772323200


@pytest.fixture
def history_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write("a.md", "# A\n")
    v.write("notes/b.md", "# B\n")
    _commit_at(v, T1, monkeypatch)
    v.write("a.md", "# A, edited\n")  # an edit is not a creation
    v.write("c.md", "# C\n")
    _commit_at(v, T2, monkeypatch)
    return v


def test_one_walk_finds_the_commit_that_added_each_path(history_vault: GitVault, tmp_path: Path) -> None:
    h = added_times(find_vault(str(history_vault.root)), str(tmp_path / "cache"))
    assert h.added == {"a.md": E1, "notes/b.md": E1, "c.md": E2}
    assert h.walked == 2


def test_the_cache_is_reused_and_extended_by_new_commits_only(
    history_vault: GitVault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = str(tmp_path / "cache")
    added_times(find_vault(str(history_vault.root)), cache)
    again = added_times(find_vault(str(history_vault.root)), cache)
    assert again.walked == 0 and again.added["c.md"] == E2
    history_vault.write("d.md", "# D\n")
    _commit_at(history_vault, T3, monkeypatch)
    later = added_times(find_vault(str(history_vault.root)), cache)
    assert later.walked == 1 and later.added == {"a.md": E1, "notes/b.md": E1, "c.md": E2, "d.md": E3}


def test_a_moved_note_keeps_its_creation_and_a_deleted_one_is_gone(
    history_vault: GitVault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (history_vault.root / "archive").mkdir()
    history_vault.git("mv", "notes/b.md", "archive/b.md")
    history_vault.git("rm", "-q", "c.md")
    _commit_at(history_vault, T3, monkeypatch)
    h = added_times(find_vault(str(history_vault.root)), str(tmp_path / "cache"))
    assert h.added == {"a.md": E1, "archive/b.md": E1}


def test_rewritten_history_is_walked_again(
    history_vault: GitVault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = str(tmp_path / "cache")
    added_times(find_vault(str(history_vault.root)), cache)
    history_vault.git("reset", "-q", "--hard", "HEAD~1")  # c.md was never added, as far as HEAD knows
    history_vault.write("e.md", "# E\n")
    _commit_at(history_vault, T3, monkeypatch)
    h = added_times(find_vault(str(history_vault.root)), cache)
    assert h.walked == 2 and h.added == {"a.md": E1, "notes/b.md": E1, "e.md": E3}


def test_a_merge_dates_a_note_by_the_side_branch_commit(
    history_vault: GitVault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history_vault.git("checkout", "-q", "-b", "side")
    history_vault.write("side.md", "# Side\n")
    _commit_at(history_vault, T2, monkeypatch, "side")
    history_vault.git("checkout", "-q", "main")
    monkeypatch.setenv("GIT_AUTHOR_DATE", T3)
    monkeypatch.setenv("GIT_COMMITTER_DATE", T3)
    history_vault.git("merge", "-q", "--no-ff", "-m", "merge", "side")
    h = added_times(find_vault(str(history_vault.root)), str(tmp_path / "cache"))
    assert h.added["side.md"] == E2


def test_a_shallow_clone_is_flagged(history_vault: GitVault, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{history_vault.root}", str(clone))
    h = added_times(find_vault(str(clone)), None)
    assert h.shallow and h.added == {"a.md": E2, "notes/b.md": E2, "c.md": E2}


def test_a_repository_without_commits(tmp_path: Path) -> None:
    v = make_git_vault(tmp_path / "empty")
    assert added_times(find_vault(str(v.root)), None).added == {}


def test_a_note_moved_and_edited_in_one_commit_keeps_its_creation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = make_git_vault(tmp_path / "v")
    body = "".join(f"Line {n} of a note long enough for git to see it as the same file.\n" for n in range(20))
    v.write("inbox/idea.md", "# Idea\n" + body)
    v.write("other.md", "# Other\n")
    _commit_at(v, T1, monkeypatch)
    (v.root / "inbox" / "idea.md").unlink()
    v.write("projects/idea.md", "# Idea, filed\n" + body)
    v.write("fresh.md", "# Fresh\n")
    _commit_at(v, T2, monkeypatch)
    h = added_times(find_vault(str(v.root)), None)
    assert h.added == {"projects/idea.md": E1, "other.md": E1, "fresh.md": E2}
