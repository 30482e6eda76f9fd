"""A footer every note repeats does not crowd the results, and is still found when asked for."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault

FOOTER = (
    "\n\n## About this page\n\n[This note in GitHub](https://github.com/garden/vault/blob/main/{path}) · "
    "Edit it there and send a pull request; the repository publishes every page with Obsidian.\n"
)
TOPICS = {
    "git/repository.md": ("Repository", "A git repository keeps the whole history of the vault, commit by commit."),
    "git/branches.md": ("Branches", "A branch is a movable name for a line of commits in the repository."),
    "garden/tomatoes.md": ("Tomatoes", "Tomatoes want sun and steady water; pinch the side shoots."),
    "garden/compost.md": ("Compost", "Compost needs air, water and brown leaves turned weekly."),
    "garden/beds.md": ("Raised beds", "Raised beds drain well and warm early in spring."),
    "kitchen/bread.md": ("Bread", "Bread rises slowly in a cool kitchen overnight."),
    "kitchen/soup.md": ("Soup", "Soup keeps for days and freezes well in jars."),
    "kitchen/tea.md": ("Tea", "Green tea wants water below boiling, steeped briefly."),
}
SHARED_QUOTE = "\n\n## Quote\n\nThe best time to plant a tree was twenty years ago; the second best time is now.\n"


@pytest.fixture
def footed(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    for i, (path, (title, text)) in enumerate(TOPICS.items()):
        quote = SHARED_QUOTE if i < 4 else ""  # four notes share a quote: too few to be boilerplate
        vault.write(path, f"# {title}\n\n{text}{quote}{FOOTER.format(path=path)}")
    vault.commit("notes with a footer")
    assert cli("--vault", vault.root, "index").code == 0
    return vault


def _hits(cli, v: GitVault, query: str, mode: str) -> list[dict]:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--json", "search", query, "--mode", mode, "--k", "10")
    assert r.code == 0, r
    return list(json.loads(r.out)["hits"])


def _footers(hits: list[dict]) -> int:
    return sum(1 for h in hits if h["breadcrumb"].endswith("About this page"))


@pytest.mark.parametrize("mode", ["lexical", "vector", "hybrid"])
def test_a_repeated_footer_takes_one_slot_at_most_and_the_note_that_says_it_comes_first(
    footed: GitVault, cli, mode: str
) -> None:  # type: ignore[no-untyped-def]
    hits = _hits(cli, footed, "vault pages history", mode)
    assert _footers(hits) <= 1, [h["cite"] for h in hits]
    assert hits[0]["path"] == "git/repository.md" and not hits[0]["breadcrumb"].endswith("About this page")


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_a_question_about_the_footer_still_finds_it(footed: GitVault, cli, mode: str) -> None:  # type: ignore[no-untyped-def]
    hits = _hits(cli, footed, "edit it there and send a pull request", mode)
    assert hits and hits[0]["breadcrumb"].endswith("About this page")
    assert _footers(hits) == 1
    # A passage only four notes share is no boilerplate: each copy is found, the first as a hit
    # and the others as its copies (word for word the same text).
    quoted = [h for h in _hits(cli, footed, "best time to plant a tree", mode) if h["breadcrumb"].endswith("Quote")]
    assert len(quoted) == 1 and len(quoted[0]["copies"]) == 3, quoted
    assert {quoted[0]["path"], *(c["path"] for c in quoted[0]["copies"])} == set(list(TOPICS)[:4])
