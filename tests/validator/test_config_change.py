"""CI judges a pushed range by its base's config, and names a commit that changes the config.

A commit cannot choose the rules it is judged by: a push that moves a note out of the notes
(``notes.exclude``), changes its committed kp_id and puts the config back used to pass, each
commit judged by its own config.
"""

from __future__ import annotations

import json

from tests.conftest import GitVault

ALPHA = "kp:01J0000000000000000000ALPH"


def _exclude_notes(v: GitVault) -> None:
    config = v.read(".kp/config.yaml")
    old = '  exclude: [".github/", ".obsidian/", ".trash/"]\n'
    assert old in config
    v.write(".kp/config.yaml", config.replace(old, '  exclude: [".github/", ".obsidian/", ".trash/", "notes/"]\n', 1))


def _commit(v: GitVault, message: str) -> None:
    v.git("add", "-A")
    v.git("commit", "-q", "--no-verify", "-m", message)


def _verdicts(cli, v: GitVault, base: str) -> tuple[int, dict[str, dict]]:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "validate", "--commits", f"{base}..HEAD", "--format", "json")
    commits = json.loads(r.out)["commits"]
    subjects = [v.git("log", "-1", "--format=%s", c["commit"]).stdout.strip() for c in commits]
    return r.code, dict(zip(subjects, commits, strict=True))


def test_a_push_that_relaxes_the_config_around_a_kp_id_change_is_rejected(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    original = vault.read(".kp/config.yaml")
    _exclude_notes(vault)
    _commit(vault, "tidy the config")
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace(ALPHA, "kp:renamed"))
    _commit(vault, "rename alpha")
    vault.write(".kp/config.yaml", original)
    _commit(vault, "restore the config")
    code, by = _verdicts(cli, vault, base)
    assert code == 1
    renamed = [f for n in by["rename alpha"]["notes"] for f in n["findings"]]
    assert [f["code"] for f in renamed] == ["KP006"], by["rename alpha"]
    for subject in ("tidy the config", "restore the config"):
        (finding,) = by[subject]["config"]
        assert finding["code"] == "KP007" and finding["path"] == ".kp/config.yaml"
        assert "changes .kp/config.yaml (keys notes.exclude)" in finding["message"], finding
        assert by[subject]["ok"] is False
    text = cli("--vault", vault.root, "validate", "--commits", f"{base}..HEAD").out
    assert "  KP007 .kp/config.yaml: this commit changes .kp/config.yaml (keys notes.exclude)" in text
    assert text.splitlines()[-1] == "checked 3 commit(s): 3 rejected"


def test_one_commit_that_weakens_the_config_and_breaks_a_rule_is_judged_by_the_base(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    _exclude_notes(vault)
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace(ALPHA, "kp:renamed"))
    _commit(vault, "both at once")
    code, by = _verdicts(cli, vault, base)
    assert code == 1
    commit = by["both at once"]
    assert [f["code"] for n in commit["notes"] for f in n["findings"]] == ["KP006"]
    assert [f["code"] for f in commit["config"]] == ["KP007"]


def test_a_config_change_that_keeps_every_value_is_a_warning(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    vault.write(".kp/config.yaml", "# reviewed by the team\n" + vault.read(".kp/config.yaml"))
    _commit(vault, "a comment")
    code, by = _verdicts(cli, vault, base)
    assert code == 0
    (finding,) = by["a comment"]["config"]
    assert finding["warning"] is True and "no key's value" in finding["message"]


def test_a_config_the_range_s_commits_cannot_read_is_named_not_fatal(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    vault.write(".kp/config.yaml", "notes: [unclosed\n")
    _commit(vault, "break the config")
    code, by = _verdicts(cli, vault, base)
    assert code == 1
    (finding,) = by["break the config"]["config"]
    assert "(unreadable: .kp/config.yaml is not valid YAML at line 2, column 1: expected" in finding["message"], finding
