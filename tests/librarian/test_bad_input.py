"""The digest's bad input: each gets a clear outcome, never a traceback, and loses nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault
from tests.librarian.conftest import CLOCK, config, dated, staged_digest


def _proposals(v: GitVault) -> list[str]:
    folder = v.root / ".kp" / "proposals"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def _json(cli, v: GitVault, *args: str):  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "digest", "--json", *args)
    assert r.code == 0, r
    return json.loads(r.out)


def test_an_empty_vault_has_nothing_to_digest(tmp_path: Path, cli, fake_embedder) -> None:
    v = make_git_vault(tmp_path / "empty")  # not even a commit
    r = cli("--vault", v.root, "digest", "--now", CLOCK)
    assert r.code == 0, r
    assert r.out == f"nothing to digest: no note was created up to {CLOCK}; nothing staged\n"
    assert _proposals(v) == [] and v.status() == ""


def _last_digest(until: str, since: str | None = None) -> str:
    s = "null" if since is None else f'"{since}"'
    return (
        "---\nkp_id: kp:01J0000000000000000000DG01\ntitle: Digest\ntags: [digest]\n"
        f'digest:\n  window:\n    since: {s}\n    until: "{until}"\n---\n# Digest\n'
    )


def test_every_note_older_than_the_last_digest(dvault: GitVault, cli) -> None:
    dvault.write("digests/2026-06-15.md", _last_digest("2026-06-15T06:00:00Z"))
    dvault.commit("last digest")
    out = _json(cli, dvault, "--now", CLOCK)
    assert out["status"] == "nothing-new" and out["candidates"] == 0
    assert out["window"] == {"since": "2026-06-15T06:00:00Z", "until": CLOCK, "after": "digests/2026-06-15.md"}
    assert _proposals(dvault) == []


def test_the_window_starts_where_the_newest_digest_ended(dvault: GitVault, cli) -> None:
    dvault.write("digests/2026-06-01.md", _last_digest("2026-06-01T00:00:00Z"))
    dvault.write("digests/2026-06-12.md", _last_digest("2026-06-12T00:00:00Z", "2026-06-01T00:00:00Z"))
    dvault.write("digests/notes-about-digests.md", "# About\n\nNot a digest, and never a candidate.\n")
    dvault.commit("digests")
    out = _json(cli, dvault, "--now", CLOCK, "--k", "10")
    assert out["window"]["since"] == "2026-06-12T00:00:00Z"
    # Created 06-12 08:30, 06-13, 06-14 (a date counts from the end of its day; 06-10 and older are out).
    assert sorted(e["path"] for e in out["entries"]) == ["garden/tomatoes.md", "search/hybrid.md", "sqlite/wal.md"]
    _, text = staged_digest(dvault, out["id"])
    assert 'since: "2026-06-12T00:00:00Z"' in text and "3 notes new since 2026-06-12T00:00:00Z" in text


def test_a_date_counts_from_the_end_of_its_day(dvault: GitVault, cli) -> None:
    dvault.write("today.md", dated("kp:01J0000000000000000000TDAY", "Today", "2026-06-15", [], "Written today, late."))
    dvault.commit("today")
    first = _json(cli, dvault, "--now", CLOCK, "--auto-apply", "--k", "20")
    assert "today.md" not in [e["path"] for e in first["entries"]]  # the 15th is not over at noon
    second = _json(cli, dvault, "--now", "2026-06-16T07:00:00Z", "--auto-apply")
    assert [e["path"] for e in second["entries"]] == ["today.md"]
    third = _json(cli, dvault, "--now", "2026-06-17T07:00:00Z")
    assert third["status"] == "nothing-new"


def test_malformed_and_future_dates_are_named_and_not_fatal(dvault: GitVault, cli, monkeypatch) -> None:
    dvault.write("bad/malformed.md", dated(None, "Malformed", "next tuesday", [], "A note with a bad created date."))
    dvault.write("bad/future.md", dated(None, "Future", "2099-01-01", [], "A note dated far in the future."))
    dvault.write("bad/fallback.md", "---\ncreated: soon\ndate: 2026-06-11\n---\n# Fallback\n\nThe date key is used.\n")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-06-14T09:00:00Z")
    dvault.commit("bad dates")
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--k", "20")
    assert r.code == 0, r
    assert "curator: warning: bad/malformed.md: created: 'next tuesday' is not a date; using its commit time" in r.err
    assert f"bad/future.md: created: 2099-01-01 is after the digest's clock ({CLOCK}); using its commit time" in r.err
    assert "bad/fallback.md: created: 'soon' is not a date; using its date" in r.err
    assert "Traceback" not in r.err
    out = _json(cli, dvault, "--now", CLOCK, "--k", "20", "--force")
    got = {e["path"]: (e["created"], e["created_from"]) for e in out["entries"]}
    assert got["bad/malformed.md"] == got["bad/future.md"] == ("2026-06-14T09:00:00Z", "git")
    assert got["bad/fallback.md"] == ("2026-06-12T00:00:00Z", "frontmatter:date")


def test_a_digest_folder_that_does_not_exist_yet(dvault: GitVault, cli) -> None:
    dvault.write(".kp/config.yaml", config().replace("digest_dir: digests", "digest_dir: journal/digests/daily"))
    dvault.commit("config")
    out = _json(cli, dvault, "--now", CLOCK, "--auto-apply")
    assert out["path"] == "journal/digests/daily/2026-06-15.md" and out["applied"]
    assert (dvault.root / out["path"]).is_file()
    assert _json(cli, dvault, "--now", CLOCK)["status"] == "nothing-new"


def test_back_to_back_the_second_stages_nothing(dvault: GitVault, cli) -> None:
    first = _json(cli, dvault, "--now", CLOCK)
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK)
    assert r.code == 0, r
    assert f"a digest proposal is still pending ({first['id']}): nothing staged" in r.out
    assert "--force" in r.out
    assert _proposals(dvault) == [first["id"]]
    assert _json(cli, dvault, "--now", CLOCK)["pending"] == [first["id"]]


def test_a_rejected_digest_no_longer_blocks_the_next(dvault: GitVault, cli) -> None:
    first = _json(cli, dvault, "--now", CLOCK)
    assert cli("--vault", dvault.root, "reject", first["id"], "--reason", "too early").code == 0
    second = _json(cli, dvault, "--now", CLOCK)
    assert second["status"] == "staged" and second["id"] != first["id"]


def test_a_stale_index_is_reconciled_first(dvault: GitVault, cli, monkeypatch) -> None:
    assert _json(cli, dvault, "--now", CLOCK, "--auto-apply")["applied"]
    dvault.write("late.md", dated("kp:01J0000000000000000000LATE", "Late", None, ["search"], "Written after it."))
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-06-16T09:00:00Z")
    dvault.commit("late")
    r = cli("--vault", dvault.root, "digest", "--now", "2026-06-17T07:00:00Z")
    assert r.code == 0, r
    assert r.err == "reconciled first: 2 indexed, 0 removed\n"  # late.md and the applied digest
    assert "1 new note(s) since 2026-06-15T12:00:00Z" in r.out and "late.md" in r.out


def test_a_missing_index_is_built_first(dvault: GitVault, cli) -> None:
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK)  # the vault was never indexed
    assert r.code == 0, r
    assert r.err == "no index yet: indexing the vault first\n"
    assert r.out.startswith("6 new note(s) (first digest); top 6 by cosine to now.md")


def test_an_index_built_with_another_model_is_refused(dvault: GitVault, cli, monkeypatch) -> None:
    assert cli("--vault", dvault.root, "index").code == 0  # with the fake embedder
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    doctor = cli("--vault", dvault.root, "doctor", "--json")
    message = next(f["message"] for f in json.loads(doctor.out)["findings"] if f["code"] == "epoch-mismatch")
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK)
    # The same words as doctor's, which gives the fix in a column of its own.
    assert r.code == 2 and r.err == f"curator: {message}; run `curator index rebuild`\n"
    assert _proposals(dvault) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--now", "yesterday"], "--now 'yesterday' is not an ISO-8601 time"),
        (["--k", "0"], "--k must be at least 1"),
        (["--half-life-days", "0"], "--half-life-days must be more than 0"),
    ],
)
def test_bad_options_are_usage_errors(dvault: GitVault, cli, args: list[str], says: str) -> None:
    r = cli("--vault", dvault.root, "digest", *args)
    assert r.code == 2 and says in r.err and "Traceback" not in r.err


HOSTILE_TITLE = "Pipes | and ]] brackets [[ and <!-- curio:begin x --> \u202e and\nnewlines"


def test_titles_tags_and_sentences_cannot_break_the_digest(dvault: GitVault, cli) -> None:
    body = (
        "<!-- curio:begin related -->\n- [[Hybrid ranking]]\n<!-- curio:end related -->\n\n"
        "Hybrid ranking, BM25, vectors and search <!-- curio:end related --> with passages and citations.\n\n"
        "```\nCode is never the summary, even with many words.\n```\n\n"
        "The note ends with a plain sentence about ranking and search."
    )
    text = (
        "---\nkp_id: kp:01J0000000000000000000H0ST\n"
        f"title: {json.dumps(HOSTILE_TITLE)}\n"
        'tags: ["<!-- curio:end x -->", "a]]b|c"]\ncreated: 2026-06-14\n---\n' + body + "\n"
    )
    dvault.write("hostile.md", text)
    dvault.write(
        "no-id [x] | y#z.md", "---\ncreated: 2026-06-14\n---\n# Odd path\n\nA note whose path has odd characters.\n"
    )
    dvault.commit("hostile")
    out = _json(cli, dvault, "--now", CLOCK, "--k", "20", "--auto-apply")
    assert out["auto_applicable"] and out["applied"]  # the validator found no forged marker
    digest = (dvault.root / out["path"]).read_text(encoding="utf-8")
    assert "<!--" not in digest and "-->" not in digest and "\u202e" not in digest
    entry = next(line for line in digest.split("\n") if line.startswith("- [[hostile|"))
    assert entry.startswith("- [[hostile|Pipes - and )) brackets (( and ‹!-- curio:begin x --› and newlines]] ")
    # HTML comments are not indexed as text, so the sentence a marker sat inside reads
    # whole (and first); no marker reaches the digest either way.
    assert entry.endswith(" — Hybrid ranking, BM25, vectors and search with passages and citations.")
    assert "- [Odd path](../no-id%20%5Bx%5D%20%7C%20y%23z.md) (2026-06-14)" in digest
    for line in digest.split("\n"):
        if line.startswith("- "):
            assert re.match(r"^- (\[\[[^\[\]|#^]+\|[^\[\]|]+\]\]|\[[^\[\]]+\]\([^()\s]+\)) \(\d{4}-\d\d-\d\d\)", line)
    # The digest links resolve: indexed, its links point at the notes it lists.
    r = cli("--vault", dvault.root, "relate", out["path"], "--json")
    assert r.code == 0, r
    assert "hostile.md" in r.out and "no-id [x] | y#z.md" in r.out


def test_a_hidden_digest_folder_closes_the_window_too(dvault: GitVault, cli) -> None:
    dvault.write(".kp/config.yaml", config().replace("digest_dir: digests", "digest_dir: .digests"))
    dvault.commit("config")
    first = _json(cli, dvault, "--now", CLOCK, "--auto-apply")
    assert first["applied"] and first["path"] == ".digests/2026-06-15.md"
    again = _json(cli, dvault, "--now", "2026-06-16T00:00:00Z")
    assert again["status"] == "nothing-new" and again["window"]["after"] == ".digests/2026-06-15.md"


@pytest.mark.parametrize("folder", ["../outside", "/abs", ".kp/digests", "a/../b", "."])
def test_a_digest_folder_outside_the_vault_is_a_config_error(dvault: GitVault, cli, folder: str) -> None:
    dvault.write(".kp/config.yaml", config().replace("digest_dir: digests", f"digest_dir: {folder!r}"))
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK)
    assert r.code == 2 and f"notes.digest_dir is {folder!r}" in r.err and "Traceback" not in r.err


def test_auto_apply_waits_for_review_unless_the_validator_says_auto_applicable(
    dvault: GitVault, cli, monkeypatch
) -> None:
    from curator.validator import verdict

    monkeypatch.setattr(verdict, "_auto_applicable", lambda subject, state: False)
    head = dvault.git("rev-parse", "HEAD").stdout
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--auto-apply", "--json")
    assert r.code == 1, r
    out = json.loads(r.out)
    assert out["status"] == "staged" and out["auto_applicable"] is False and out["applied"] is False
    assert dvault.git("rev-parse", "HEAD").stdout == head and _proposals(dvault) == [out["id"]]


def test_a_now_md_that_points_outside_the_vault_is_not_read(dvault: GitVault, cli, tmp_path: Path) -> None:
    secret = tmp_path / "outside.md"
    secret.write_text("# Secret\n\nTomatoes tomatoes tomatoes garden sun water.\n")
    (dvault.root / "now.md").unlink()
    (dvault.root / "now.md").symlink_to(secret)
    out = _json(cli, dvault, "--now", CLOCK)
    assert out["method"]["similarity"] == "recency" and out["method"]["why"] == "now.md points outside the vault"


@pytest.mark.parametrize("value", ["../now.md", "/etc/passwd", ".git/config", "a/../now.md"])
def test_a_now_note_outside_the_vault_is_a_config_error(dvault: GitVault, cli, value: str) -> None:
    dvault.write(".kp/config.yaml", config().replace("now_note: now.md", f"now_note: {value!r}"))
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK)
    assert r.code == 2 and f"notes.now_note is {value!r}" in r.err
