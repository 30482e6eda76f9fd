"""Bringing the index up to date before a read: one ``reconcile_if_stale`` for every surface, its
notices told apart by their level, never by their text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from curator.commands.app import App
from curator.index.serving import reconcile_if_stale
from curator.mcp.server import Reconciler
from curator.output import Notice
from tests.conftest import GitVault

# A note named like the note a reconcile leaves, with far more passages than notes have: the
# warning that names it starts with the note's text.
NAME = "reconciled first.md"
LOG = "# Server log\n\n" + "\n\n".join(f"12:00 INFO worker {i} handled request {i} " * 20 for i in range(400)) + "\n"


@pytest.fixture(autouse=True)
def _no_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")


def _indexed(vault: GitVault, cli) -> App:  # type: ignore[no-untyped-def]
    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    vault.write(NAME, LOG)
    return App(vault_arg=str(vault.root))


def test_a_reconcile_says_what_it_did_as_a_note_and_what_is_wrong_as_a_warning(vault: GitVault, cli) -> None:
    app = _indexed(vault, cli)
    notices = reconcile_if_stale(*app.place())
    assert [n.level for n in notices] == ["warning", "note"]
    assert notices[0].text.startswith(f"{NAME} makes 400 passages")
    assert notices[1] == Notice("reconciled first: 1 indexed, 0 removed", "note")
    assert reconcile_if_stale(*app.place()) == []  # nothing changed since: a stat walk, nothing said


def test_search_prints_a_warning_as_a_warning_whatever_its_text(vault: GitVault, cli) -> None:
    _indexed(vault, cli)
    r = cli("--vault", vault.root, "search", "worker", "--mode", "lexical")
    assert r.code == 0, r
    lines = r.err.splitlines()
    assert lines[0].startswith(f"curator: warning: {NAME} makes 400 passages")
    assert lines[1:] == ["reconciled first: 1 indexed, 0 removed"]
    r = cli("--vault", vault.root, "--json", "search", "worker", "--mode", "lexical")
    assert r.err == "" and "warnings" not in json.loads(r.out)  # reconciled already: nothing to say


def test_search_json_gives_every_notice_by_its_text(vault: GitVault, cli) -> None:
    _indexed(vault, cli)
    r = cli("--vault", vault.root, "--json", "search", "worker", "--mode", "lexical")
    warnings = json.loads(r.out)["warnings"]
    assert warnings[0].startswith(f"{NAME} makes 400 passages")
    assert warnings[1:] == ["reconciled first: 1 indexed, 0 removed"]


def test_the_mcp_servers_reconciler_keeps_a_warning_whatever_its_text(
    vault: GitVault, cli, capsys: pytest.CaptureFixture[str]
) -> None:
    app = _indexed(vault, cli)
    capsys.readouterr()
    Reconciler(*app.place()).once()
    err = capsys.readouterr().err
    assert err.startswith(f"curator mcp: reconcile: {NAME} makes 400 passages")
    assert "reconciled first: 1 indexed" not in err  # what it did is no news on the server's stderr


def test_a_build_is_announced_before_it_starts_and_its_warnings_come_back(vault: GitVault, tmp_path: Path) -> None:
    vault.write(NAME, LOG)
    app = App(vault_arg=str(vault.root))
    said: list[str] = []
    assert reconcile_if_stale(*app.place()) == []  # no index, no build: the reader says so
    notices = reconcile_if_stale(*app.place(), build=True, announce=said.append)
    assert said == ["no index yet: indexing the vault first"]
    assert [(n.level, n.text.split(" makes ")[0]) for n in notices] == [("warning", NAME)]
    assert reconcile_if_stale(*app.place(), build=True, announce=said.append) == []
    assert said == ["no index yet: indexing the vault first"]


def test_a_read_that_reconciles_leaves_a_backlog_of_vectors_to_curator_index(
    vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """More text waiting for vectors than a few edited notes hold (an interrupted first index, an
    applied adopt): a search reconciles the words and answers; `curator index` embeds the rest.
    Before, the search embedded all of it on the way, minutes on a large vault, saying nothing."""
    from curator.embedders import base

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    monkeypatch.setattr(base, "FEW_CHARS", 10)  # any backlog is more than a few notes' text
    vault.write("new.md", "# Locks\n\nA busy database answers SQLITE_BUSY until the writer is done.\n")

    def pending() -> int:
        r = cli("--vault", vault.root, "--json", "status")
        return int(json.loads(r.out)["pending_embeddings"])

    r = cli("--vault", vault.root, "--json", "search", "busy database")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert "new.md" in [h["path"] for h in out["hits"]], out["hits"]
    assert pending() > 0
    assert any("no vector yet" in w for w in out["warnings"]), out["warnings"]
    app = App(vault_arg=str(vault.root))
    vault.write("new.md", "# Locks\n\nA busy database answers SQLITE_BUSY until the writer is done. Wait.\n")
    reconcile_if_stale(*app.place(), backlog=True)  # the MCP server's reconciler, in the background
    assert pending() == 0


def test_status_of_an_index_whose_first_reconcile_has_not_ended(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    """An epoch serves words before its first reconcile ends (vectors follow): status says so,
    not `reconciled None in 0.00s`."""
    import apsw

    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    epoch = json.loads(cli("--vault", vault.root, "--json", "status").out)["epoch"]
    (path,) = [p for p in Path(os.environ["XDG_CACHE_HOME"]).rglob(f"{epoch}*.sqlite")]
    conn = apsw.Connection(str(path))
    conn.execute("DELETE FROM meta WHERE key IN ('last_reconcile', 'last_reconcile_seconds')")
    conn.close()
    r = cli("--vault", vault.root, "status")
    assert r.code == 0, r
    assert "reconciled not yet to the end: a first index is running or was stopped" in r.out, r.out
    assert "None" not in r.out


def test_an_epoch_an_older_curator_built_is_told_one_way_to_fix_it(vault: GitVault, cli) -> None:
    # an older normalisation (as after an upgrade): `curator index` builds its successor from the
    # config; search used to add "run `curator index rebuild`" beside it
    import apsw

    from curator.index import epoch as epochs
    from curator.locations import default_index_dir

    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    ep = epochs.serving(default_index_dir(str(vault.root)))
    assert ep is not None
    conn = apsw.Connection(ep.path)
    fp = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0])
    fp["normalisation"]["version"] -= 1
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps(fp, sort_keys=True),))
    conn.close()
    for changed in (False, True):  # nothing to reconcile on the way, then a note edited
        if changed:
            vault.write("notes/alpha.md", "# Alpha\n\nEdited.\n")
        r = cli("--vault", vault.root, "search", "alpha", "--mode", "lexical")
        assert r.code == 0, r
        assert r.err.count("built by an older Curator") == 1, r.err
        assert "run `curator index` to rebuild it" in r.err and "index rebuild" not in r.err, r.err
    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    assert cli("--vault", vault.root, "search", "alpha", "--mode", "lexical").err == ""


def test_a_mistyped_embedder_is_said_by_every_read_once(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    monkeypatch.setenv("CURATOR_EMBEDDER", "nne")
    said = "unknown embedder 'nne' (local, openai, ollama or none); the index goes on with none, chunker v2"
    for command in (["search", "alpha"], ["status"], ["ls"]):
        r = cli("--vault", vault.root, *command)
        assert r.code == 0, r
        assert r.err.count(said) == 1, (command, r.err)  # before: search and status said nothing
    vault.write("new.md", "# New\n\nalpha\n")  # a search that reconciles on its way says it once too
    r = cli("--vault", vault.root, "search", "alpha")
    assert r.err.count(said) == 1, r.err
