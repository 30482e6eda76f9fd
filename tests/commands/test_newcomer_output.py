"""What a newcomer reads: broken heading and block links, `read Note#Heading`, candidates over
MCP, the lexical-epoch warning, output that stays in line, and an already-broken frontmatter."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
import pytest

from tests.conftest import GitVault, make_git_vault, note
from tests.mcp.harness import connect, ok, text

SLEEP = note(
    "kp:01J0000000000000000000SLEP", "Sleep", "Intro.\n\n## Tips\n\nDark room.\n\n```\n## Not a heading\n```\n"
)
READING = note("kp:01J0000000000000000000READ", "Reading List", "- Book one ^abc\n- Book two\n")
LINKS = note(
    "kp:01J0000000000000000000LINK",
    "Links",
    "[[Sleep#Tips]] and [[Sleep#Nope]].\n[[Reading List#^abc]] and [[Reading List#^zzz]].\n"
    "[[Sleep#Not a heading]] and [bad](No%20Such.md).\n",
)


@pytest.fixture
def obsidian(tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", "")
    v.write("Areas/Health/Sleep.md", SLEEP)
    v.write("Reading List.md", READING)
    v.write("Areas/Health/Links.md", LINKS)
    v.write("ja/睡眠.md", note("kp:01J00000000000000000000JAS", "睡眠", "日本語のノート\n"))
    v.write("zh/睡眠.md", note("kp:01J00000000000000000000ZHS", "睡眠", "中文笔记\n"))
    v.commit("vault")
    assert cli("--vault", v.root, "index", "--quiet").code == 0
    return v


def test_doctor_warns_about_headings_and_blocks_a_link_names_that_do_not_exist(obsidian: GitVault, cli) -> None:
    r = cli("--vault", obsidian.root, "--json", "doctor", "--code", "unresolved-anchor")
    found = {(f["line"], f["message"]) for f in json.loads(r.out)["findings"]}
    assert found == {
        (7, "[[Sleep#Nope]]: Areas/Health/Sleep.md has no heading 'Nope'"),
        (8, "[[Reading List#^zzz]]: Reading List.md has no block ^zzz"),
        (9, "[[Sleep#Not a heading]]: Areas/Health/Sleep.md has no heading 'Not a heading'"),
    }
    plain = cli("--vault", obsidian.root, "doctor")
    assert "3 warning(s) unresolved-anchor" in plain.out  # a warning: the link itself works


def test_relate_marks_a_missing_heading_and_shows_a_markdown_link_as_written(obsidian: GitVault, cli) -> None:
    r = cli("--vault", obsidian.root, "relate", "Areas/Health/Links.md")
    assert r.code == 0, r
    assert re.search(r"line 7 → Areas/Health/Sleep\.md:\d+ #Tips  Sleep\n", r.out)
    assert "line 7 → Areas/Health/Sleep.md #Nope (no such heading in Areas/Health/Sleep.md)" in r.out
    assert "line 8 → Reading List.md #^zzz (no such block in Reading List.md)" in r.out
    assert "line 9: [bad](No%20Such.md)" in r.out
    data = json.loads(cli("--vault", obsidian.root, "--json", "relate", "Areas/Health/Links.md").out)
    assert [n["anchor_missing"] for n in data["links"]] == [False, True, False, True, True]


def test_read_takes_a_heading_or_block_and_starts_there(obsidian: GitVault, cli) -> None:
    r = cli("--vault", obsidian.root, "--json", "read", "Sleep#Tips")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["path"] == "Areas/Health/Sleep.md" and data["lines"][0] == {"n": 9, "text": "## Tips"}
    r = cli("--vault", obsidian.root, "--json", "read", "Reading List#^abc")
    assert json.loads(r.out)["lines"][0]["text"] == "- Book one ^abc"
    r = cli("--vault", obsidian.root, "read", "Sleep#Nope")
    assert r.code == 2 and "Areas/Health/Sleep.md has no heading 'Nope'" in r.err
    assert cli("--vault", obsidian.root, "read", "Nothing#Tips").code == 2


def test_kp_read_names_the_other_candidates(obsidian: GitVault) -> None:
    async def scenario() -> tuple[str, dict]:
        async with connect(obsidian.root) as c:
            result = await c.call_tool("kp_read", {"ref": "睡眠"})
            return text(result), ok(result)

    shown, data = anyio.run(scenario)
    other = "zh/睡眠.md" if data["path"] == "ja/睡眠.md" else "ja/睡眠.md"
    assert data["candidates"] == [other]
    # the other note's path is the vault's words: said only inside a frame, never in Curator's own line
    assert "The ref names other notes too" in shown
    said, framed = shown.split("<vault-data", 1)
    assert other not in said and other in framed, shown


def test_a_lexical_epoch_warning_says_how_to_stay_lexical_and_what_a_rebuild_embeds(
    obsidian: GitVault, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CURATOR_EMBEDDER")
    r = cli("--vault", obsidian.root, "status")
    assert "run `curator index rebuild` (it embeds" in r.err
    assert "or, to stay lexical, set `embedder.provider: none` in .kp/config.yaml" in r.err
    obsidian.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    assert "warning" not in cli("--vault", obsidian.root, "status").err


def test_an_already_invalid_frontmatter_does_not_block_an_edit_and_says_so(obsidian: GitVault, cli) -> None:
    obsidian.write("broken.md", "---\ntitle: [unclosed\n---\nbody\n")
    obsidian.commit("a note broken before Curator")
    obsidian.write("broken.md", "---\ntitle: [unclosed\n---\nbody, edited\n")
    obsidian.write("fresh-break.md", "---\ntitle: [new\n---\nbody\n")
    obsidian.git("add", "broken.md", "fresh-break.md")
    r = cli("--vault", obsidian.root, "--json", "validate", "--staged")
    notes = {n["path"]: n for n in json.loads(r.out)["notes"]}
    assert notes["broken.md"]["ok"] and notes["broken.md"]["findings"][0]["warning"] is True
    assert "already invalid YAML in the committed version" in notes["broken.md"]["findings"][0]["message"]
    assert not notes["fresh-break.md"]["ok"]
    obsidian.git("reset", "-q", "fresh-break.md")
    r = cli("--vault", obsidian.root, "validate", "--staged")
    assert r.code == 0, r
    assert "KP008 broken.md:3: warning: " in r.out
    # A proposal editing such a note is not blocked either.
    obsidian.git("reset", "-q")
    r = cli("--vault", obsidian.root, "--json", "propose", "broken.md", "--title", "edit")
    assert r.code == 0, r
    assert json.loads(r.out)["findings"][0]["warning"] is True


def test_proposals_columns_stay_in_line_and_apply_summarises_many_paths(obsidian: GitVault, cli) -> None:
    for i in range(12):
        obsidian.write(f"many/n{i:02}.md", f"# N{i}\n")
    obsidian.commit("many")
    r = cli("--vault", obsidian.root, "--json", "adopt")
    pid = json.loads(r.out)["staged"]
    obsidian.write("Reading List.md", READING + "more\n")
    assert cli("--vault", obsidian.root, "propose", "Reading List.md", "--title", "short").code == 0
    rows = cli("--vault", obsidian.root, "proposals").out.splitlines()
    authors = {row.index("Test Person") for row in rows if "Test Person" in row}
    assert len(rows) == 2 and len(authors) == 1
    r = cli("--vault", obsidian.root, "apply", pid, "--yes")
    assert r.code == 0, r
    line = r.out.strip().splitlines()[-1]
    assert ": many/n00.md, " in line and line.endswith(" and 2 more") and "many/n11.md" not in line


def test_ctrl_c_prints_one_line_and_no_blank_one(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from curator.commands import ls

    def interrupted(*_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(ls, "run", interrupted)
    r = cli("--vault", vault.root, "ls")
    assert r.code == 130 and r.err == "curator: aborted\n"


def test_snippets_keep_link_markup_inside_code() -> None:
    from curator.search.snippet import snippet

    text = "See [[wal|WAL mode]] and `[[inline]]`.\n```\nx = [[a|b]]\n```\n[t](x.md) after"
    assert snippet(text, "wal") == "See WAL mode and `[[inline]]`. ``` x = [[a|b]] ``` t after"


def test_the_digest_reads_notes_date_keys_and_the_old_key_is_deprecated(vault: GitVault, cli) -> None:
    from curator.settings import parse

    assert parse(b"notes:\n  date_keys: [when]\n").digest.created_keys == ("when",)
    old = parse(b"notes:\n  date_keys: [when]\ndigest:\n  created_keys: [made]\n")
    assert old.digest.created_keys == ("made",) and old.notes.date_keys == ("when",)
    vault.write(".kp/config.yaml", "digest:\n  created_keys: [made]\n")
    r = cli("--vault", vault.root, "--json", "doctor", "--code", "deprecated-setting")
    assert r.code == 0
    [finding] = json.loads(r.out)["findings"]
    assert finding["message"].startswith("digest.created_keys is deprecated: notes.date_keys dates a note")


def test_anchors_match_headings_by_text_and_as_markdown_and_github_write_them() -> None:
    from curator.vault.anchors import Anchors

    a = Anchors("---\n# yaml: comment\n---\n# Top\n### Call operator `&`\n## Getting  Started\ntext ^blk-1\n")
    assert a.find("Call operator `&`") == 5 and a.find("call-operator-") == 5
    assert a.find("getting-started") == 6 and a.find("getting--started") == 6 and a.find("Top#Getting  Started") == 6
    assert a.find("^blk-1") == 7 and a.find("yaml: comment") is None and a.find("^nope") is None


def test_a_rebuild_for_another_normalisation_is_not_said_to_embed(vault: GitVault, cli, monkeypatch) -> None:
    """Same embedder, another normalisation: the rebuild carries every vector over."""
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    assert cli("--vault", vault.root, "index").code == 0
    vault.write(".kp/config.yaml", "index:\n  normalisation: plain\n")
    r = cli("--vault", vault.root, "status")
    assert "run `curator index rebuild`" in r.err, r
    assert "it embeds" not in r.err, r


def test_a_mistyped_command_is_told_the_one_it_is_closest_to(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = cli("serach", "x")
    assert r.code == 2 and "No such command 'serach'. Did you mean 'search'?" in r.err
    far = cli("zzzz")
    assert far.code == 2 and "Did you mean" not in far.err


@pytest.mark.parametrize("option", ["--vault", "--index-dir"])
def test_a_global_option_after_the_command_says_where_it_goes(cli, vault: GitVault, option: str) -> None:  # type: ignore[no-untyped-def]
    """`curator search wal --vault X` was told "Did you mean '--path'?"."""
    r = cli("search", "wal", option, str(vault.root))
    assert r.code == 2 and r.err.strip() == (
        f"curator: {option} is an option of curator itself: put it before the command (curator {option} ... COMMAND)"
    ), r.err
