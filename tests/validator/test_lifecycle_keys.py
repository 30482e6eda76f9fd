"""KP008's line: a person's own `status:` is theirs; a proposal may not add a lifecycle key to a
note a producer owns (a managed region, a producer's kp_id namespace); the keys are config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.vault.identity import mint
from tests.builders import created, make_proposal, modify
from tests.conftest import ROOT, GitVault, make_git_vault, note

OWNED_BY_REGION = note(
    "kp:01J00000000000000000000RGN",
    "Reading list",
    "Mine.\n\n<!-- curio:begin related -->\n- one\n<!-- curio:end related -->\n",
)
OWNED_BY_NAMESPACE = "---\nkp_id: zotero:ABCD1234\ntitle: A paper\n---\n# A paper\n\nAbstract.\n"
PERSONS = note("kp:01J0000000000000000000PERS", "Dune")


@pytest.fixture
def lv(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "lv")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write("books/dune.md", PERSONS)
    v.write("reading.md", OWNED_BY_REGION)
    v.write("papers/paper.md", OWNED_BY_NAMESPACE)
    v.commit()
    return v


def _verdict(cli, v: GitVault, pid: str) -> tuple[int, list[dict]]:
    r = cli("--vault", v.root, "validate", "--format", "json", pid)
    data = json.loads(r.out)
    return r.code, data["proposals"][0]["findings"]


def _with_key(text: str, line: str) -> str:
    head, rest = text.split("\n", 1)
    return f"{head}\n{line}\n{rest}"


def test_a_persons_commit_with_status_is_never_refused(lv: GitVault, cli) -> None:
    lv.write("books/new-book.md", f"---\nkp_id: {mint()}\ntitle: New\nstatus: todo\n---\n# New\n")
    lv.write("books/dune.md", _with_key(PERSONS, "status: reading"))
    lv.git("add", "books/new-book.md", "books/dune.md")
    r = cli("--vault", lv.root, "validate", "--staged", "--format", "json")
    assert r.code == 0, r.out
    assert all(not n["findings"] for n in json.loads(r.out)["notes"]), r.out
    # A person may even add it to a producer's note: their commit is theirs (doctor warns).
    lv.git("commit", "-q", "--no-verify", "-m", "books")
    lv.write("reading.md", _with_key(OWNED_BY_REGION, "status: done"))
    lv.git("add", "reading.md")
    assert cli("--vault", lv.root, "validate", "--staged").code == 0


def test_a_proposal_may_set_status_on_a_persons_note(lv: GitVault, cli) -> None:
    c, d = modify(lv, "books/dune.md", _with_key(PERSONS, "status: done"))
    code, findings = _verdict(cli, lv, make_proposal(lv, [c], diff=d))
    assert code == 0 and not findings, findings
    c, f = created("books/other.md", f"---\nkp_id: {mint()}\ntitle: Other\nstatus: todo\n---\n# Other\n")
    code, findings = _verdict(cli, lv, make_proposal(lv, [c], files=f))
    assert code == 0 and not findings, findings


@pytest.mark.parametrize(
    ("path", "text", "producer"),
    [("reading.md", OWNED_BY_REGION, "curio"), ("papers/paper.md", OWNED_BY_NAMESPACE, "zotero")],
    ids=["managed-region", "producer-namespace"],
)
def test_a_proposal_adding_status_to_a_producers_note_is_kp008(
    lv: GitVault, cli, path: str, text: str, producer: str
) -> None:
    c, d = modify(lv, path, _with_key(text, "Status: done"))
    code, findings = _verdict(cli, lv, make_proposal(lv, [c], diff=d))
    assert code == 1
    [finding] = [f for f in findings if f["code"] == "KP008"]
    assert finding["path"] == path
    assert f"adds Status: to a note producer {producer} owns" in finding["message"]


def test_a_producer_note_that_already_had_the_key_may_keep_it(lv: GitVault, cli) -> None:
    lv.write("reading.md", _with_key(OWNED_BY_REGION, "status: done"))
    lv.commit("a person's status")
    edited = lv.read("reading.md").replace("Mine.", "Mine, edited.")
    c, d = modify(lv, "reading.md", edited)
    code, findings = _verdict(cli, lv, make_proposal(lv, [c], diff=d))
    assert code == 0, findings


def test_the_lifecycle_keys_are_config(lv: GitVault, cli) -> None:
    config = (ROOT / "curator" / "default_config.yaml").read_text()
    assert "lifecycle_keys: [status]" in config
    lv.write(".kp/config.yaml", config.replace("lifecycle_keys: [status]", "lifecycle_keys: [state]"))
    lv.commit("config")
    c, d = modify(lv, "reading.md", _with_key(OWNED_BY_REGION, "status: done"))
    assert _verdict(cli, lv, make_proposal(lv, [c], diff=d))[0] == 0
    c, d = modify(lv, "reading.md", _with_key(OWNED_BY_REGION, "state: archived"))
    code, findings = _verdict(cli, lv, make_proposal(lv, [c], diff=d))
    assert code == 1 and any("adds state:" in f["message"] for f in findings), findings


def test_doctor_passes_a_persons_status_and_warns_on_a_producers(lv: GitVault, cli) -> None:
    lv.write("books/dune.md", _with_key(PERSONS, "status: reading"))
    lv.commit()
    r = cli("--vault", lv.root, "doctor", "--json")
    data = json.loads(r.out)
    assert not any(f["code"] == "status-field" for f in data["findings"])
    lv.write("papers/paper.md", _with_key(OWNED_BY_NAMESPACE, "status: read"))
    lv.commit()
    r = cli("--vault", lv.root, "doctor", "--json", "--code", "status-field")
    data = json.loads(r.out)
    assert [(f["code"], f["path"]) for f in data["findings"]] == [("status-field", "papers/paper.md")]
    assert "producer zotero owns" in data["findings"][0]["message"]
    assert r.code == 0  # a warning: the note works today


def test_a_persons_status_does_not_fail_doctor(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "d")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("books/dune.md", _with_key(PERSONS, "status: todo"))
    v.commit()
    assert cli("--vault", v.root, "index").code == 0
    r = cli("--vault", v.root, "doctor")
    assert r.code == 0, r.out
