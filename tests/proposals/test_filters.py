"""``filters.clean`` is what ``git add`` stores, by libgit2's own filters; bytes libgit2's clean
filters cannot change are returned without asking it for the path's filter list."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.proposals import filters

ATTRIBUTES = (
    "*.md text eol=lf\n",
    "* text eol=crlf\n",
    "* text=auto\n",
    "* ident\n",
    "* text eol=crlf ident\n",
    "* -text\n",
)


def _repo(tmp: Path, attributes: str, autocrlf: str | None) -> pygit2.Repository:
    subprocess.run(["git", "init", "-q", str(tmp)], check=True)
    if autocrlf is not None:
        subprocess.run(["git", "-C", str(tmp), "config", "core.autocrlf", autocrlf], check=True)
    (tmp / ".gitattributes").write_text(attributes, encoding="utf-8")
    return pygit2.Repository(str(tmp))


def _git_add(repo: pygit2.Repository, path: str, data: bytes) -> bytes:
    """What ``git add`` itself stores for ``data`` at ``path``."""
    root = Path(repo.workdir)
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_bytes(data)
    oid = subprocess.run(["git", "-C", str(root), "hash-object", "--path", path, path], capture_output=True, check=True)
    blob = subprocess.run(
        ["git", "-C", str(root), "hash-object", "-w", "--path", path, path], capture_output=True, check=True
    )
    assert blob.stdout == oid.stdout
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "blob", blob.stdout.decode().strip()], capture_output=True, check=True
    ).stdout


@pytest.mark.parametrize("attributes", ATTRIBUTES)
@pytest.mark.parametrize("autocrlf", [None, "true", "input"])
def test_clean_is_what_git_add_stores(tmp_path: Path, attributes: str, autocrlf: str | None) -> None:
    repo = _repo(tmp_path, attributes, autocrlf)
    for data in (b"plain\nlines\n", b"crlf\r\nlines\r\n", b"lone\rcr\n", b"$Id: 0123abcd $\nkept\n", b"$Id$\n", b""):
        assert filters.clean(repo, "notes/n.md", data) == _git_add(repo, "notes/n.md", data), (
            attributes,
            autocrlf,
            data,
        )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.binary(max_size=200).filter(lambda b: b"\0" not in b),
    which=st.sampled_from(ATTRIBUTES),
    autocrlf=st.sampled_from([None, "true", "input"]),
)
def test_clean_agrees_with_libgit2_on_any_bytes(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, which: str, autocrlf: str | None
) -> None:
    """Without NUL bytes: pygit2's ``apply_to_buffer`` reads its input up to the first NUL only."""
    repo = _repo(tmp_path_factory.mktemp("repo"), which, autocrlf)
    assert filters.clean(repo, "n.md", data) == filters._apply(repo, "n.md", data, to_odb=True)


def test_bytes_libgit2_would_not_change_are_not_handed_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a path's filter list reads its attributes: a 6,500-note proposal cleaned every note
    through it. Bytes with no CR and no ``$Id`` need none of it."""
    repo = _repo(tmp_path, "* text eol=crlf ident\n", "true")
    asked: list[str] = []
    real = pygit2.Repository.load_filter_list

    def counting(self: pygit2.Repository, path: str, mode: object) -> object:
        asked.append(path)
        return real(self, path, mode)  # type: ignore[arg-type]

    monkeypatch.setattr(pygit2.Repository, "load_filter_list", counting)
    assert filters.clean(repo, "a.md", b"---\nkp_id: kp:01\n---\nbody\n") == b"---\nkp_id: kp:01\n---\nbody\n"
    assert asked == []
    assert filters.clean(repo, "b.md", b"body\r\n") == b"body\n"
    assert filters.clean(repo, "c.md", b"$Id: 1234 $\n") == b"$Id$\n"
    assert asked == ["b.md", "c.md"]
