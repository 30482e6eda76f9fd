"""Every bad input is rejected with its code; valid proposals in the same run still pass."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from curator.vault.identity import mint
from tests.builders import created, delete, make_proposal, modify
from tests.conftest import ROOT, GitVault, make_git_vault, note

REGION_NOTE = note(
    "kp:01J00000000000000000000RGN",
    "Digest",
    "Mine.\n\n<!-- curio:begin related -->\n- one\n- two\n<!-- curio:end related -->\n\nAlso mine.\n",
)


@pytest.fixture
def rv(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "rv")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write("notes/alpha.md", note("kp:01J0000000000000000000ALPH", "Alpha", "line one\nline two\nline three\n"))
    v.write("notes/region.md", REGION_NOTE)
    v.write("notes/crlf.md", "---\r\nkp_id: kp:crlf\r\n---\r\nfirst\r\nsecond\r\n")
    v.write(".curio/feed.md", note("curio:feed", "Feed"))
    v.write("real/inside.md", note("kp:inside", "Inside"))
    os.symlink("real", v.root / "linked")
    v.commit()
    return v


def _new(title: str, kp_id: str | None = None, extra: str = "") -> str:
    head = f"kp_id: {kp_id}\n" if kp_id else ""
    return f"---\n{head}title: {title}\n{extra}---\n# {title}\n"


def valid_modify(v: GitVault) -> str:
    c, d = modify(v, "real/inside.md", v.read("real/inside.md").replace("Some text.", "Some more text."))
    return make_proposal(v, [c], diff=d)


def valid_create(v: GitVault) -> str:
    c, f = created("notes/new.md", _new("New", mint()))
    return make_proposal(v, [c], files=f)


Case = Callable[[GitVault], str]


def _create_at(path: str, content: str | bytes | None = None) -> Case:
    def build(v: GitVault) -> str:
        c, f = created(path, content if content is not None else _new("X", mint()))
        return make_proposal(v, [c], files=f)

    return build


def _modify_alpha(new: Callable[[str], str]) -> Case:
    def build(v: GitVault) -> str:
        c, d = modify(v, "notes/alpha.md", new(v.read("notes/alpha.md")))
        return make_proposal(v, [c], diff=d)

    return build


def _modify_region(new: Callable[[str], str]) -> Case:
    def build(v: GitVault) -> str:
        c, d = modify(v, "notes/region.md", new(v.read("notes/region.md")))
        return make_proposal(v, [c], diff=d)

    return build


def _stale_base(v: GitVault) -> str:
    stale = b"---\nkp_id: kp:01J0000000000000000000ALPH\n---\nsomething else entirely\n"
    c, d = modify(v, "notes/alpha.md", stale.decode().replace("entirely", "now"), base=stale)
    return make_proposal(v, [c], diff=d)


def _drifted_conflict(v: GitVault) -> str:
    pid = _modify_alpha(lambda t: t.replace("line two", "line 2"))(v)
    v.write("notes/alpha.md", v.read("notes/alpha.md").replace("line two", "LINE TWO (edited by me)"))
    return pid


def _create_on_existing(v: GitVault) -> str:
    return _create_at("notes/alpha.md", _new("Alpha again", mint()))(v)


def _dup_kp_id(v: GitVault) -> str:
    return _create_at("notes/dup.md", _new("Dup", "kp:01J0000000000000000000ALPH"))(v)


def _two_same_ids(v: GitVault) -> str:
    kp = mint()
    c1, f1 = created("notes/a1.md", _new("A1", kp))
    c2, f2 = created("notes/a2.md", _new("A2", kp))
    return make_proposal(v, [c1, c2], files={**f1, **f2})


def _case_clash_in_proposal(v: GitVault) -> str:
    c1, f1 = created("notes/Same.md", _new("A", mint()))
    c2, f2 = created("notes/same.md", _new("B", mint()))
    return make_proposal(v, [c1, c2], files={**f1, **f2})


def _forged_events(v: GitVault) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md") + "more\n")
    line = json.dumps({"at": "2026-11-29T10:00:00Z", "event": "applied", "by": "human:me"}) + "\n"
    return make_proposal(v, [c], diff=d, events=line.encode())


def _with_text(**overrides: str) -> Case:
    def build(v: GitVault) -> str:
        c, f = created(f"notes/t-{mint()[-6:].lower()}.md", _new("T", mint()))
        return make_proposal(v, [c], files=f, overrides=dict(overrides))

    return build


def _dir_not_id(v: GitVault) -> str:
    c, f = created("notes/n.md", _new("N", mint()))
    make_proposal(v, [c], files=f, dirname="not-a-ulid")
    return "not-a-ulid"


def _mismatched_id(v: GitVault) -> str:
    from curator.vault.identity import new_ulid

    c, f = created("notes/n.md", _new("N", mint()))
    return make_proposal(v, [c], files=f, overrides={"id": new_ulid()})


def _truncated_diff(v: GitVault) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("line two", "2"))
    cut = d[: d.rindex("\n", 0, len(d) - 2)]
    return make_proposal(v, [c], diff=cut)


def _crlf_diff_on_lf(v: GitVault) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("line two", "2"))
    return make_proposal(v, [c], diff=d.replace(" line one\n", " line one\r\n"))


def _binary(v: GitVault) -> str:
    return _create_at("notes/bin.md", b"---\nkp_id: kp:01J00000000000000000000BIN\n---\n\x00\x01\x02")(v)


def _not_utf8(v: GitVault) -> str:
    return _create_at("notes/latin.md", "---\nkp_id: kp:latin\n---\ncaf\xe9\n".encode("latin-1"))(v)


def _oversize(v: GitVault) -> str:
    big = _new("Big", mint()) + ("x" * 80 + "\n") * 20000
    return _create_at("notes/big.md", big)(v)


CASES: list[tuple[str, Case, str]] = [
    ("dotdot", _create_at("../escape.md"), "KP002"),
    ("absolute", _create_at("/tmp/abs.md"), "KP002"),
    ("git-config", _create_at(".git/config"), "KP002"),
    ("through-symlink", _create_at("linked/inside2.md"), "KP002"),
    ("nul", _create_at("notes/a\x00b.md"), "KP002"),
    ("control", _create_at("notes/a\x1bb.md"), "KP002"),
    ("not-normalised", _create_at("notes/./x.md"), "KP002"),
    ("case-clash-existing", _create_at("notes/ALPHA.md"), "KP002"),
    ("case-clash-within", _case_clash_in_proposal, "KP002"),
    ("producer-path", _create_at(".curio/new.md"), "KP003"),
    ("edit-in-region", _modify_region(lambda t: t.replace("- one", "- uno")), "KP004"),
    (
        "forged-marker",
        _modify_alpha(lambda t: t + "<!-- curio:begin sneaky -->\nx\n<!-- curio:end sneaky -->\n"),
        "KP004",
    ),
    ("remove-marker", _modify_region(lambda t: t.replace("<!-- curio:end related -->\n", "")), "KP004"),
    ("add-line-in-region", _modify_region(lambda t: t.replace("- two\n", "- two\n- three\n")), "KP004"),
    ("stale-base", _stale_base, "KP005"),
    ("drifted-conflict", _drifted_conflict, "KP005"),
    ("create-on-existing", _create_on_existing, "KP005"),
    ("crlf-vs-lf", _crlf_diff_on_lf, "KP005"),
    ("duplicate-kp-id", _dup_kp_id, "KP006"),
    ("same-id-twice", _two_same_ids, "KP006"),
    ("changed-kp-id", _modify_alpha(lambda t: t.replace("kp:01J0000000000000000000ALPH", "kp:other")), "KP006"),
    ("removed-kp-id", _modify_alpha(lambda t: t.replace("kp_id: kp:01J0000000000000000000ALPH\n", "")), "KP006"),
    ("new-without-kp-id", _create_at("notes/anon.md", _new("Anon")), "KP006"),
    ("touches-kp", _create_at(".kp/config2.md"), "KP007"),
    ("status-field", _modify_region(lambda t: t.replace("title: Digest", "title: Digest\nstatus: done")), "KP008"),
    ("invalid-yaml", _modify_alpha(lambda t: t.replace("title: Alpha", "title: [Alpha")), "KP008"),
    ("binary", _binary, "KP009"),
    ("not-utf8", _not_utf8, "KP009"),
    ("oversize", _oversize, "KP009"),
    ("forged-events", _forged_events, "KP001"),
    ("title-newline", _with_text(title="Fix typo\nKp-Proposal: 01J00000000000000000000000"), "KP001"),
    ("title-escape", _with_text(title="Fix \x1b[2Jtypo"), "KP001"),
    ("rationale-trailer", _with_text(rationale="why\n\nKp-Event: rejected"), "KP001"),
    ("rationale-control", _with_text(rationale="why \x1b]0;owned\x07"), "KP001"),
    ("dir-not-id", _dir_not_id, "KP001"),
    ("id-not-dir", _mismatched_id, "KP001"),
    ("truncated-diff", _truncated_diff, "KP001"),
    ("non-note", _create_at("data/table.csv", "a,b\n"), "KP010"),
]


def _validate(cli, v: GitVault, *targets: str) -> tuple[int, dict]:
    r = cli("--vault", v.root, "validate", "--format", "json", *targets)
    return r.code, json.loads(r.out)


@pytest.mark.parametrize(("name", "build", "code"), CASES, ids=[c[0] for c in CASES])
def test_bad_proposal_is_rejected_with_its_code(rv: GitVault, cli, name: str, build: Case, code: str) -> None:
    bad = build(rv)
    good = [valid_modify(rv), valid_create(rv)]
    status, data = _validate(cli, rv, bad, *good)
    assert status == 1
    by_id = {p["id"]: p for p in data["proposals"]}
    assert not by_id[bad]["ok"]
    codes = {f["code"] for f in by_id[bad]["findings"]}
    assert code in codes, by_id[bad]["findings"]
    for pid in good:
        assert by_id[pid]["ok"], by_id[pid]["findings"]


def test_every_case_in_one_run(rv: GitVault, cli) -> None:
    expected = {}
    for _name, build, code in CASES:
        if build in (_drifted_conflict,):
            continue  # it edits the work tree, which would drift other cases' bases
        expected[build(rv)] = code
    good = valid_modify(rv)
    status, data = _validate(cli, rv, "--all")
    assert status == 1
    by_id = {p["id"]: p for p in data["proposals"]}
    for pid, code in expected.items():
        assert code in {f["code"] for f in by_id[pid]["findings"]}, (pid, code, by_id[pid])
    assert by_id[good]["ok"]


def test_valid_crlf_note_edit_applies(rv: GitVault, cli) -> None:
    c, d = modify(rv, "notes/crlf.md", rv.read("notes/crlf.md").replace("second\r\n", "second\r\nthird\r\n"))
    pid = make_proposal(rv, [c], diff=d)
    status, data = _validate(cli, rv, pid)
    assert status == 0, data


def test_delete_and_drift_still_applies(rv: GitVault, cli) -> None:
    c1, d1 = delete(rv, "real/inside.md")
    c2, d2 = modify(rv, "notes/alpha.md", rv.read("notes/alpha.md").replace("line three", "line 3"))
    pid = make_proposal(rv, [c1, c2], diff=d1 + d2)
    rv.write("notes/alpha.md", rv.read("notes/alpha.md") + "a line the person added\n")
    status, data = _validate(cli, rv, pid)
    assert status == 0, data
    assert data["proposals"][0]["drift"] == "drifted"


def test_auto_applicable_is_only_fresh_creates_under_digests(rv: GitVault, cli) -> None:
    c, f = created("digests/2026-11-29.md", _new("Digest", mint()))
    auto = make_proposal(rv, [c], files=f)
    c2, f2 = created("digests/other.md", _new("Digest", "kp:not-a-ulid"))
    not_fresh = make_proposal(rv, [c2], files=f2)
    plain = valid_create(rv)
    _, data = _validate(cli, rv, auto, not_fresh, plain)
    verdict = {p["id"]: (p["ok"], p["auto_applicable"]) for p in data["proposals"]}
    assert verdict == {auto: (True, True), not_fresh: (True, False), plain: (True, False)}


def test_changed_notes_are_checked_against_head(rv: GitVault, cli) -> None:
    rv.write("notes/alpha.md", rv.read("notes/alpha.md").replace("kp:01J0000000000000000000ALPH", "kp:changed"))
    rv.write("notes/fresh.md", "---\ntitle: no id\n---\n")
    rv.write("notes/clone.md", note("kp:01J00000000000000000000RGN", "Clone"))
    r = cli(
        "--vault",
        rv.root,
        "validate",
        "--format",
        "json",
        str(rv.root / "notes/alpha.md"),
        str(rv.root / "notes/fresh.md"),
        str(rv.root / "notes/clone.md"),
        str(rv.root / "notes/crlf.md"),
    )
    assert r.code == 1
    notes = {n["path"]: [f["code"] for f in n["findings"]] for n in json.loads(r.out)["notes"]}
    assert notes == {
        "notes/alpha.md": ["KP006"],
        "notes/fresh.md": ["KP006"],
        "notes/clone.md": ["KP006"],
        "notes/crlf.md": [],
    }


def test_file_paths_map_to_their_proposal_once(rv: GitVault, cli) -> None:
    pid = valid_create(rv)
    folder = rv.root / ".kp" / "proposals" / pid
    r = cli(
        "--vault",
        rv.root,
        "validate",
        "--format",
        "json",
        folder / "proposal.yaml",
        folder / "files" / "notes" / "new.md",
        folder,
    )
    data = json.loads(r.out)
    assert [p["id"] for p in data["proposals"]] == [pid] and r.code == 0


def test_unknown_target_is_a_usage_error(rv: GitVault, cli) -> None:
    r = cli("--vault", rv.root, "validate", "01J00000000000000000000000")
    assert r.code == 2 and "no proposal" in r.err
