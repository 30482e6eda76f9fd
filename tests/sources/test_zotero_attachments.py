"""A Zotero item's PDF in Zotero's storage folder is searchable with the item, through the same
extractor port as the vault's attachments: a hit in it cites ``zotero:KEY#page=N``, the page
the text is on, and ``curator read zotero:KEY#page=N`` shows that page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.sources.base import Problems
from curator.sources.zotero import ZoteroSource
from tests.conftest import GitVault, make_git_vault
from tests.sources.zotero_library import ZoteroLibrary

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from tests.attachments import documents

PAGES = ["Sea ice thins each summer.", "Albedo feedback speeds the melt of the Arctic.", "Models agree on the trend."]


@pytest.fixture
def library(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    path = tmp_path / "Zotero" / "zotero.sqlite"
    path.parent.mkdir()
    lib = ZoteroLibrary(path)
    keys = {
        "ice": lib.add_item("journalArticle", {"title": "Arctic sea ice", "abstractNote": "A review of the ice."}),
        "scan": lib.add_item("journalArticle", {"title": "A scanned paper"}),
        "gone": lib.add_item("journalArticle", {"title": "Not downloaded"}),
        "bare": lib.add_item("book", {"title": "No attachment"}),
    }
    for name in ("ice", "scan", "gone"):
        keys[f"{name}-pdf"] = lib.add_attachment(keys[name], "Full Text PDF")
    lib.close()
    storage = path.parent / "storage"
    documents.text_pdf(_pdf(storage, keys["ice-pdf"]), PAGES, outline=[(1, 1, "Feedbacks")])
    documents.scan_pdf(_pdf(storage, keys["scan-pdf"]))
    return path, keys


def _pdf(storage: Path, key: str) -> Path:
    (storage / key).mkdir(parents=True)
    return storage / key / "paper.pdf"


def test_the_adapter_names_each_items_stored_pdf_only_when_asked(library: tuple[Path, dict[str, str]]) -> None:
    path, keys = library
    problems = Problems()
    items = {i.ref: i for i in ZoteroSource("z", str(path), attachments=True).read(problems)}
    ice = items[f"zotero:{keys['ice']}"]
    assert [Path(f[0]) for f in ice.files] == [path.parent / "storage" / keys["ice-pdf"] / "paper.pdf"]
    assert items[f"zotero:{keys['bare']}"].files == ()
    assert items[f"zotero:{keys['gone']}"].files == ()
    assert problems.warnings == [
        f"1 item(s) have a PDF that is not in {path.parent / 'storage'}: indexed without its text"
    ]
    plain = {i.ref: i for i in ZoteroSource("z", str(path)).read(Problems())}
    assert all(i.files == () for i in plain.values())
    # Without files an item's token is what it always was: switching the option off re-reads nothing.
    assert plain[f"zotero:{keys['bare']}"].token == items[f"zotero:{keys['bare']}"].token


@pytest.fixture
def vault(tmp_path: Path, library: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", f"sources:\n  - {{name: lib, type: zotero, path: {library[0]}, attachments: true}}\n")
    v.write("index.md", "# Index\n\nReading list.\n")
    v.commit()
    return v


def test_a_hit_in_an_items_pdf_cites_the_item_and_the_page(
    vault: GitVault, library: tuple[Path, dict[str, str]], cli
) -> None:  # type: ignore[no-untyped-def]
    keys = library[1]
    assert cli("--vault", vault.root, "index").code == 0
    r = cli("--vault", vault.root, "--json", "search", "albedo feedback", "--mode", "lexical")
    (hit,) = json.loads(r.out)["hits"][:1]
    ref = f"zotero:{keys['ice']}"
    assert (hit["cite"], hit["page"], hit["breadcrumb"]) == (f"{ref}#page=2", 2, "Arctic sea ice › Feedbacks")
    own = json.loads(cli("--vault", vault.root, "--json", "search", "review of the ice", "--mode", "lexical").out)
    assert own["hits"][0]["cite"] == ref  # the item's own text cites the item
    page = json.loads(cli("--vault", vault.root, "--json", "read", hit["cite"]).out)
    assert (page["page"], page["pages"]) == (2, 3)
    assert [line["text"] for line in page["lines"]] == ["Feedbacks", PAGES[1]]
    # The scan's item is there, searchable by its own text, without the PDF it could not read.
    scan = json.loads(cli("--vault", vault.root, "--json", "search", "scanned paper", "--mode", "lexical").out)
    assert scan["hits"][0]["cite"] == f"zotero:{keys['scan']}"
