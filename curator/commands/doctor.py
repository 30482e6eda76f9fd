"""``curator doctor``: what in the vault needs fixing, each finding with what to do (the checks
are ``curator.commands.diagnoses``; this module chooses what to show and how)."""

from __future__ import annotations

import shutil

from curator import output
from curator.commands.app import App
from curator.commands.diagnoses import CODES, WARNINGS, Diagnosis, check
from curator.errors import UsageError

SUMMARY_TOP = 5
"""Findings shown under each code in the summary."""


def _screenful() -> int:
    return max(10, shutil.get_terminal_size((100, 40)).lines - 5)


def _print_one(f: Diagnosis) -> None:
    where = f"{f.path}:{f.line}" if f.line else f.path
    output.line(f"{output.safe_path(where)}: {f.code}: {f.message} — {f.fix}")


def _print_summary(findings: list[Diagnosis]) -> None:
    by_code: dict[str, list[Diagnosis]] = {}
    for f in findings:
        by_code.setdefault(f.code, []).append(f)
    width = max(len(c) for c in by_code)
    output.line(f"{len(findings)} finding(s) under {len(by_code)} code(s):")
    for code, group in sorted(by_code.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        label = " (warning)" if code in WARNINGS else ""
        output.line(f"  {code:<{width}}  {len(group):>6}{label}  {group[0].fix}")
    for code, group in sorted(by_code.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        output.line(f"{code}, first {min(SUMMARY_TOP, len(group))} of {len(group)}:")
        for f in group[:SUMMARY_TOP]:
            where = f"{f.path}:{f.line}" if f.line else f.path
            output.line(f"  {output.safe_path(where)}: {f.message}")
    output.line("list one code with `curator doctor --code CODE`, every finding with `--all`")


def _closing(shown: list[Diagnosis], codes: tuple[str, ...], hidden: int) -> str:
    """The last line under ``--code``: what was shown, and whether anything left out needs fixing."""
    named = ", ".join(dict.fromkeys(codes))
    failing = sum(1 for f in shown if f.code not in WARNINGS)
    warned = len(shown) - failing
    if not shown:
        said = f"no finding with code {named}"
    elif failing:
        said = f"{failing} finding(s) with code {named} need fixing" + (f", and {warned} warning(s)" if warned else "")
    else:
        said = f"{warned} warning(s) with code {named}: warnings do not fail doctor"
    if hidden:
        return f"{said}; {hidden} finding(s) with other codes need fixing (`curator doctor` lists them)"
    return f"{said}; nothing else needs fixing"


def run(app: App, *, summary: bool = False, codes: tuple[str, ...] = (), every: bool = False) -> int:
    if summary and every:
        raise UsageError("--summary and --all contradict each other; give one")
    unknown = [c for c in dict.fromkeys(codes) if c not in CODES]
    if unknown:
        raise UsageError(f"--code {unknown[0]}: doctor has no such code", hint="the codes: " + ", ".join(CODES))
    findings = check(app)
    hidden = 0
    if codes:
        hidden = sum(1 for f in findings if f.code not in codes and f.code not in WARNINGS)
        findings = [f for f in findings if f.code in codes]
    failing = [f for f in findings if f.code not in WARNINGS]
    if app.json:
        output.emit_json(
            {
                "schema": "doctor/v1",
                "ok": not failing,
                "findings": [f.as_json() for f in findings],
            }
        )
        return 1 if failing else 0
    warned = [f for f in findings if f.code in WARNINGS]
    if summary:
        _print_summary(findings)
    elif every or codes:
        for f in findings:
            _print_one(f)
    else:
        # Warnings are counted, not listed: on a vault that links by title they would
        # bury the findings that need fixing.
        if len(failing) > _screenful():
            _print_summary(failing)
        else:
            for f in failing:
                _print_one(f)
        for code in sorted({f.code for f in warned}):
            n = sum(1 for f in warned if f.code == code)
            output.line(f"{n} warning(s) {code}: list them with `curator doctor --code {code}`")
    if codes:
        output.line(_closing(findings, codes, hidden))
    elif not failing:
        output.line("ok: nothing needs fixing")
    else:
        output.line(f"{len(failing)} finding(s)")
    return 1 if failing else 0
