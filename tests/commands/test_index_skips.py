"""`curator index` names what it skips, but not the files that are never notes: git's own files
in any folder and the dotfiles at the top of a vault are not news on every run."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import make_git_vault, note


def test_gits_own_files_and_top_dotfiles_are_not_named_documents_are(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("Home.md", note("kp:01J00000000000000000000HOM", "Home"))
    quiet = [".gitattributes", ".gitignore", ".editorconfig", "Daily/.gitkeep", "Projects/sub/.gitignore"]
    named = ["Attachments/paper.pdf", "Attachments/report.docx", "Attachments/photo.png", "Projects/.env.example"]
    for path in [*quiet, *named]:
        v.write(path, "x\n")
    v.commit()
    r = cli("--vault", v.root, "index")
    assert r.code == 0, r
    said = [line for line in r.out.splitlines() if line.startswith("skipped ")]
    assert said == [f"skipped {p}: not a note (outside notes.include)" for p in sorted(named)], r.out
    # Scripts still get every skip, with its reason.
    data = json.loads(cli("--vault", v.root, "--json", "index").out)
    assert {s["path"] for s in data["skipped"]} == {*quiet, *named}


def test_excluded_files_are_named_by_the_folder_they_share(tmp_path: Path, cli) -> None:
    """A vault whose notes all live under one folder: what notes.exclude keeps out is named by
    the folder it is in (docs/.github/), not by the folder holding every note (docs/)."""
    v = make_git_vault(tmp_path / "vault")
    v.write("docs/guide.md", note("kp:01J0000000000000000000GUID", "Guide"))
    v.write("docs/.github/issue.md", "# Issue template\n")
    v.write("docs/.github/workflows/notes.md", "# Workflow notes\n")
    v.commit("docs")
    out = cli("--vault", v.root, "index").out
    assert "skipped 2 files in docs/.github/: excluded by notes.exclude" in out, out


def test_many_files_that_are_not_notes_are_counted_by_kind(tmp_path: Path, cli) -> None:
    """An Obsidian vault keeps hundreds of images beside its notes: one line counts them, not one
    line each on every run; --json still lists every one."""
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("Home.md", note("kp:01J00000000000000000000HOM", "Home"))
    others = [f"Attachments/img{i}.png" for i in range(30)] + [f"css/s{i}.css" for i in range(5)] + ["data/README"]
    for path in others:
        v.write(path, "x\n")
    v.write("docs/.github/issue.md", "# Issue template\n")
    v.commit()
    r = cli("--vault", v.root, "index")
    said = [line for line in r.out.splitlines() if line.startswith("skipped ")]
    assert said == [
        "skipped 36 files: not a note (outside notes.include): 30 .png, 5 .css, 1 (no extension) (--json lists each)",
        "skipped docs/.github/issue.md: excluded by notes.exclude",
    ], r.out
    data = json.loads(cli("--vault", v.root, "--json", "index").out)
    assert {s["path"] for s in data["skipped"]} >= set(others)


def test_files_a_pattern_keeps_out_of_many_folders_are_counted_not_named_folder_by_folder(tmp_path: Path, cli) -> None:
    """notes.exclude [headings.txt, filenames.txt] on a vault of 12 language folders: one line, and
    no line that reads as a whole folder kept out (`skipped de/: excluded`)."""
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\nnotes:\n  exclude: [headings.txt, filenames.txt]\n")
    langs = ["de", "en", "es", "fr", "it", "ja", "ko", "pt", "ru", "tr", "uk", "zh"]
    for lang in langs:
        v.write(f"{lang}/Home.md", "# Home\n")
        v.write(f"{lang}/headings.txt", "Home\n")
        v.write(f"{lang}/filenames.txt", "Home\n")
    v.write("extra/headings.txt", "x\n")
    v.commit()
    r = cli("--vault", v.root, "index")
    said = [line for line in r.out.splitlines() if line.startswith("skipped ")]
    assert said == [
        "skipped 24 files in 12 folders: excluded by notes.exclude (--json lists each)",
        "skipped extra/headings.txt: excluded by notes.exclude",
    ], r.out
