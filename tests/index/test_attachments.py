"""Attachments in the index: PDFs and Word files made here, put in a real git vault, indexed
by the real CLI; each hit cites the page its text is on, unchanged files are never read
again, a killed run is finished by the next, and a hostile file is named, never fatal."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from curator.attachments import sandbox
from tests.conftest import GitVault, make_git_vault, note, run_process

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from tests.attachments import documents

ON = '\nattachments:\n  include: ["*.pdf", "*.docx"]\n'
PAGES = [
    "Lighthouse lamps burned whale oil until the paraffin came.",
    "Fresnel lenses bend the beam of a lighthouse toward ships at sea.",
    "Keepers trimmed wicks at night and logged the weather each hour.",
]


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")


@pytest.fixture
def shelf(tmp_path: Path) -> GitVault:
    """A vault with a three-page PDF, a two-column page, a Chinese PDF, a scan, a Word file,
    a note that links to a page of the PDF, and attachments switched on."""
    v = make_git_vault(tmp_path / "shelf")
    v.write(".kp/config.yaml", ON)
    (v.root / "papers").mkdir()
    documents.text_pdf(
        v.root / "papers/lights.pdf", PAGES, title="Lighthouses", outline=[(0, 1, "Oil"), (1, 1, "Optics")]
    )
    documents.two_column_pdf(
        v.root / "papers/columns.pdf",
        "Glaciers carve valleys over many thousands of years. " * 4,
        "Moraines mark where the ice once stood at its furthest. " * 4,
    )
    documents.cjk_pdf(v.root / "papers/zh.pdf", ["知识管理的第一页", "检索增强生成在第二页"])
    documents.scan_pdf(v.root / "papers/scan.pdf")
    documents.docx(v.root / "report.docx", [("h1", "Survey"), ("p", "The tide gauge drifted by four millimetres.")])
    v.write("reading.md", note("kp:01J00000000000000000000READ", "Reading", "Optics: ![[lights.pdf#page=2]]\n"))
    v.commit()
    return v


def _index(cli, root: Path) -> dict:  # type: ignore[no-untyped-def]
    r = cli("--vault", root, "--json", "index")
    assert r.code == 0, r
    return json.loads(r.out)


def _search(cli, root: Path, query: str) -> list[dict]:  # type: ignore[no-untyped-def]
    r = cli("--vault", root, "--json", "search", query, "--mode", "lexical")
    assert r.code == 0, r
    return json.loads(r.out)["hits"]


def test_each_hit_cites_the_page_its_text_is_on(shelf: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    got = _index(cli, shelf.root)
    skipped = {s["path"]: s["reason"] for s in got["skipped"]}
    assert skipped["papers/scan.pdf"] == "no text layer (a scan or pictures of text; Curator does no OCR)"
    for page, words in ((1, "whale oil paraffin"), (2, "fresnel lenses"), (3, "keepers trimmed wicks")):
        (hit,) = [h for h in _search(cli, shelf.root, words) if h["path"] == "papers/lights.pdf"][:1]
        assert hit["cite"] == f"papers/lights.pdf#page={page}" and hit["page"] == page
        # The page the cite names holds the words: read it as an agent would follow the cite.
        r = cli("--vault", shelf.root, "--json", "read", hit["cite"])
        text = " ".join(line["text"] for line in json.loads(r.out)["lines"])
        assert PAGES[page - 1] in text
    (hit,) = _search(cli, shelf.root, "fresnel")[:1]
    assert hit["breadcrumb"] == "Lighthouses › Optics"
    (zh,) = _search(cli, shelf.root, "检索增强")[:1]
    assert zh["cite"] == "papers/zh.pdf#page=2"
    (col,) = _search(cli, shelf.root, "moraines")[:1]
    assert col["cite"] == "papers/columns.pdf#page=1"
    (word,) = _search(cli, shelf.root, "tide gauge")[:1]
    assert word["cite"] == "report.docx:1-3" and word["page"] is None
    shown = cli("--vault", shelf.root, "search", "fresnel", "--mode", "lexical").out
    assert "papers/lights.pdf#page=2" in shown


def test_read_pages_through_the_text_and_relate_names_the_notes_that_embed_it(shelf: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    _index(cli, shelf.root)
    r = cli("--vault", shelf.root, "read", "papers/lights.pdf", "--page", "2")
    assert r.code == 0 and r.out.splitlines()[0] == "papers/lights.pdf  Lighthouses  page 2/3"
    assert re.search(r"^\d+  Fresnel lenses", r.out, re.M)
    assert cli("--vault", shelf.root, "read", "papers/lights.pdf", "--page", "4").err.strip().endswith("has 3 page(s)")
    refused = cli("--vault", shelf.root, "read", "papers/scan.pdf")
    assert refused.code == 2 and "no text layer" in refused.err
    rel = json.loads(cli("--vault", shelf.root, "--json", "relate", "papers/lights.pdf").out)
    (back,) = rel["backlinks"]
    assert (back["path"], back["line"], back["anchor"]) == ("reading.md", 7, "page=2")
    assert (
        back["target_line"]
        == json.loads(cli("--vault", shelf.root, "--json", "read", "papers/lights.pdf#page=2").out)["start_line"]
    )
    # The note's own relate does not call its link to the PDF unresolved.
    assert json.loads(cli("--vault", shelf.root, "--json", "relate", "reading.md").out)["unresolved"] == []


def test_unchanged_attachments_are_never_read_again(shelf: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    calls: list[int] = []
    real = sandbox.extract_many
    monkeypatch.setattr(
        sandbox, "extract_many", lambda work, limits: calls.extend([1] * len(work)) or real(work, limits)
    )
    first = _index(cli, shelf.root)
    # Four PDFs and a Word file read; the scan refused, the others indexed beside the note.
    assert len(calls) == 5 and first["indexed"] == 5
    calls.clear()
    assert _index(cli, shelf.root)["unchanged"] == 5 and calls == []
    # A change elsewhere takes the full path: still no attachment read, the scan's refusal kept.
    shelf.write("other.md", note("kp:01J00000000000000000000OTHR", "Other", "Text."))
    again = _index(cli, shelf.root)
    assert calls == [] and {s["path"] for s in again["skipped"]} >= {"papers/scan.pdf"}
    # Touched, not edited: the bytes are hashed, not extracted.
    os.utime(shelf.root / "papers/lights.pdf", ns=(1, 1))
    assert _index(cli, shelf.root)["indexed"] == 0 and calls == []
    documents.text_pdf(shelf.root / "papers/lights.pdf", ["Rewritten about foghorns."])
    changed = _index(cli, shelf.root)
    assert changed["indexed"] == 1 and len(calls) == 1
    assert _search(cli, shelf.root, "foghorns")[0]["cite"] == "papers/lights.pdf#page=1"
    (shelf.root / "papers/lights.pdf").unlink()
    assert _index(cli, shelf.root)["removed"] == 1 and _search(cli, shelf.root, "foghorns") == []


def test_attachments_are_skipped_and_named_until_switched_on(shelf: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    config = shelf.root / ".kp/config.yaml"
    config.write_text("")
    off = _index(cli, shelf.root)
    skipped = {s["path"]: s["reason"] for s in off["skipped"]}
    assert skipped["papers/lights.pdf"] == "not a note (outside notes.include)" and off["indexed"] == 1
    config.write_text(config.read_text() + ON)
    on = _index(cli, shelf.root)
    # The four readable attachments, and the note read again for its link to one of them.
    assert on["indexed"] == 5 and _search(cli, shelf.root, "fresnel")[0]["cite"] == "papers/lights.pdf#page=2"


def test_limits_from_the_config_name_each_file_they_keep_out(shelf: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    (shelf.root / "papers/bomb.pdf").write_bytes(documents.bomb_pdf(64 * 1024 * 1024))
    (shelf.root / "papers/many.pdf").write_bytes(documents.many_pages_pdf(12))
    (shelf.root / "papers/garbage.pdf").write_bytes(documents.garbage_pdf())
    config = shelf.root / ".kp/config.yaml"
    config.write_text(config.read_text() + "  max_pages: 10\n  max_seconds: 1\n  max_bytes: 2000000\n")
    (shelf.root / "papers/huge.pdf").write_bytes(documents.hand_pdf() + b"%" * 2_000_000)
    got = _index(cli, shelf.root)
    skipped = {s["path"]: s["reason"] for s in got["skipped"]}
    assert skipped["papers/bomb.pdf"] == "needed more than 1 s of CPU (attachments.max_seconds); stopped"
    assert skipped["papers/many.pdf"] == "12 pages; attachments.max_pages is 10"
    assert skipped["papers/garbage.pdf"] == "not a readable PDF (data format error)"
    assert skipped["papers/huge.pdf"] == "too large (1.9 MB; attachments.max_bytes is 1.9 MB)"
    assert got["indexed"] == 5  # everything else


def test_a_killed_run_is_finished_by_the_next(tmp_path: Path) -> None:
    v = make_git_vault(tmp_path / "many")
    v.write(".kp/config.yaml", ON)
    v.commit()
    # A serving epoch to reconcile into (a first build is swapped in only when whole).
    assert run_process("--vault", v.root, "index", env={"CURATOR_EMBEDDER": "none"}).returncode == 0
    for n in range(11):
        (v.root / f"p{n:02}.pdf").write_bytes(documents.hand_pdf(f"lamp page number {n}"))
    v.commit()
    env = {"CURATOR_EMBEDDER": "none", "CURATOR_FAULT": "attachments:after-batch"}
    killed = run_process("--vault", v.root, "index", env=env)
    assert killed.returncode == 137
    done = run_process("--vault", v.root, "--json", "index", env={"CURATOR_EMBEDDER": "none"})
    got = json.loads(done.stdout)
    # The first batch (eight) was kept; the next run read the other three and nothing twice.
    assert (got["indexed"], got["unchanged"]) == (3, 8), done.stdout + done.stderr
    assert got["passages"] == 11


def test_source_named_attachment_is_refused(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    config = vault.root / ".kp/config.yaml"
    config.write_text(
        config.read_text().replace("sources: []", "sources: [{name: attachment, type: jsonl, path: x.jsonl}]")
    )
    r = cli("--vault", vault.root, "index")
    assert r.code == 2 and "sources[0].name 'attachment' is not a source name" in r.err


def test_a_secret_in_a_pdf_never_reaches_a_remote_embedder(
    tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from tests.embedders.fakeserver import EmbeddingServer, use_openai

    v = make_git_vault(tmp_path / "remote")
    v.write(".kp/config.yaml", ON)
    documents.text_pdf(
        v.root / "ops.pdf",
        ["The deploy runs nightly.", "Maps key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI in the config."],
    )
    v.commit()
    with EmbeddingServer(dims=8) as srv:
        use_openai(monkeypatch, srv.port)
        assert cli("--vault", v.root, "index").code == 0
        sent = "\n".join(srv.texts)
    assert "deploy runs nightly" in sent  # the clean page is embedded
    assert "AIzaSy" not in sent
    status = json.loads(cli("--vault", v.root, "--json", "status").out)
    assert status["withheld"]["passages"].get("Google API Key") == 1


def test_an_epoch_without_extraction_in_its_fingerprint_is_rebuilt(shelf: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    """What an older Curator built never held attachments: the next index builds a new epoch."""
    import apsw

    _index(cli, shelf.root)
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (current,) = list(cache.rglob("CURRENT"))
    db = apsw.Connection(str(current.parent / "epochs" / current.read_text().strip()))
    fp = json.loads(db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0])
    del fp["extraction"]
    db.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps(fp),))
    db.close()
    (current.parent / "epochs" / (current.read_text().strip() + ".ok")).unlink()
    got = _index(cli, shelf.root)
    assert any("attachment extraction (none)" in w and "built a new epoch" in w for w in got["warnings"]), got
    assert _search(cli, shelf.root, "fresnel")[0]["cite"] == "papers/lights.pdf#page=2"


def test_an_indexer_killed_while_a_child_reads_takes_the_child_with_it(tmp_path: Path) -> None:
    """SIGKILL to `curator index` alone, while its sandboxed child computes on a bomb: the child
    dies with it (no orphan reads on for nobody), and the next index finishes the rest."""
    import signal
    import subprocess
    import sys
    import time

    from tests.index.test_interrupt import _children, _gone, _wait_for

    v = make_git_vault(tmp_path / "bomb")
    # A bomb whose reading costs several times the CPU limit on a fast machine (pdfium's cost
    # grows faster than the inflated size), and memory enough that the CPU limit stops it first.
    v.write(".kp/config.yaml", ON + "  max_seconds: 2\n  max_memory_mb: 4096\n")
    v.commit()
    env = {**os.environ, "CURATOR_EMBEDDER": "none"}
    assert run_process("--vault", v.root, "index", env=env).returncode == 0
    (v.root / "a-bomb.pdf").write_bytes(documents.bomb_pdf(128 * 1024 * 1024))
    documents.text_pdf(v.root / "b-lamps.pdf", ["Lamps and wicks."])
    v.commit()
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(v.root), "index"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(lambda: len(_children(proc.pid)) >= 1)
        children = _children(proc.pid)
        time.sleep(0.2)  # let the child start reading
        assert proc.poll() is None, "it finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    _wait_for(lambda: all(_gone(c) for c in children), timeout=10)
    done = run_process("--vault", v.root, "--json", "index", env={**env, "CURATOR_EMBEDDER": "none"})
    got = json.loads(done.stdout)
    assert got["indexed"] == 1, done.stdout + done.stderr
    skipped = {s["path"]: s["reason"] for s in got["skipped"]}
    assert skipped["a-bomb.pdf"] == "needed more than 2 s of CPU (attachments.max_seconds); stopped"


def test_a_pdfs_language_is_told_by_its_text(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """A PDF has no frontmatter to say its language: its text tells it, and its words are
    stemmed in it (German ``Leuchttürme`` is found by ``Leuchtturm``)."""
    v = make_git_vault(tmp_path / "de")
    v.write(".kp/config.yaml", ON)
    german = (
        "Die Leuchttürme an der Nordseeküste wurden im neunzehnten Jahrhundert mit Petroleumlampen "
        "betrieben, und die Wärter mussten die Dochte jede Nacht kürzen und die Linsen putzen."
    )
    documents.text_pdf(v.root / "leuchtturm.pdf", [german])
    v.commit()
    assert cli("--vault", v.root, "index").code == 0
    import apsw

    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (current,) = list(cache.rglob("CURRENT"))
    db = apsw.Connection(str(current.parent / "epochs" / current.read_text().strip()))
    assert db.execute("SELECT lang FROM documents WHERE path = 'leuchtturm.pdf'").fetchone()[0] == "de"
    assert _search(cli, v.root, "Leuchtturm")[0]["cite"] == "leuchtturm.pdf#page=1"
