"""The diff model and its rich rendering: numbers, word highlights, managed regions, untrusted text."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys

from rich.console import Console

from curator.diffview import words
from curator.diffview.lines import Lines
from curator.diffview.model import build
from curator.diffview.richtext import S_ADD_WORD, S_DEL_WORD, S_MANAGED, S_STAND_IN, Renderer, split_rows
from curator.diffview.rows import ADDED, CREATED, DELETED, FILE, HUNK
from curator.diffview.visible import visible
from curator.settings import load
from curator.validator.state import RepoState
from curator.validator.verdict import validate_proposal
from curator.vault.discover import find_vault
from curator.vault.identity import mint
from tests.builders import created, delete, make_proposal, modify
from tests.conftest import GitVault

EXAMPLE_INVALID = "01M8HEE5Z0RZHG7NJCZMDBD2MF"


def _report(v: GitVault, pid: str):  # type: ignore[no-untyped-def]
    from curator.proposals import store

    vault = find_vault(str(v.root))
    return validate_proposal(RepoState(vault, load(vault.root)), store.load(vault.root, pid))


def _model(v: GitVault, pid: str):  # type: ignore[no-untyped-def]
    report = _report(v, pid)
    return build(report.subject.changes, ("curio",))


def _plain(console_text) -> str:  # type: ignore[no-untyped-def]
    return console_text.plain


def test_rows_carry_both_line_numbers_and_pair_changed_lines(vault: GitVault) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second row."))
    model = _model(vault, make_proposal(vault, [c], diff=d))
    kinds = [r.kind for r in model.rows]
    assert kinds[:2] == [FILE, HUNK] and DELETED in kinds and ADDED in kinds
    deleted = next(r for r in model.rows if r.kind == DELETED)
    added = next(r for r in model.rows if r.kind == ADDED)
    assert deleted.text == "Second line." and added.text == "Second row."
    assert deleted.old == added.new == 8 and deleted.new is None and added.old is None
    assert model.rows[deleted.pair] is added
    r = Renderer(model)
    line = r.unified(model.rows.index(added))
    assert line.plain.startswith("      8 ") and line.plain.endswith("+Second row.")
    highlighted = [line.plain[s.start : s.end] for s in line.spans if s.style == S_ADD_WORD]
    assert highlighted == ["row"]
    gone = r.unified(model.rows.index(deleted))
    assert [gone.plain[s.start : s.end] for s in gone.spans if s.style == S_DEL_WORD] == ["line"]


def test_word_spans_skip_unrelated_and_huge_lines() -> None:
    assert words.changed_spans("the quick fox", "the slow fox") == ([(4, 9)], [(4, 8)])
    assert words.changed_spans("abc", "xyz completely different text") is None
    assert words.changed_spans("a" * 5000, "b" * 5000) is None


def test_a_created_note_is_shown_whole_and_a_deletion_is_marked(vault: GitVault) -> None:
    c1, f1 = created("notes/gamma.md", f"---\nkp_id: {mint()}\ntitle: Gamma\n---\n# Gamma\n\nText.\n")
    c2, d2 = delete(vault, "notes/beta.md")
    model = _model(vault, make_proposal(vault, [c1, c2], diff=d2, files=f1))
    heads = [r.text for r in model.rows if r.kind == FILE]
    assert heads == ["notes/gamma.md (new note)", "notes/beta.md (deleted)"]
    new = [r for r in model.rows if r.kind == CREATED]
    assert [r.new for r in new] == list(range(1, 8)) and new[4].text == "# Gamma"
    assert "the whole file is removed" in [r.text for r in model.rows]
    assert all(r.kind == DELETED for r in model.rows[model.files[1].first_row + 3 :])
    text = Renderer(model).unified(model.rows.index(new[4]))
    assert text.plain.endswith("+# Gamma") and len(text.spans) > 1  # markdown colours


def test_managed_region_lines_are_marked(example_vault: GitVault) -> None:
    model = _model(example_vault, EXAMPLE_INVALID)
    added = next(r for r in model.rows if r.kind == ADDED)
    assert added.text == "- [[BM25]] (score 0.49)" and added.managed
    marker = next(r for r in model.rows if "curio:end related" in r.text)
    assert marker.managed
    outside = next(r for r in model.rows if r.text == "## My take")
    assert not outside.managed
    line = Renderer(model).unified(model.rows.index(added))
    assert any(s.style == S_MANAGED for s in line.spans)


def test_untrusted_text_is_never_markup_or_control_sequences(vault: GitVault) -> None:
    evil = "[bold red]x[/] \x1b[2J\x1b]0;owned\x07 \r over \u202egnp.exe"
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", evil))
    pid = make_proposal(vault, [c], diff=d, title="[bold red]x[/] \x1b[31mred")
    report = _report(vault, pid)
    model = build(report.subject.changes, ())
    r = Renderer(model)
    shown = [r.unified(i) for i in range(len(model.rows))]
    added = next(t for t in shown if "[bold red]x[/]" in t.plain)
    assert "\x1b" not in added.plain and "\r" not in added.plain and "\u202e" not in added.plain
    assert "␛[2J" in added.plain and "⟨U+202E⟩" in added.plain and "␍ over" in added.plain
    assert any(s.style == S_STAND_IN for s in added.spans)
    console = Console(record=True, width=200, color_system="truecolor", force_terminal=True)
    from curator.diffview.console import print_proposal

    print_proposal(report, (), console)
    out = console.export_text(styles=False)
    assert "[bold red]x[/] ␛[31mred" in out and "[bold red]x[/] ␛[2J" in out
    raw = console.export_text(styles=True)
    assert "\x1b[2J" not in raw and "\x1b]0;" not in raw


def test_visible_replaces_every_control_character() -> None:
    for code in [*range(0, 9), *range(10, 32), 0x7F, *range(0x80, 0xA0), 0x202E, 0x2066, 0x200F]:
        assert chr(code) not in visible(f"a{chr(code)}b")
    assert visible("a\tb") == "a   b"


def test_split_rows_put_replacements_side_by_side(vault: GitVault) -> None:
    text = vault.read("notes/alpha.md")
    c, d = modify(vault, "notes/alpha.md", text.replace("Second line.\n", "Two.\nThree.\n"))
    model = _model(vault, make_proposal(vault, [c], diff=d))
    rows = split_rows(model)
    pairs = [
        (model.rows[o].text if o is not None else None, model.rows[n].text if n is not None else None)
        for whole, o, n in rows
        if whole is None
    ]
    assert ("Second line.", "Two.") in pairs and (None, "Three.") in pairs
    lines = Lines(model, Renderer(model), split=True, wrapped=False, width=41)
    assert [line.cell_len for line in lines.draw(lines.count - 1)] == [41]  # each half padded to its width


def test_apply_at_a_terminal_shows_the_coloured_diff_before_asking(vault: GitVault) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second row."))
    pid = make_proposal(vault, [c], diff=d, title="Reword the second line")
    main, child = pty.openpty()
    env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm-256color")
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(vault.root), "apply", pid],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
    )
    os.close(child)
    out = b""
    while b"apply it?" not in out:
        ready, _, _ = select.select([main], [], [], 60)
        assert ready, out
        out += os.read(main, 65536)
    os.write(main, b"n\n")
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        try:
            chunk = os.read(main, 65536) if ready else b""
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    assert proc.wait(60) == 1
    os.close(main)
    raw = out.decode("utf-8", "replace")
    assert "\x1b[" in raw  # coloured: rich wrote styles to the terminal
    text = re.sub(r"\x1b\[[0-9;]*m", "", raw)
    assert "Reword the second line" in text and "notes/alpha.md (modified)" in text
    assert "-Second " in text and "+Second " in text and "not applied" in text
    assert "Second line." in vault.read("notes/alpha.md")
