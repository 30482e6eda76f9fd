"""Inline ``#tags`` in a note's body: the scanner, and what search, the index card and the digest make of them."""

from __future__ import annotations

import json
import re

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.vault.note import parse
from curator.vault.tags import inline_tags
from tests.conftest import GitVault
from tests.librarian.conftest import CLOCK, dated, staged_digest
from tests.mcp.harness import connect, ok, text


def test_tags_in_the_text_count_and_look_alikes_do_not() -> None:
    body = "\n".join(
        [
            "# Heading is not a tag",
            "## Plans #roadmap",
            "Grow #gardening and #area/topic, not #1984 but #y1984 and #2021/12/10.",
            "A link https://x.org/page#frag, [[Note#Heading]], [x](#part), foo#bar, &#38; and \\#escaped.",
            "Code `#notatag` stays code; ``#nor `this` one``.",
            "```",
            "#incode",
            "```",
            "%% #hidden %% and <!-- #alsohidden -->",
            "[02]: #a-link-definition",
            "#start-of-line #Gardening trailing #slash/",
        ]
    )
    assert inline_tags(body) == ["roadmap", "gardening", "area/topic", "y1984", "2021/12/10", "start-of-line", "slash"]


def test_a_note_has_its_frontmatter_tags_then_its_inline_ones_each_once() -> None:
    raw = b"---\ntags: [Garden, plans]\n---\n# T\n\nSee #garden and #compost; #plans/2026.\n"
    assert parse("a.md", raw).tags == ["Garden", "plans", "compost", "plans/2026"]


_ALPHABET = "#a1_-/ \tZé9.,"


def _reference(line: str) -> list[str]:
    """A character-at-a-time reading of one line without code or comments: Obsidian's rule."""
    found: dict[str, str] = {}
    for i, c in enumerate(line):
        if c != "#" or (i > 0 and not line[i - 1].isspace()):
            continue
        j = i + 1
        while j < len(line) and (line[j].isalnum() or line[j] in "_-/"):
            j += 1
        tag = line[i + 1 : j].strip("/")
        if tag and not tag.isdigit():
            found.setdefault(tag.casefold(), tag)
    return list(found.values())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_the_scanner_agrees_with_a_plain_reading(line: str) -> None:
    assert inline_tags(line) == _reference(line)


# ---- through the index: search, kp_search, the card, the digest ----


@pytest.fixture
def tagged(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    vault.write(
        "garden/beds.md",
        dated("kp:01J0000000000000000000BEDS", "Raised beds", "2026-06-14", [], "Raised beds drain well. #gardening"),
    )
    vault.write(
        "garden/compost.md",
        dated(
            "kp:01J000000000000000000C0MP0",
            "Compost",
            "2026-06-13",
            [],
            "Compost feeds raised beds. #gardening/soil\n\n```\n#notatag in code\n```",
        ),
    )
    vault.write(
        "garden/seeds.md",
        dated("kp:01J0000000000000000000SEED", "Seeds", "2026-06-12", ["gardening"], "Seeds for raised beds."),
    )
    vault.write(
        "work/plan.md",
        dated("kp:01J0000000000000000000PLAN", "Plan", "2026-06-11", [], "Raised beds budget line. #work"),
    )
    vault.write("now.md", "---\nkp_id: kp:01J0000000000000000000N0W0\ntitle: Now\n---\n# Now\n\nRaised beds.\n")
    vault.commit("tagged notes")
    assert cli("--vault", vault.root, "index").code == 0
    return vault


def _paths(cli, v: GitVault, *args: str) -> list[str]:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--json", "search", "raised beds", "--k", "20", *args)
    assert r.code == 0, r
    return sorted({h["path"] for h in json.loads(r.out)["hits"]})


def test_search_by_tag_finds_inline_and_nested_tags(tagged: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    assert _paths(cli, tagged, "--tag", "gardening") == ["garden/beds.md", "garden/compost.md", "garden/seeds.md"]
    assert _paths(cli, tagged, "--tag", "#Gardening/Soil") == ["garden/compost.md"]
    assert _paths(cli, tagged, "--tag", "work") == ["work/plan.md"]
    assert _paths(cli, tagged, "--tag", "notatag") == []
    assert _paths(cli, tagged, "--tag", "garden") == []  # a prefix of a word is not a parent tag


def test_kp_search_and_the_card_see_inline_tags(tagged: GitVault) -> None:
    async def scenario() -> tuple[dict, str]:  # type: ignore[type-arg]
        async with connect(tagged.root) as c:
            found = ok(await c.call_tool("kp_search", {"query": "raised beds", "k": 20, "tags": ["gardening"]}))
            card = text(await c.call_tool("kp_index_card", {}))
            return found, card

    found, card = anyio.run(scenario)
    assert sorted({h["path"] for h in found["hits"]}) == ["garden/beds.md", "garden/compost.md", "garden/seeds.md"]
    top = card.split("## Top tags", 1)[1].split("\n## ", 1)[0]
    assert "#gardening 2" in top and "#gardening/soil 1" in top and "#work 1" in top
    assert "notatag" not in card


def test_the_digest_groups_by_inline_tags(tagged: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("--vault", tagged.root, "digest", "--now", CLOCK, "--json", "--k", "10")
    assert r.code == 0, r
    _path, note = staged_digest(tagged, json.loads(r.out)["id"])
    sections = re.findall(r"^## (.+)$", note, re.M)
    assert "gardening" in sections and "work" in sections and "Untagged" not in sections
    gardening = note.split("## gardening\n", 1)[1].split("\n## ", 1)[0]
    assert "Raised beds" in gardening and "Seeds" in gardening


def test_an_epoch_from_before_inline_tags_is_rebuilt_with_them(tagged: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    import apsw

    from curator.index import epoch as epochs
    from curator.locations import default_index_dir

    ep = epochs.serving(default_index_dir(str(tagged.root)))
    assert ep is not None
    conn = apsw.Connection(ep.path)
    fp = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0])
    del fp["schema"]  # as an older Curator wrote it, whose tags were the frontmatter's only
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps(fp, sort_keys=True),))
        conn.execute(
            "DELETE FROM tags WHERE tag != 'gardening' OR doc_id != (SELECT id FROM documents WHERE path = ?)",
            ("garden/seeds.md",),
        )
    conn.close()
    r = cli("--vault", tagged.root, "--json", "index")
    assert r.code == 0 and "built by an older Curator (schema v1); built a new epoch" in r.out, r
    assert _paths(cli, tagged, "--tag", "gardening") == ["garden/beds.md", "garden/compost.md", "garden/seeds.md"]
