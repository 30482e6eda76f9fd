"""KP011: a secret a proposal adds is a warning naming its kind, never its value, and never blocks."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator import leaks
from curator.operations.gather import unified
from curator.proposals import store
from curator.settings import Settings
from curator.validator.state import RepoState
from curator.validator.verdict import validate_proposal
from curator.vault import find_vault
from curator.vault.identity import mint
from tests.builders import created, make_proposal, modify
from tests.conftest import GitVault, note, run_process

AWS = "AKIA9H2J3K4L5M6N7P8Q"
PASSWORD = "correcthorsebatterystaple"
HEX = "0123456789abcdef0123456789abcdef"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAxq9vPq8e3H0kFt2wNw\nc2VjcmV0LWJvZHktbGluZQ==\n-----END RSA PRIVATE KEY-----"
SECRETS = (AWS, PASSWORD, HEX, "MIIEpAIBAAKCAQEAxq9vPq8e3H0kFt2wNw")


def _report(vault: GitVault, pid: str) -> tuple[dict[str, Any], str, int]:
    as_json = run_process("--vault", vault.root, "validate", pid, "--format", "json")
    as_text = run_process("--vault", vault.root, "validate", pid)
    assert as_json.returncode == as_text.returncode
    return (
        json.loads(as_json.stdout)["proposals"][0],
        as_json.stdout + as_text.stdout + as_text.stderr,
        as_text.returncode,
    )


def _kp011(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["code"] == "KP011"]


PLAIN = (
    "See commit 3f5e2b8c9d0a1b2c3d4e5f60718293a4b5c6d7e8 and proposal 01M8HEE5Z0RZHG7NJCZMDBD2MF.\n"
    "The link [spec](https://example.org/a/2ceb1d0a-990f-4b55-8a52-3c4d5e6f7a8b) is public.\n"
    "Set `password: ${DB_PASSWORD}` in the template; the token type is bearer.\n"
    "A password is required for login.\n"
)


def test_a_new_note_with_secrets_is_valid_with_a_warning_for_each(vault: GitVault) -> None:
    content = (
        f"---\nkp_id: {mint()}\ntitle: Deploy\npassword: {PASSWORD}\nservice:\n  token: |\n    {HEX}\n---\n"
        f"# Deploy\n\nThe bucket key is {AWS}.\n\n{PEM}\n\nNothing else here.\n"
    )
    c, f = created("notes/deploy.md", content)
    odd_case = "kp:01jAbCdEfGhJkMnPqRsTvWxYz0"  # an identity in mixed case reads as random text: no secret
    plain, plain_file = created(
        "notes/plain.md", f"---\nkp_id: {odd_case}\ntitle: Plain\ntags: [ops, secrets]\n---\n{PLAIN}"
    )
    pid = make_proposal(vault, [c, plain], files={**f, **plain_file})
    report, out, code = _report(vault, pid)
    assert code == 0 and report["ok"], report  # a person decides
    assert not report["auto_applicable"]
    warned = _kp011(report)
    assert warned and all(w["warning"] and w["path"] == "notes/deploy.md" for w in warned), warned
    assert [f for f in warned if f["path"] == "notes/plain.md"] == []  # prose, SHAs, ULIDs, UUIDs
    by_line = {w.get("line"): w["message"] for w in warned}
    assert "Assigned Secret" in by_line[4]  # password: … in the frontmatter
    assert "service.token" in by_line[6] and "Assigned Secret" in by_line[6]  # a multi-line value
    assert "AWS Access Key" in by_line[11]
    assert "lines 13-16" in by_line[13] and "Private Key" in by_line[13]  # the block, as one warning
    assert set(by_line) == {4, 6, 11, 13}, by_line  # not the prose, the fences or the kp_id
    assert "warning: " in out
    for secret in SECRETS:
        assert secret not in out, secret


def test_a_modify_warns_for_the_lines_it_adds_not_for_secrets_the_note_held(vault: GitVault) -> None:
    vault.write("notes/ops.md", note("kp:01J0000000000000000000OPSS", "Ops", f"Old key: {AWS}\nSecond line.\n"))
    vault.commit("ops")
    old = vault.read("notes/ops.md")
    moved = old.replace(f"Old key: {AWS}\nSecond line.\n", f"Second line.\nOld key: {AWS}\n")
    c, d = modify(vault, "notes/ops.md", moved)
    report, _out, code = _report(vault, make_proposal(vault, [c], diff=d))
    assert code == 0 and _kp011(report) == [], report  # the key was already there: nothing is added

    added = old.replace("Second line.\n", f"Second line.\nDB_PASSWORD={PASSWORD}\n")
    c, d = modify(vault, "notes/ops.md", added)
    report, out, code = _report(vault, make_proposal(vault, [c], diff=d))
    warned = _kp011(report)
    assert (
        code == 0
        and report["ok"]
        and [w["line"] for w in warned] == [added.split("\n").index(f"DB_PASSWORD={PASSWORD}") + 1]
    ), report
    assert "Assigned Secret" in warned[0]["message"] and PASSWORD not in out


def test_a_changed_frontmatter_value_is_judged_with_its_key(vault: GitVault) -> None:
    base = "---\nkp_id: kp:01J0000000000000000000CFGG\ntitle: Config\ntoken: |\n  placeholder\n---\n# Config\n"
    vault.write("notes/config.md", base)
    vault.commit("config")
    c, d = modify(vault, "notes/config.md", base.replace("  placeholder\n", f"  {HEX}\n"))
    report, out, _code = _report(vault, make_proposal(vault, [c], diff=d))
    warned = _kp011(report)
    assert len(warned) == 1 and "'token'" in warned[0]["message"] and warned[0]["line"] == 4, report
    assert HEX not in out


def test_a_key_that_is_itself_a_secret_is_not_spelled_out(vault: GitVault) -> None:
    content = f"---\nkp_id: {mint()}\ntitle: Odd\n{AWS}: {PASSWORD}\n---\n# Odd\n"
    c, f = created("notes/odd.md", content)
    report, out, _code = _report(vault, make_proposal(vault, [c], files=f))
    assert _kp011(report) and AWS not in out and PASSWORD not in out, report


# What the scanner reads of a modify: the neighbourhood of its hunks, not the whole note.

LINES = [
    "plain prose about the garden",
    "",
    "password: |",
    "  Zq8vN2xL5pR7tY3wK9mB4cH6",
    "passwords:",
    "  - s3cr3tP4ssw0rdXy",
    "- a list item",
    "    deeply indented",
    "  nested: value",
    f"The bucket key is {AWS}.",
    f"DB_PASSWORD={PASSWORD}",
    "token: Zq8vN2xL5pR7tY3wK9mB4cH6",
    "api_key:",
    "---",
    "# Heading",
    "  hunter2hunter2hunter2",
    "  api_key=Zq8vN2xL5pR7tY3wK9mB4cH6",
    "secret: >-",
    "  - password: Zq8vN2xL5pR7tY3wK9mB4cH6",
    "\tZq8vN2xL5pR7tY3wK9mB4cH6",
]


def _scanned_apart(pre: str, post: str) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """(what the rule takes as added by the change, what a scan of the whole notes does)."""
    from curator.proposals.diff import parse
    from curator.proposals.hunks import place
    from curator.proposals.manifest import Change
    from curator.validator.rules import secrets
    from curator.validator.subject import ChangeView

    (patch,) = parse(unified("n.md", pre.encode(), post.encode()))
    made, placed = place(pre, patch.hunks)
    assert made == post
    view = ChangeView(Change(op="modify", path="n.md", base_blob="0" * 40), patch=patch)
    view.current_bytes, view.post_from_current, view.current_placed = pre.encode(), made, placed
    found, before, lines = secrets._added(view, pre, post, placed)
    windowed = Counter((k.kind, lines[k.line][k.start : k.end]) for k in found) - before
    whole = secrets._values(post, leaks.scan(post)) - secrets._values(pre, leaks.scan(pre))
    return windowed, whole


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(LINES), min_size=1, max_size=30),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 2), st.sampled_from(LINES)), min_size=1, max_size=4),
)
def test_the_change_s_neighbourhood_finds_what_the_whole_notes_find(
    before: list[str], edits: list[tuple[int, int, str]]
) -> None:
    after = list(before)
    for at, how, line in edits:  # 0 insert, 1 replace, 2 delete
        at = min(at, len(after))
        if how == 0 or at == len(after):
            after.insert(at, line)
        elif how == 1:
            after[at] = line
        else:
            del after[at]
    pre, post = "\n".join(before) + "\n", "\n".join(after) + "\n"
    if pre == post:
        return
    windowed, whole = _scanned_apart(pre, post)
    assert windowed == whole


def test_a_key_added_above_a_value_the_note_held_makes_it_a_secret() -> None:
    # The value's line is not changed; the key line above it makes the scanner read it as a secret.
    pre = "# Notes\n\nintro\n  Zq8vN2xL5pR7tY3wK9mB4cH6\nend\n"
    post = "# Notes\n\nintro\npassword: |\n  Zq8vN2xL5pR7tY3wK9mB4cH6\nend\n"
    windowed, whole = _scanned_apart(pre, post)
    assert windowed == whole and windowed, windowed


def test_a_modify_scans_the_lines_around_its_hunks_not_the_whole_note(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = "\n\n".join(f"Paragraph {i} about the garden and the compost heap." for i in range(2000))
    vault.write("notes/long.md", note("kp:01J0000000000000000000LONG", "Long", body + "\n"))
    vault.commit("long")
    old = vault.read("notes/long.md")
    new = old.replace("Paragraph 1000 about", f"DB_PASSWORD={PASSWORD}\n\nParagraph 1000 about")
    c, d = modify(vault, "notes/long.md", new)
    pid = make_proposal(vault, [c], diff=d)

    scanned: list[str] = []
    real = leaks.scan_line

    def counted(line: str, index: int = 0, *, high_entropy: bool = True) -> list[leaks.Leak]:
        scanned.append(line)
        return real(line, index, high_entropy=high_entropy)

    monkeypatch.setattr(leaks, "scan_line", counted)
    leaks._remembered.cache_clear()
    report = validate_proposal(RepoState(find_vault(str(vault.root)), Settings()), store.load(vault.root, pid))
    warned = [f for f in report.findings if f.code == "KP011"]
    assert [f.line for f in warned] == [new.split("\n").index(f"DB_PASSWORD={PASSWORD}") + 1], warned
    assert len(scanned) < 20, len(scanned)  # the note has 2,000 paragraphs, before and after


def test_a_person_s_own_uncommitted_secret_is_not_the_proposal_s(vault: GitVault) -> None:
    middle = "".join(f"Line {i}.\n" for i in range(12))
    vault.write("notes/ops.md", note("kp:01J0000000000000000000OPSS", "Ops", f"First line.\n{middle}Last line.\n"))
    vault.commit("ops")
    old = vault.read("notes/ops.md")
    c, d = modify(vault, "notes/ops.md", old.replace("Last line.", "Last line, edited by the proposal."))
    pid = make_proposal(vault, [c], diff=d)
    # The person pastes a key into the note and has not committed it: applying the proposal
    # commits its own line onto HEAD's note, and leaves this one uncommitted, as it was.
    vault.write("notes/ops.md", old.replace("First line.", f"First line. Key {AWS}"))
    report, _out, code = _report(vault, pid)
    assert code == 0 and report["drift"] == "drifted" and _kp011(report) == [], report
