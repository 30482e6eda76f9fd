"""One slot per note: a note's best passage is its hit, its other matching passages are cited
with it; template notes leave search; a note is found by its title and its aliases."""

from __future__ import annotations

import json

import anyio
import pytest

from tests.conftest import GitVault, make_git_vault
from tests.mcp.harness import connect, ok, text

LONG = """# Backups

Keep backups of the vault.

## Backups on a drive

Copy the vault to an external drive: backups you can hold.

## Backups in the cloud

Cloud backups keep a copy of the vault off site.

## Restoring backups

Restore from the newest of your backups.
"""


@pytest.fixture(scope="module")
def slots(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("slots") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("backups.md", LONG)
    v.write("sync.md", "# Sync\n\nSync is not one of the backups: a deletion syncs too.\n")
    v.write("trash.md", "# Trash\n\nDeleted notes go to the trash, not to backups.\n")
    v.write("Templates/Meeting.md", "# <% tp.file.title %>\n\nBackups: <% tp.date.now() %>\nAttendees:\n")
    v.write(
        "hypervisors/proxmox.md",
        "---\ntitle: Proxmox Virtual Environment\naliases: [PVE, Proxmox]\n---\n# Setup\n\nInstall it on bare metal.\n",
    )
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def _search(cli, v: GitVault, query: str, *extra: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--index-dir", v.root.parent / "idx", "--json", "search", query, *extra)
    assert r.code == 0, r
    return json.loads(r.out)


def test_a_note_takes_one_slot_and_cites_its_other_passages(slots: GitVault, cli) -> None:
    hits = _search(cli, slots, "backups", "--mode", "lexical")["hits"]
    paths = [h["path"] for h in hits]
    assert len(paths) == len(set(paths)), paths  # before: backups.md in four slots of five
    assert set(paths) == {"backups.md", "sync.md", "trash.md"}
    first = hits[0]
    assert first["path"] == "backups.md"
    also = first["also"]
    assert len(also) == 3 and all(a["cite"].startswith("backups.md:") for a in also)
    assert {a["breadcrumb"] for a in also} | {first["breadcrumb"]} == {
        "Backups",
        "Backups › Backups on a drive",
        "Backups › Backups in the cloud",
        "Backups › Restoring backups",
    }
    lines = (slots.root / "backups.md").read_text().split("\n")
    for a in also:  # each extra cite names real lines of the note
        assert a["cite"] == f"backups.md:{a['start_line']}-{a['end_line']}"
        assert "backups" in "\n".join(lines[a["start_line"] - 1 : a["end_line"]]).lower()
    assert all(h["also"] == [] for h in hits[1:])


def test_k_counts_notes_not_passages(slots: GitVault, cli) -> None:
    hits = _search(cli, slots, "backups", "--mode", "lexical", "--k", "2")["hits"]
    assert [h["path"] for h in hits][:1] == ["backups.md"] and len({h["path"] for h in hits}) == 2


def test_the_command_line_lists_the_other_cites_under_the_hit(slots: GitVault, cli) -> None:
    r = cli("--vault", slots.root, "--index-dir", slots.root.parent / "idx", "search", "backups", "--mode", "lexical")
    assert r.code == 0, r
    assert r.out.count("backups.md:") == 4 and "   also backups.md:" in r.out


def test_template_notes_leave_search_unless_asked_for(slots: GitVault, cli) -> None:
    assert "Templates/Meeting.md" not in [h["path"] for h in _search(cli, slots, "backups attendees")["hits"]]
    asked = _search(cli, slots, "attendees", "--templates", "--mode", "lexical")["hits"]
    assert [h["path"] for h in asked] == ["Templates/Meeting.md"]


def test_a_note_is_found_by_its_aliases_and_its_title(slots: GitVault, cli) -> None:
    assert [h["path"] for h in _search(cli, slots, "PVE", "--mode", "lexical")["hits"]] == ["hypervisors/proxmox.md"]
    found = _search(cli, slots, "virtual environment", "--mode", "lexical")["hits"]
    assert [h["path"] for h in found] == ["hypervisors/proxmox.md"]


def test_kp_search_gives_one_hit_per_note_with_its_other_cites(
    slots: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    monkeypatch.setenv("CURATOR_INDEX_DIR", str(slots.root.parent / "idx"))

    async def scenario() -> tuple[dict, str]:
        async with connect(slots.root) as c:
            r = await c.call_tool("kp_search", {"query": "backups", "k": 5, "mode": "lexical"})
            return ok(r), text(r)

    data, said = anyio.run(scenario)
    paths = [h["path"] for h in data["hits"]]
    assert len(paths) == len(set(paths)) and paths[0] == "backups.md"
    assert len(data["hits"][0]["also"]) == 3
    # the other cites are the vault's words: an attribute of the hit's frame, never a line of their own
    assert 'also="backups.md:' in said and "\nalso backups.md" not in said


@pytest.fixture(scope="module")
def names(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("names") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write(
        "app/Settings.md",
        "# Settings\n\nOpen them from the gear icon at the bottom left of the window, or press the key the command palette names for them.\n",
    )
    v.write(
        "app/hotkeys.md",
        "# Hotkeys in settings\n\nChange hotkeys in settings. The settings list every command, settings search "
        "filters it, and settings sync carries the settings to other devices.\n",
    )
    v.write("app/appearance.md", "# Appearance\n\nThemes live in settings, under appearance settings.\n")
    v.write(
        "hypervisors/proxmox.md",
        "---\ntitle: Proxmox Virtual Environment\naliases: [PVE]\n---\n# Setup\n\nInstall it on bare metal.\n",
    )
    v.write("hypervisors/cluster.md", "# Cluster\n\nA Proxmox cluster: Proxmox nodes, Proxmox storage, Proxmox HA.\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


@pytest.mark.parametrize(
    ("query", "note"),
    [
        ("Settings", "app/Settings.md"),  # its title and file name; other notes say "settings" five times
        ("settings", "app/Settings.md"),
        ("proxmox", "hypervisors/proxmox.md"),  # its file name; cluster.md says it four times
        ("Proxmox  Virtual Environment", "hypervisors/proxmox.md"),  # its title, spaced as typed
        ("pve", "hypervisors/proxmox.md"),  # an alias
    ],
)
def test_a_note_named_by_the_query_comes_first(names: GitVault, cli, query: str, note: str) -> None:
    data = _search(cli, names, query, "--mode", "lexical", "--explain")
    assert data["hits"][0]["path"] == note, [h["path"] for h in data["hits"]]
    assert data["hits"][0]["explain"]["name"]["rank"] == 1.0
    assert [h["path"] for h in data["hits"]].count(note) == 1


def test_a_named_note_outside_the_filters_is_not_brought_in(names: GitVault, cli) -> None:
    hits = _search(cli, names, "settings", "--mode", "lexical", "--path", "app/h*")["hits"]
    assert [h["path"] for h in hits] == ["app/hotkeys.md"]


def test_words_that_name_no_note_rank_as_before(names: GitVault, cli) -> None:
    hits = _search(cli, names, "settings sync", "--mode", "lexical", "--explain")["hits"]
    assert hits[0]["path"] == "app/hotkeys.md" and all("name" not in h["explain"] for h in hits)


def test_a_template_named_by_the_query_stays_out_unless_asked_for(slots: GitVault, cli) -> None:
    """Templates/Meeting.md is named `Meeting`: naming it does not bring a template into search."""
    hits = _search(cli, slots, "Meeting", "--mode", "lexical", "--explain")["hits"]
    assert all(not h["path"].startswith("Templates/") for h in hits), hits
    asked = _search(cli, slots, "Meeting", "--mode", "lexical", "--explain", "--templates")["hits"]
    assert asked[0]["path"] == "Templates/Meeting.md" and asked[0]["explain"]["name"]["rank"] == 1.0


GUIDE = "# Install\n\nRun the installer, then restart the shell so the new commands are found.\n"


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    """A docs tree that keeps each page in every version: the same text under four folders, a
    fifth version's page reworded, and one more copy whose file name looks like a key (five
    copies under one title: copies, not boilerplate)."""
    v = make_git_vault(tmp_path_factory.mktemp("versions") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    for version in ("7.4", "7.5", "7.6", "7.7"):
        v.write(f"docs/{version}/install.md", GUIDE)
    v.write("docs/5.1/install.md", "# Install\n\nRun the installer; the new commands are found after a restart.\n")
    v.write("keys/AKIA2E3F4G5H6J7K8L9M.md", GUIDE)
    v.write("shell.md", "# Shell\n\nThe shell finds commands on its path; restart it after an install.\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def test_the_same_text_in_other_notes_is_listed_under_one_hit(versions: GitVault, cli) -> None:
    hits = _search(cli, versions, "install restart commands", "--mode", "lexical", "--k", "3")["hits"]
    paths = [h["path"] for h in hits]
    # before: the copies took the three slots
    assert sorted(paths) == ["docs/5.1/install.md", "docs/7.4/install.md", "shell.md"], paths
    first = next(h for h in hits if h["path"] == "docs/7.4/install.md")
    assert [c["path"] for c in first["copies"]] == [
        "docs/7.5/install.md",
        "docs/7.6/install.md",
        "docs/7.7/install.md",
        "keys/AKIA2E3F4G5H6J7K8L9M.md",
    ]
    assert first["copies"][0]["cite"] == "docs/7.5/install.md:1-3"
    reworded = next(h for h in hits if h["path"] == "docs/5.1/install.md")
    assert "copies" not in reworded  # another text: a slot of its own
    r = cli("--vault", versions.root, "--index-dir", versions.root.parent / "idx", "search", "install restart commands")
    assert "   the same text in docs/7.5/install.md:1-3, docs/7.6/install.md:1-3 and 2 more\n" in r.out, r.out


def test_a_note_named_in_every_version_is_pinned_once(versions: GitVault, cli) -> None:
    # `install` names each version's install.md: the first is pinned, the copies listed under it
    hits = _search(cli, versions, "install", "--mode", "lexical")["hits"]
    paths = [h["path"] for h in hits]
    assert paths.count("docs/7.5/install.md") == 0 and "docs/5.1/install.md" in paths, paths
    (pinned,) = [h for h in hits if h["path"].startswith("docs/7.")]
    assert sorted([pinned["path"], *(c["path"] for c in pinned["copies"])]) == [
        "docs/7.4/install.md",
        "docs/7.5/install.md",
        "docs/7.6/install.md",
        "docs/7.7/install.md",
        "keys/AKIA2E3F4G5H6J7K8L9M.md",
    ]


def test_copies_of_one_page_are_not_boilerplate(versions: GitVault) -> None:
    # five notes repeat the passage, but under one title: a page's copies, which keep their
    # weight, not a footer ranked at half its score (``index.boilerplate``)
    import apsw

    from curator.index import boilerplate
    from curator.index import epoch as epochs

    ep = epochs.serving(str(versions.root.parent / "idx"))
    assert ep is not None
    conn = apsw.Connection(ep.path, flags=apsw.SQLITE_OPEN_READONLY)
    try:
        assert not boilerplate.any_in(conn)
    finally:
        conn.close()



def test_kp_search_redacts_a_copys_path_as_it_does_a_hits(versions: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    monkeypatch.setenv("CURATOR_INDEX_DIR", str(versions.root.parent / "idx"))

    async def scenario() -> dict:
        async with connect(versions.root) as c:
            return ok(await c.call_tool("kp_search", {"query": "install restart commands", "mode": "lexical"}))

    data = anyio.run(scenario)
    copies = [c for h in data["hits"] for c in h.get("copies", [])]
    assert "keys/[REDACTED: AWS Access Key].md" in [c["path"] for c in copies], copies
    assert "AKIA2E3F4G5H6J7K8L9M" not in json.dumps(data)


def test_a_path_glob_that_matches_no_path_is_told(versions: GitVault, cli) -> None:
    data = _search(cli, versions, "install", "--path", "7.5/**")
    assert data["hits"] == [] and any("no path in the index matches --path '7.5/**'" in w for w in data["warnings"])
    data = _search(cli, versions, "zebra", "--path", "docs/7.5/**")  # the glob matches; the words do not
    assert data["hits"] == [] and "warnings" not in data
