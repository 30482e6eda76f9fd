"""Reading a diff at 80x24: long lines wrapped with their changed words highlighted, the line
numbers and signs staying put, PgDn paging the diff from the start, a help that fits or
scrolls, and a footer that keeps ``? Help`` and ``q Quit``."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets._footer import FooterKey

from curator.diffview.richtext import S_ADD_WORD, S_DEL_WORD
from curator.review.help import KEYS, HelpScreen
from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note
from tests.review.pilot import screen, settle, until
from tests.review.test_review_app import drive

SMALL = (80, 24)
# The sizes a reviewer most often has: a laptop's 80x24 and a roomier 120x36.
SIZES = {"80x24": SMALL, "120x36": (120, 36)}
PARAGRAPH = (
    "Varieties this year: San Marzano, Black Krim, Cherokee Purple, Green Zebra, Sungold and Yellow Pear, "
    "sown in March under glass, pricked out in April and planted out after the last frost in May, "
    "with the first fruit in July and the last in October, Blue Beech."
)


def _paragraph(vault: GitVault, lines_before: int = 0) -> str:
    body = "".join(f"Line {n}.\n" for n in range(lines_before)) + PARAGRAPH + "\n"
    vault.write("notes/garden.md", note("kp:01J000000000000000000GRDN", "Garden", body))
    vault.commit("garden")
    text = vault.read("notes/garden.md")
    c, d = modify(vault, "notes/garden.md", text.replace("Blue Beech.", "Brandywine."))
    return make_proposal(vault, [c], diff=d, title="Name the last variety")


def _shown(pilot: Pilot[None]) -> list[str]:
    """The diff pane's lines as they are drawn now."""
    s = screen(pilot)
    return [s.diff.render_line(y).text for y in range(s.diff.scrollable_content_region.height)]


async def _strips(pilot: Pilot[None]) -> list[Strip]:
    """Every line of the diff as the pane draws it, a pageful at a time."""
    s = screen(pilot)
    page = s.diff.scrollable_content_region.height
    out: dict[int, Strip] = {}
    for top in range(0, s.diff.virtual_size.height, page):
        s.diff.scroll_to(y=top, animate=False)
        await settle(pilot)
        at = int(s.diff.scroll_y)  # the last page stops where the diff ends
        out.update({at + y: s.diff.render_line(y) for y in range(min(page, s.diff.virtual_size.height - at))})
    s.diff.scroll_to(y=0, animate=False)
    return [out[y] for y in sorted(out)]


def _styled(strips: list[Strip], style_bg: object) -> list[str]:
    """The text drawn with a given background (a word highlight)."""
    return [seg.text for strip in strips for seg in strip if seg.style is not None and seg.style.bgcolor == style_bg]


async def _diff_of(pilot: Pilot[None], pid: str) -> None:
    s = screen(pilot)
    await until(pilot, lambda: s.diff.of == pid and pid not in s.preflight.checking, "its diff")


@pytest.mark.parametrize("size", SIZES)
def test_a_long_line_wraps_and_its_changed_word_is_highlighted_where_it_lands(vault: GitVault, size: str) -> None:
    pid = _paragraph(vault)

    async def scenario(pilot: Pilot[None]) -> None:
        await _diff_of(pilot, pid)
        width = screen(pilot).diff.scrollable_content_region.width
        assert width < len(PARAGRAPH) // 2  # a pane far narrower than the line
        strips = await _strips(pilot)
        shown = [strip.text for strip in strips]
        # The end of the paragraph, and the edit there, are drawn: old and new.
        assert any("Blue Beech." in line for line in shown) and any("Brandywine." in line for line in shown), shown
        assert "Blue" in " ".join(_styled(strips, S_DEL_WORD.bgcolor))
        assert "Brandywine" in " ".join(_styled(strips, S_ADD_WORD.bgcolor))
        # Line numbers on each line's first screen line only; the sign on every one of them.
        added = [line for line in shown if line[9:10] == "+"]
        deleted = [line for line in shown if line[9:10] == "-"]
        assert len(added) >= 3 and added[0][:9].split() == ["7"] and all(not x[:9].strip() for x in added[1:])
        assert len(deleted) >= 3 and deleted[0][:9].split() == ["7"] and all(not x[:9].strip() for x in deleted[1:])
        # Wrapped lines put together are the line: nothing is dropped at a break.
        assert (
            "".join(line[10:].rstrip(" ") + " " for line in added).split()
            == PARAGRAPH.replace("Blue Beech.", "Brandywine.").split()
        )

    drive(vault.root, scenario, size=SIZES[size])


def test_w_unwraps_and_sideways_scrolling_keeps_the_numbers_and_signs(vault: GitVault) -> None:
    pid = _paragraph(vault)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _diff_of(pilot, pid)
        wrapped = s.diff.virtual_size.height
        await pilot.press("w")
        assert not s.diff.wrap and s.diff.virtual_size.height < wrapped
        assert not any("Brandywine" in line for line in _shown(pilot))  # cut at the pane's edge
        s.diff.focus()
        for _ in range(60):
            if any("Brandywine." in line for line in _shown(pilot)):
                break
            await pilot.press("right")
        shown = _shown(pilot)
        new = next(line for line in shown if line[9:10] == "+")
        assert new[:9].split() == ["7"] and "Brandywine." in new, shown  # scrolled text, numbers in place
        await pilot.press("w")
        assert s.diff.wrap and s.diff.scroll_x == 0

    drive(vault.root, scenario, size=SMALL)


def test_the_split_view_wraps_each_side(vault: GitVault) -> None:
    pid = _paragraph(vault)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _diff_of(pilot, pid)
        await pilot.press("s")
        await settle(pilot)
        strips = await _strips(pilot)
        shown = [strip.text for strip in strips]
        assert s.diff.split
        old = " ".join(line.split("│")[0] for line in shown if "│" in line)
        new = " ".join(line.split("│")[1] for line in shown if "│" in line)
        assert "Beech." in old and "Brandywine." in new, shown
        assert "Blue" in " ".join(_styled(strips, S_DEL_WORD.bgcolor))
        assert "Brandywine" in " ".join(_styled(strips, S_ADD_WORD.bgcolor))

    drive(vault.root, scenario, size=(120, 36))


@pytest.mark.parametrize("size", SIZES)
def test_pgdn_pages_the_diff_from_the_start_and_the_queue_stays(vault: GitVault, size: str) -> None:
    vault.write(
        "notes/long.md", note("kp:01J000000000000000000LONG", "Long", "".join(f"Line {n}.\n" for n in range(80)))
    )
    vault.commit("long")
    # Every line changed: a diff taller than the pane at either size.
    c, d = modify(vault, "notes/long.md", vault.read("notes/long.md").replace(".\n", ", edited.\n"))
    pid = make_proposal(vault, [c], diff=d, title="Edit every line")
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    other = make_proposal(vault, [c], diff=d, title="Another")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _diff_of(pilot, pid)
        assert s.queue.has_focus and s.queue.chosen == pid
        await pilot.press("pagedown")
        await settle(pilot)
        assert s.diff.scroll_y > 0 and s.queue.chosen == pid and other in s.queue.entries
        down = s.diff.scroll_y
        await pilot.press("pageup")
        await settle(pilot)
        assert s.diff.scroll_y < down and s.queue.chosen == pid

    drive(vault.root, scenario, size=SIZES[size])


def test_the_help_fits_or_scrolls_and_the_footer_keeps_help_and_quit(vault: GitVault) -> None:
    _paragraph(vault)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        width = pilot.app.size.width
        keys = {k.key: k for k in s.query(FooterKey)}
        for key, label in (("question_mark", "Help"), ("q", "Quit")):
            region = keys[key].region
            assert keys[key].description == label and region.width and region.right <= width, (key, region)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")
        box = pilot.app.screen.query_one("VerticalScroll")
        assert box.region.bottom <= pilot.app.size.height
        table = pilot.app.screen.query_one("Static")
        # Every key's row is in the box, or the box scrolls to it.
        assert box.virtual_size.height >= len(KEYS) and (box.max_scroll_y > 0 or box.region.height >= len(KEYS) + 2)
        box.scroll_end(animate=False)
        await settle(pilot)
        assert table.region.bottom <= box.region.bottom

    for size in (*SIZES.values(), (60, 16)):  # the last too short for every key: it scrolls
        drive(vault.root, scenario, size=size)
