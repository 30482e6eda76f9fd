from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault, note, run_process


def _findings(cli, root: Path) -> tuple[int, list[dict]]:
    r = cli("--vault", root, "doctor", "--json")
    data = json.loads(r.out)
    return r.code, data["findings"]


def test_example_vault_shows_exactly_the_planted_problems(example_vault, cli) -> None:
    code, findings = _findings(cli, example_vault.root)
    assert code == 1
    # The example links notes by title, as many vaults do: each such link is a warning.
    warnings = [f for f in findings if f["code"] == "title-only-link"]
    assert len(warnings) == 40 and all("matches only the title of" in f["message"] for f in warnings)
    got = sorted((f["code"], f["path"], f.get("line")) for f in findings if f["code"] != "title-only-link")
    assert got == [
        ("unidentified-note", "drafts/untitled-idea.md", None),
        ("unresolved-link", "projects/home-lab.md", 12),
    ]
    assert all(f["fix"] for f in findings)


def test_clean_vault_exits_zero(vault, cli) -> None:
    r = cli("--vault", vault.root, "doctor")
    assert r.code == 0, r
    assert "nothing needs fixing" in r.out


@pytest.fixture
def hostile(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "hostile")
    v.write(".kp/config.yaml", "notes:\n  max_bytes: 1048576\n")
    v.write("ok.md", note("kp:01J000000000000000000000OK", "Fine"))
    v.write("bad yaml.md", "---\ntitle: [unclosed\n---\nbody\n")
    v.write("list.md", "---\n- a\n- b\n---\nbody\n")
    v.write("scalar.md", "---\nhello\n---\nbody\n")
    v.write("latin1.md", "---\ntitle: caf\xe9\n---\n".encode("latin-1"))
    v.write("image.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00binary")
    v.write("dup-one.md", note("kp:dup-1", "One"))
    v.write("dup-two.md", note("kp:dup-1", "Two"))
    v.write("with space 🚀.md", note("kp:01J0000000000000000000SPCE", "Spaced 🚀", "[[Fine]] ok"))
    v.write("Case.md", note("kp:case-a", "Upper"))
    v.write("case.md", note("kp:case-b", "Lower"))
    with open(v.root / "huge.md", "wb") as f:
        f.write(b"---\ntitle: huge\n---\n")
        f.write(b"x" * (50 * 1024 * 1024))
    os.symlink("loop-b.md", v.root / "loop-a.md")
    os.symlink("loop-a.md", v.root / "loop-b.md")
    os.symlink("/etc/hostname", v.root / "outside.md")
    v.write("status.md", "---\nkp_id: curio:status\nstatus: done\n---\n")
    v.write("region.md", note("kp:region", "Region", "<!-- curio:begin x -->\nunclosed\n"))
    v.commit("hostile")
    return v


def test_hostile_vault_gets_named_findings_and_nothing_is_written(hostile: GitVault, cli) -> None:
    before = hostile.status()
    files_before = sorted(p.name for p in hostile.root.rglob("*"))
    code, findings = _findings(cli, hostile.root)
    assert code == 1
    by = {(f["code"], f["path"]) for f in findings}
    expected = {
        ("malformed-frontmatter", "bad yaml.md"),
        ("malformed-frontmatter", "list.md"),
        ("malformed-frontmatter", "scalar.md"),
        ("unreadable-note", "latin1.md"),
        ("unreadable-note", "image.md"),
        ("duplicate-kp-id", "dup-one.md"),
        ("duplicate-kp-id", "dup-two.md"),
        ("case-clash", "Case.md"),
        ("too-large", "huge.md"),
        ("symlink", "loop-a.md"),
        ("symlink", "outside.md"),
        ("status-field", "status.md"),
        ("managed-region", "region.md"),
    }
    assert expected <= by, expected - by
    assert not any(f["path"].startswith("with space") and f["code"] != "title-only-link" for f in findings)
    messages = {f["path"]: f["message"] for f in findings if f["code"] == "malformed-frontmatter"}
    assert "list" in messages["list.md"] and "str" in messages["scalar.md"]
    assert hostile.status() == before
    assert sorted(p.name for p in hostile.root.rglob("*")) == files_before


def test_not_a_git_repository_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    r = run_process("--vault", tmp_path / "plain", "doctor")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "not inside a git work tree" in r.stderr
    assert "Traceback" not in r.stderr


def test_bare_repository_is_one_line_exit_2(tmp_path: Path) -> None:
    from tests.conftest import git

    git(tmp_path, "init", "-q", "--bare", "b.git")
    r = run_process("--vault", tmp_path / "b.git", "doctor")
    assert r.returncode == 2 and "bare" in r.stderr and "Traceback" not in r.stderr


def test_broken_config_is_a_finding_not_a_crash(vault, cli) -> None:
    vault.write(".kp/config.yaml", "notes:\n  include: 5\n  bogus: 1\n")
    code, findings = _findings(cli, vault.root)
    assert code == 1
    assert [f["code"] for f in findings] == ["config"]


def test_many_findings_are_summarised_by_code_and_filtered(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "many")
    v.write(".kp/config.yaml", "")
    body = "\n".join(f"[[missing {i}]]" for i in range(80))
    v.write("links.md", note("kp:01J00000000000000000000LNK", "Links", body))
    v.write("bare.md", "no identity\n")
    v.commit()
    r = cli("--vault", v.root, "doctor")
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[0] == "81 finding(s) under 2 code(s):"
    assert lines[1].split()[:2] == ["unresolved-link", "80"] and lines[2].split()[:2] == ["unidentified-note", "1"]
    assert len(lines) < 20 and lines[-1] == "81 finding(s)"
    only = cli("--vault", v.root, "doctor", "--code", "unidentified-note")
    assert only.code == 1 and only.out.splitlines() == [
        "bare.md: unidentified-note: no kp_id in frontmatter — `curator adopt` gives committed notes one "
        "(a proposal to review), `curator mint PATH` a new note not committed yet; identity falls back to "
        "the path until then",
        "1 finding(s) with code unidentified-note need fixing; 80 finding(s) with other codes need fixing "
        "(`curator doctor` lists them)",
    ]
    every = cli("--vault", v.root, "doctor", "--all")
    assert len(every.out.splitlines()) == 82
    small = cli("--vault", v.root, "doctor", "--summary", "--code", "unidentified-note")
    assert small.out.splitlines()[0] == "1 finding(s) under 1 code(s):"
    code, findings = _findings(cli, v.root)
    assert code == 1 and len(findings) == 81 and set(findings[0]) <= {"code", "path", "line", "message", "fix"}
    assert cli("--vault", v.root, "doctor", "--summary", "--all").code == 2


def test_an_unknown_code_is_a_one_line_usage_error_naming_the_codes(vault) -> None:
    for args in (["doctor", "--code", "bad-frontmatter"], ["--json", "doctor", "--code", "unresolved-link", "--code", "nope"]):
        r = run_process("--vault", vault.root, *args)
        assert r.returncode == 2 and r.stdout == "", r
        (line,) = r.stderr.splitlines()
        bad = args[-1]
        assert line.startswith(f"curator: --code {bad}: doctor has no such code (the codes: not-initialised, ")
        assert "malformed-frontmatter" in line and "pending-embeddings" in line


def test_code_says_what_it_showed_and_what_else_needs_fixing(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "anchors")
    v.write(".kp/config.yaml", "")
    v.write("sleep.md", note("kp:01J0000000000000000000SLEP", "Sleep", "## Tips\n"))
    v.write("day.md", note("kp:01J00000000000000000000DAY", "Day", "[[sleep#Nope]] and [[sleep#Tips]]\n"))
    v.commit()
    r = cli("--vault", v.root, "doctor", "--code", "unresolved-anchor")
    assert r.code == 0
    assert "ok: nothing needs fixing" not in r.out
    assert r.out.splitlines()[-1] == (
        "1 warning(s) with code unresolved-anchor: warnings do not fail doctor; nothing else needs fixing"
    )
    v.write("bare.md", "no identity\n")
    v.commit()
    r = cli("--vault", v.root, "doctor", "--code", "unresolved-anchor")
    assert r.code == 0 and r.out.splitlines()[-1] == (
        "1 warning(s) with code unresolved-anchor: warnings do not fail doctor; "
        "1 finding(s) with other codes need fixing (`curator doctor` lists them)"
    )
    none = cli("--vault", v.root, "doctor", "--code", "case-clash")
    assert none.code == 0 and none.out.splitlines() == [
        "no finding with code case-clash; 1 finding(s) with other codes need fixing (`curator doctor` lists them)"
    ]


def _reported_codes() -> set[str]:
    """Every code the checks can produce, read from their source: doctor's Diagnosis(path, line, CODE, ...),
    the index's (path, line, CODE, message, fix) rows and the note parser's Problem(CODE, ...)."""
    import ast

    from tests.conftest import ROOT

    found: set[str] = set()
    for rel, position in (("commands/diagnoses.py", 2), ("index/health.py", 2), ("vault/note.py", 0)):
        tree = ast.parse((ROOT / "curator" / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Diagnosis", "Problem"):
                args = node.args
            elif isinstance(node, ast.Tuple) and len(node.elts) == 5 and rel == "index/health.py":
                args = node.elts
            else:
                continue
            if len(args) > position and isinstance(args[position], ast.Constant):
                found.add(args[position].value)
    return found


def test_every_code_doctor_can_report_is_in_the_cli_doc_and_no_other() -> None:
    import re

    from curator.commands.diagnoses import CODES, WARNINGS
    from tests.conftest import ROOT

    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \|\s*(yes)?\s*\|", doc, re.M)
    assert [code for code, _ in rows] == list(CODES)
    assert {code for code, warning in rows if warning} == WARNINGS
    assert _reported_codes() == set(CODES)
