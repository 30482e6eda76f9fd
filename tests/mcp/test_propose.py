"""kp_propose and kp_proposal through the service the tools call (no server process needed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pygit2
import pytest

from curator.commands.app import App
from curator.mcp.service import Service
from tests.conftest import GitVault, run_process


@pytest.fixture
def service(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> Service:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    assert cli("--vault", vault.root, "index").code == 0
    return Service(*App(vault_arg=str(vault.root)).place(), author="tester")


def _objects(vault: GitVault) -> set[str]:
    return {str(o) for o in pygit2.Repository(str(vault.root)).odb}


def test_a_diff_a_create_and_the_status_after_apply(service: Service, vault: GitVault) -> None:
    blob = service.read("notes/beta.md").data["blob"]
    answer = service.propose(
        "Expand beta",
        "beta needs a second line",
        [
            {
                "op": "modify",
                "path": "notes/beta.md",
                "blob": blob,
                "diff": "@@ -6,3 +6,4 @@\n \n Beta text.\n+More beta.\n \n",
            },
            {"op": "create", "path": "notes/gamma.md", "content": "# Gamma\n\nNew.\n"},
        ],
    )
    made = answer.data
    assert made["verdict"] == "valid", made
    # The reply names the proposal's folder as it is: a ULID is not a secret to redact.
    assert f".kp/proposals/{made['id']}/" in answer.text and "REDACTED" not in answer.text
    manifest = (vault.root / ".kp" / "proposals" / made["id"] / "proposal.yaml").read_text()
    assert "kind: agent" in manifest and "name: tester" in manifest
    assert service.proposal(made["id"]).data["status"] == "pending"
    applied = run_process("--vault", vault.root, "apply", made["id"], "--yes")
    assert applied.returncode == 0, applied.stderr
    assert vault.read("notes/beta.md").endswith("Beta text.\nMore beta.\n\n")
    after = service.proposal(made["id"]).data
    assert after["status"] == "applied" and [e["event"] for e in after["events"]] == ["applied"]


def test_an_uncommitted_note_can_be_proposed_against_and_a_rejection_stores_nothing(
    service: Service, vault: GitVault
) -> None:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md") + "Uncommitted line.\n")
    page = service.read("notes/alpha.md").data
    objects = _objects(vault)
    rejected = service.propose(
        "Forge alpha's identity",
        "rejected on purpose",
        [
            {
                "op": "modify",
                "path": "notes/alpha.md",
                "blob": page["blob"],
                "content": vault.read("notes/alpha.md").replace("ALPH", "XXXX"),
            }
        ],
    ).data
    assert rejected["verdict"] == "rejected" and {f["code"] for f in rejected["findings"]} == {"KP006"}
    assert _objects(vault) == objects  # not even a git object is left of it
    made = service.propose(
        "Finish alpha",
        "the person's draft line needs an end",
        [
            {
                "op": "modify",
                "path": "notes/alpha.md",
                "blob": page["blob"],
                "content": vault.read("notes/alpha.md") + "The end.\n",
            }
        ],
    ).data
    assert made["verdict"] == "valid", made
    assert _objects(vault) - objects == {page["blob"]}  # the version the agent read, for later validations
    checked = run_process("--vault", vault.root, "validate", made["id"])
    assert checked.returncode == 0, checked.stdout


def test_bad_arguments_are_usage_errors(service: Service) -> None:
    from curator.errors import NotFound, UsageError

    with pytest.raises(UsageError):
        service.propose("two\nlines", "r", [{"op": "create", "path": "notes/x.md", "content": "# x\n"}])
    with pytest.raises(UsageError):
        service.propose("title", "  ", [{"op": "create", "path": "notes/x.md", "content": "# x\n"}])
    with pytest.raises(UsageError):
        service.propose("title", "r", [])
    with pytest.raises(NotFound):
        service.proposal("01J00000000000000000000000")
    no_blob = service.propose("t", "r", [{"op": "modify", "path": "notes/beta.md", "content": "x"}]).data
    assert no_blob["findings"][0]["code"] == "KP005" and "blob" in no_blob["findings"][0]["message"]


def test_without_the_sdk_the_command_says_how_to_install_it(vault: GitVault) -> None:
    probe = "import sys; sys.modules['mcp'] = None\nfrom curator.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    r = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(vault.root), "mcp"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "curator[mcp]" in r.stderr and "Traceback" not in r.stderr
    assert json.dumps(r.stdout) == '""'


def test_an_agent_s_proposal_keeps_its_verdict_as_it_is_staged(service: Service, vault: GitVault) -> None:
    """The review then shows the verdict at once: the validator judged it to stage it."""
    import os
    import time

    past = time.time() - 60
    for folder, _dirs, files in os.walk(vault.root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past), follow_symlinks=False)
    made = service.propose("Gamma", "a new note", [{"op": "create", "path": "notes/gamma.md", "content": "# Gamma\n"}])
    ulid = made.data["id"]
    kept = os.path.join(service.index_dir, "verdicts", f"{ulid}.json")
    assert os.path.isfile(kept)
    listed = run_process("--vault", vault.root, "--json", "proposals")
    assert listed.returncode == 0 and ulid in listed.stdout
    with open(kept, encoding="utf-8") as f:
        assert json.load(f)["verdict"]["ok"] is True
