"""Secrets in the vault's *names* never leave the MCP server either: paths, folders, titles,
headings, link targets, tags and frontmatter keys, in every tool's text, frame attributes,
structured content and error messages, through the official SDK client."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from tests.conftest import GitVault, note
from tests.mcp.harness import connect, ok, text

PATH_KEY = "AKIA2E3F4G5H6J7K8L9F"
FOLDER_TOKEN = "ghp_Pp9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9Cb8A7"
TITLE_KEY = "AKIA3B4C5D6E7F8G9H2J"
HEADING_KEY = "AKIA4C5D6E7F8G9H2J3K"
LINK_KEY = "AKIA5D6E7F8G9H2J3K4L"
TAG_KEY = "AKIA6E7F8G9H2J3K4L5M"
FIELD_KEY = "AKIA7F8G9H2J3K4L5M6N"
PROPOSED_KEY = "AKIA8G9H2J3K4L5M6N7P"
SECRETS = (PATH_KEY, FOLDER_TOKEN, TITLE_KEY, HEADING_KEY, LINK_KEY, TAG_KEY, FIELD_KEY, PROPOSED_KEY)

PATH_NOTE = f"notes/{PATH_KEY}.md"
FOLDER_NOTE = f"{FOLDER_TOKEN}/n.md"
TITLED = f"""---
kp_id: kp:01J0000000000000000000TITL
title: Rotate {TITLE_KEY}
tags: [ops, {TAG_KEY}]
{FIELD_KEY}: rotated
---
# Rotate {TITLE_KEY}

## Old key {HEADING_KEY}

hello under a heading. Links to [[{LINK_KEY}]] and [[{PATH_KEY}#Keys]].
"""


@pytest.fixture
def named(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    vault.write(PATH_NOTE, note("kp:01J0000000000000000000PATH", "Path note", "## Keys\n\nhello from a file.\n"))
    vault.write(
        FOLDER_NOTE, note("kp:01J0000000000000000000FOLD", "Folder note", f"hello from a folder. See [[{PATH_KEY}]].\n")
    )
    vault.write("notes/titled.md", TITLED)
    vault.commit("notes named after keys")
    return vault


def _leaks(out: str) -> list[str]:
    # A fragment is enough to call it a leak (a redaction replaces the whole match), in any case:
    # the index keeps tags casefolded, and an AWS key folded is the key.
    folded = out.casefold()
    return [s for s in SECRETS if s[4:16].casefold() in folded]


def test_secrets_in_names_are_redacted_from_every_tool(named: GitVault) -> None:
    async def scenario() -> list[tuple[str, dict[str, Any], bool, str]]:
        outputs: list[tuple[str, dict[str, Any], bool, str]] = []

        async def call(name: str, args: dict[str, Any]) -> Any:
            r = await c.call_tool(name, args)
            outputs.append((name, args, bool(r.is_error), text(r) + "\n" + json.dumps(r.structured_content)))
            return r

        async with connect(named.root) as c:
            for mode in ("lexical", "hybrid"):
                found = ok(await call("kp_search", {"query": "hello", "mode": mode}))
                assert len(found["hits"]) >= 3, found
            ok(await call("kp_search", {"query": PATH_KEY, "mode": "lexical"}))
            for ref in ("kp:01J0000000000000000000PATH", "kp:01J0000000000000000000FOLD", "notes/titled.md"):
                ok(await call("kp_read", {"ref": ref}))
                ok(await call("kp_relate", {"ref": ref}))
            ok(await call("kp_read", {"ref": PATH_KEY}))
            ok(await call("kp_index_card", {}))
            page = ok(await call("kp_read", {"ref": "kp:01J0000000000000000000PATH"}))
            # Errors: a vault path the agent never typed, and the agent's own words echoed.
            assert (await call("kp_read", {"ref": "kp:01J0000000000000000000PATH", "page": 9})).is_error
            assert (await call("kp_read", {"ref": f"no such {PROPOSED_KEY}"})).is_error
            made = ok(
                await call(
                    "kp_propose",
                    {
                        "title": f"Retire {PROPOSED_KEY}",
                        "rationale": f"{PROPOSED_KEY} was rotated",
                        "changes": [
                            {
                                "op": "create",
                                "path": f"notes/{PROPOSED_KEY}.md",
                                "content": f"# Retired {PROPOSED_KEY}\n\nSee [[{PATH_KEY}]].\n",
                            }
                        ],
                    },
                )
            )
            assert made["verdict"] == "valid", made
            ok(await call("kp_proposal", {"id": made["id"]}))
            named.write(PATH_NOTE, named.read(PATH_NOTE) + "An edit.\n")
            stale = ok(
                await call(
                    "kp_propose",
                    {
                        "title": "Edit the path note",
                        "rationale": "stale",
                        "changes": [{"op": "modify", "path": PATH_NOTE, "blob": page["blob"], "content": "# x\n"}],
                    },
                )
            )
            assert stale["verdict"] == "rejected"
        return outputs

    outputs = anyio.run(scenario)
    assert {name for name, *_ in outputs} == {
        "kp_search",
        "kp_read",
        "kp_relate",
        "kp_index_card",
        "kp_propose",
        "kp_proposal",
    }
    leaked = [(name, args, _leaks(out)) for name, args, _err, out in outputs if _leaks(out)]
    assert not leaked, leaked
    # The frames still name where the text came from, with the secret taken out of the name alone.
    read = next(out for name, args, _e, out in outputs if name == "kp_read" and "PATH" in str(args.get("ref")))
    assert 'path="notes/[REDACTED: AWS Access Key].md"' in read
    errors = [out for _n, _a, err, out in outputs if err]
    assert len(errors) == 2 and all("REDACTED" in e for e in errors), errors


def test_the_corpus_of_secret_shapes_is_redacted_from_reads_and_searches(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.embedders.test_egress import corpus_notes

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    notes, secrets = corpus_notes()
    for path, body in notes.items():
        vault.write(path, body)
    vault.commit("pasted configuration")

    async def scenario() -> list[str]:
        outputs = []
        async with connect(vault.root) as c:
            for path in notes:
                r = await c.call_tool("kp_read", {"ref": path})
                ok(r)
                outputs.append(text(r) + "\n" + json.dumps(r.structured_content))
            for mode in ("lexical", "hybrid"):
                r = await c.call_tool("kp_search", {"query": "pasted sample kind", "mode": mode, "k": 50})
                assert len(ok(r)["hits"]) >= len(notes) // 2
                outputs.append(text(r) + "\n" + json.dumps(r.structured_content))
        return outputs

    outputs = anyio.run(scenario)
    assert any("Assigned Secret" in out for out in outputs)
    # A secret is looked for as it is and as JSON spells it (quotes and backslashes escaped).
    leaked = [s for s in secrets if any(s in out or json.dumps(s)[1:-1] in out for out in outputs)]
    assert leaked == []


def test_the_corpus_of_secret_shapes_reaches_neither_the_agent_nor_a_remote_embedder(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both exits at once: a server whose embedder is an OpenAI-compatible endpoint on loopback
    (a real HTTP server that records every request), the corpus in the notes it indexes and in
    the queries agents send. A query holding a secret is answered lexically and never sent."""
    from tests import leaks_corpus as lc
    from tests.embedders.fakeserver import EmbeddingServer, use_openai
    from tests.embedders.test_egress import corpus_notes

    notes, secrets = corpus_notes()
    for path, body in notes.items():
        vault.write(path, body)
    vault.commit("pasted configuration")
    queries = [s for shape in lc.SHAPES for s in lc.positives(shape, 2, seed=11)]
    secrets += [secret for s in queries for secret in s.secrets]

    with EmbeddingServer(dims=8) as remote:
        use_openai(monkeypatch, remote.port)

        async def scenario() -> tuple[list[str], int]:
            outputs = []
            async with connect(vault.root) as c:
                ok(await c.call_tool("kp_search", {"query": "alpha links", "mode": "hybrid"}))
                sent_before = len(remote.requests)  # the index is built and a clean query went out
                for sample in queries:
                    r = await c.call_tool("kp_search", {"query": sample.text, "mode": "hybrid", "k": 5})
                    outputs.append(text(r) + "\n" + json.dumps(r.structured_content))
                for path in notes:
                    r = await c.call_tool("kp_read", {"ref": path})
                    outputs.append(text(r) + "\n" + json.dumps(r.structured_content))
            return outputs, sent_before

        outputs, sent_before = anyio.run(scenario)
        sent = "\n".join(remote.texts)
    assert sent_before >= 2 and "Alpha links to" in sent and "alpha links" in sent  # it is the embedder in use
    assert [s for s in secrets if s in sent] == []
    assert [s for s in secrets if any(s in out or json.dumps(s)[1:-1] in out for out in outputs)] == []


RECEIPT_NOTE = """---
kp_id: kp:01J0000000000000000000RCPT
title: Database
password: |
  Tr0ub4dor-prod-77
---
# Database

DB_PASSWORD=sunshine2024
"""


def test_a_note_with_redacted_values_is_read_with_a_receipt_not_the_blob_that_would_confirm_a_guess(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The git blob id of a note is a hash of the bytes the agent sees plus the secret it does not:
    given it, ``sunshine2024`` is found offline by hashing guesses. kp_read shows a receipt (a
    hash of the redacted note) instead; kp_propose takes only that, and its drift message names
    the receipt of the note as it is now, never its git id. A clean note keeps its git id."""
    import hashlib

    from tests.conftest import git

    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    vault.write("db.md", RECEIPT_NOTE)
    vault.write("clean.md", note("kp:01J0000000000000000000CLEN", "Clean", "Nothing hidden here.\n"))
    vault.commit("a note with a password")
    raw = git(vault.root, "hash-object", "db.md").stdout.strip()
    clean_raw = git(vault.root, "hash-object", "clean.md").stdout.strip()

    def guessed(guess: str) -> str:  # what an agent holding the redacted text would hash
        body = RECEIPT_NOTE.replace("sunshine2024", guess).encode()
        return hashlib.sha1(b"blob %d\0" % len(body) + body).hexdigest()

    assert guessed("sunshine2024") == raw  # the attack works on the git id

    def change(blob: str) -> dict[str, Any]:
        return {"op": "modify", "path": "db.md", "blob": blob, "content": RECEIPT_NOTE + "\nRotated monthly.\n"}

    async def scenario() -> tuple[dict[str, Any], str, dict[str, Any], dict[str, Any], str, str]:
        async with connect(vault.root) as c:
            r = await c.call_tool("kp_read", {"ref": "db.md"})
            page, said = ok(r), text(r)
            clean = ok(await c.call_tool("kp_read", {"ref": "clean.md"}))
            by_git = await c.call_tool(
                "kp_propose", {"title": "t", "rationale": "r", "changes": [change(raw)]}
            )
            by_receipt = ok(
                await c.call_tool("kp_propose", {"title": "t", "rationale": "r", "changes": [change(page["blob"])]})
            )
            vault.write("db.md", RECEIPT_NOTE.replace("sunshine2024", "moonlight2025"))
            drifted = await c.call_tool(
                "kp_propose", {"title": "t", "rationale": "r", "changes": [change(page["blob"])]}
            )
            return page, said, clean, by_receipt, text(by_git) + json.dumps(by_git.structured_content), text(
                drifted
            ) + json.dumps(drifted.structured_content)

    page, said, clean, by_receipt, by_git, drifted = anyio.run(scenario)
    assert page["blob"] != raw and raw[:12] not in said + json.dumps(page)
    assert "a receipt of the note as redacted" in said
    assert clean["blob"] == clean_raw
    assert by_receipt["verdict"] == "valid", by_receipt
    # The refusal echoes the agent's own words and names the note by its receipt, never its git id.
    assert f"it is now {page['blob'][:12]}" in by_git
    # A change to the redacted value alone does not show (the receipt is of what the agent saw),
    # and the git id of the new version is named nowhere.
    new_raw = git(vault.root, "hash-object", "db.md").stdout.strip()
    assert '"verdict": "valid"' in drifted and new_raw[:12] not in drifted
    assert "sunshine2024" not in said + by_git and "Tr0ub4dor-prod-77" not in said + json.dumps(page)
