"""The README cannot drift: every command has --help and appears there with every option."""

from __future__ import annotations

import click
import pytest

from curator.cli.main import cli, main
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    out = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        path = (*prefix, name)
        out.append((path, cmd))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, path))
    return out


COMMANDS = _commands(cli)


def test_the_cli_has_the_commands_of_the_spec() -> None:
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"init", "new", "doctor", "hooks install", "validate", "propose", "proposals", "apply", "reject"} <= names


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_command_has_help_and_is_in_the_readme(path: tuple[str, ...], cmd: click.Command, capsys) -> None:
    assert main([*path, "--help"]) == 0
    assert "Usage:" in capsys.readouterr().out
    assert f"curator {' '.join(path)}" in README, f"`curator {' '.join(path)}` is missing from README.md"
    for param in cmd.params:
        if isinstance(param, click.Option):
            longest = max(param.opts, key=len)
            if longest in ("--help",):
                continue
            assert longest in README, f"{longest} of `curator {' '.join(path)}` is missing from README.md"


def test_global_options_are_in_the_readme() -> None:
    for param in cli.params:
        if isinstance(param, click.Option) and "--version" not in param.opts:
            assert max(param.opts, key=len) in README


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one() -> None:
    assert "make example" in README and "make test" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


def test_ci_runs_the_example_and_lint_with_pinned_tools() -> None:
    """The README's main job and `make lint` break in CI, not unseen; lint gives the same answer everywhere."""
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "make lint" in ci and any(line.endswith("make example") for line in ci)
    assert "trap 'rm -rf \"$scratch\"' EXIT" in ci  # the example's temporary vault goes afterwards
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"ruff==' in pyproject and '"mypy==' in pyproject


TEST_HOOKS = {"CURATOR_FAULT", "CURATOR_SLOW", "CURATOR_FAKE_EMBED_DELAY"}
"""Environment variables only the tests set (a crash point, a slowed step, a slowed test
embedder): not for users, so the README does not present them."""


def test_every_environment_variable_curator_reads_is_in_the_readme() -> None:
    import re

    read = re.compile(r"""(?:environ\.get|environ\[|getenv|_env|_positive)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")
    names = {m for path in (ROOT / "curator").rglob("*.py") for m in read.findall(path.read_text(encoding="utf-8"))}
    assert {"CURATOR_THREADS", "CURATOR_EMBEDDER", "CURATOR_SLOW"} <= names  # the scan sees them
    missing = sorted(n for n in names - TEST_HOOKS if f"`{n}`" not in README)
    assert not missing, f"environment variables Curator reads but README.md does not name: {missing}"
    shown = sorted(n for n in TEST_HOOKS if n in README)
    assert not shown, f"test-only hooks presented to users in README.md: {shown}"
