"""Only ``---`` closes a frontmatter block, as Obsidian and python-frontmatter read it: a block
YAML's ``...`` seemed to close for Curator alone could carry a second kp_id after it."""

from __future__ import annotations

import json

import pytest

from curator.vault import frontmatter
from tests.builders import make_proposal
from tests.conftest import GitVault

SMUGGLED = "---\nkp_id: kp:01J0000000000000000000ALPH\n...\nkp_id: kp:01J0000000000000000000EVIL\n---\n# A\n"


def test_a_block_with_a_document_end_inside_is_invalid_not_closed_early() -> None:
    split = frontmatter.split(SMUGGLED)
    assert split.yaml is not None and "EVIL" in split.yaml  # the block runs to the ``---``, as elsewhere
    with pytest.raises(frontmatter.FrontmatterError):
        frontmatter.read(SMUGGLED)


def test_a_block_closed_only_by_a_document_end_is_no_frontmatter() -> None:
    text = "---\nkp_id: kp:01J0000000000000000000ALPH\n...\n# A\n"
    split = frontmatter.split(text)
    assert split.yaml is None and split.unclosed
    assert frontmatter.meta_or_none(text) in (None, {})


def test_a_proposal_that_smuggles_a_second_kp_id_past_a_document_end_is_rejected(vault: GitVault, cli) -> None:
    from curator.operations.gather import unified

    path = "notes/alpha.md"
    before = vault.read(path)
    after = before.replace("\n---\n", "\n...\nkp_id: kp:01J0000000000000000000EVIL\n---\n", 1)
    assert after != before
    base = vault.git("rev-parse", f"HEAD:{path}").stdout.strip()
    pid = make_proposal(
        vault, [{"op": "modify", "path": path, "base_blob": base}], diff=unified(path, before.encode(), after.encode())
    )
    r = cli("--vault", vault.root, "--json", "validate", pid)
    assert r.code == 1, r
    codes = {f["code"] for f in json.loads(r.out)["proposals"][0]["findings"]}
    assert codes & {"KP006", "KP008"}, codes
