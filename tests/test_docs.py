"""The docs cannot drift: every command has --help and appears in docs/cli.md with every option,
every example names a real command and real options, the README's table lists every command,
every environment variable Curator reads is in docs/config.md, and every relative link resolves."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

# The command line's click group and entry point: the one place the tests name the CLI's module.
from curator.cli.main import cli, main
from tests.conftest import ROOT

DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI_DOC = (DOCS / "cli.md").read_text(encoding="utf-8")
CONFIG_DOC = (DOCS / "config.md").read_text(encoding="utf-8")
USER_DOCS = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
"""Everything a user reads: the README and every page under docs/."""


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
BY_PATH = dict(COMMANDS)


def _ids(commands: list[tuple[tuple[str, ...], click.Command]]) -> list[str]:
    return [" ".join(p) for p, _ in commands]


def _names(param: click.Parameter) -> list[str]:
    """Every spelling of an option: `--links` and `--no-links`, `--yes` and `-y`."""
    return [*param.opts, *getattr(param, "secondary_opts", [])]


def _mentions(text: str, option: str) -> bool:
    """``option`` as a whole token: `--all` is not found in `--all-files`."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def _fenced(text: str, language: str) -> list[str]:
    """The lines of every ```language block."""
    blocks = re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)
    return [line for block in blocks for line in block.splitlines()]


def _sections(text: str) -> list[str]:
    """The text under each `## ` heading (its `###` subsections included)."""
    return re.split(r"^## ", text, flags=re.M)


class Example:
    """One `curator ...` line of a shell block: the command it runs and the options it passes."""

    def __init__(self, line: str) -> None:
        self.line = line
        words = shlex.split(line, comments=True)
        assert words[0] == "curator"
        self.problems: list[str] = []
        self.path: tuple[str, ...] = ()
        cmd: click.Command = cli
        i = 1
        while i < len(words):
            word = words[i]
            if word == "--":
                break  # paths follow
            if word.startswith("-"):
                name = word.split("=", 1)[0]
                param = next((p for p in cmd.params if isinstance(p, click.Option) and name in _names(p)), None)
                if param is None and name not in ("--help", "-h"):
                    self.problems.append(f"`{' '.join(('curator', *self.path))}` has no option {name}")
                elif param is not None and not param.is_flag and not param.count and "=" not in word:
                    i += 1  # its value
            elif isinstance(cmd, click.Group) and word in cmd.list_commands(click.Context(cmd)):
                cmd = cmd.get_command(click.Context(cmd), word)
                self.path = (*self.path, word)
            elif isinstance(cmd, click.Group) and not (cmd is not cli and cmd.invoke_without_command):
                self.problems.append(f"`curator {' '.join((*self.path, word))}` is not a command")
                break
            i += 1


EXAMPLES = {
    doc.relative_to(ROOT).as_posix(): [
        Example(line.strip())
        for line in _fenced(doc.read_text(encoding="utf-8"), "sh")
        if line.strip().startswith("curator ")
    ]
    for doc in USER_DOCS
}
CLI_SECTIONS = _sections(CLI_DOC)


def test_the_cli_has_the_commands_of_the_spec() -> None:
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"init", "new", "doctor", "hooks install", "validate", "propose", "proposals", "apply", "reject"} <= names


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=_ids(COMMANDS))
def test_command_has_help_and_an_example_in_the_cli_doc(path: tuple[str, ...], cmd: click.Command, capsys) -> None:
    assert main([*path, "--help"]) == 0
    assert "Usage:" in capsys.readouterr().out
    assert cmd.help, f"`curator {' '.join(path)}` has no help text"
    if isinstance(cmd, click.Group) and not cmd.invoke_without_command:
        return  # a group alone only prints its help: its commands have the examples
    documented = {e.path for e in EXAMPLES["docs/cli.md"]}
    assert path in documented, f"docs/cli.md has no example of `curator {' '.join(path)}`"


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=_ids(COMMANDS))
def test_every_option_is_documented_beside_its_command(path: tuple[str, ...], cmd: click.Command) -> None:
    """Each spelling of each option is in a section of docs/cli.md that has an example of the command."""
    shown = [s for s in CLI_SECTIONS if any(e.path == path for e in EXAMPLES["docs/cli.md"] if e.line in s)]
    for param in cmd.params:
        if not isinstance(param, click.Option):
            continue
        for name in _names(param):
            assert any(_mentions(s, name) for s in shown), (
                f"{name} of `curator {' '.join(path)}` is missing from the docs/cli.md section that shows the command"
            )


@pytest.mark.parametrize("doc", sorted(EXAMPLES), ids=sorted(EXAMPLES))
def test_every_example_runs_a_real_command_with_real_options(doc: str) -> None:
    problems = [f"{e.line}\n    {p}" for e in EXAMPLES[doc] for p in e.problems]
    assert not problems, f"examples in {doc} that the command line does not take:\n" + "\n".join(problems)


def test_global_options_are_in_the_cli_doc() -> None:
    (section,) = [s for s in CLI_SECTIONS if s.startswith("Global options")]
    for param in cli.params:
        if isinstance(param, click.Option):
            for name in _names(param):
                assert _mentions(section, name), f"global option {name} is missing from docs/cli.md"


def test_the_readme_table_lists_every_command() -> None:
    rows = re.findall(r"^\| `curator ([^`]*)` \|", README, re.M)
    listed = set()
    for row in rows:
        words = []
        for word in row.split():
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            words.append(word)
        listed.add(tuple(words))
    paths = {p for p, _ in COMMANDS}
    assert not listed - paths, f"the README's table lists commands that do not exist: {sorted(listed - paths)}"
    for path, cmd in COMMANDS:
        if isinstance(cmd, click.Group) and not cmd.invoke_without_command:
            continue  # listed through its commands
        assert path in listed, f"`curator {' '.join(path)}` is missing from the README's command table"
    assert {p[0] for p in listed} == set(cli.list_commands(click.Context(cli)))  # every top-level command


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
embedder): not for users, so no page a user reads presents them."""


def _variables_read() -> set[str]:
    name = r"""["']([A-Z][A-Z0-9_]+)["']"""
    ways = (
        rf"(?:environ\.get|environ\.setdefault|environ\[|getenv|_env|_positive)\(?\s*{name}",
        rf"{name}\s+(?:not\s+)?in\s+os\.environ",
        rf"envvar\s*=\s*{name}",  # click reads it into an option
    )
    read = re.compile("|".join(ways))
    return {
        next(g for g in m.groups() if g)
        for path in (ROOT / "curator").rglob("*.py")
        for m in read.finditer(path.read_text(encoding="utf-8"))
    }


def test_every_environment_variable_curator_reads_is_in_the_config_doc() -> None:
    names = _variables_read()
    assert {"CURATOR_THREADS", "CURATOR_EMBEDDER", "CURATOR_SLOW", "TMPDIR", "CURATOR_VAULT"} <= names  # all ways
    missing = sorted(n for n in names - TEST_HOOKS if f"`{n}`" not in CONFIG_DOC)
    assert not missing, f"environment variables Curator reads but docs/config.md does not name: {missing}"


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_test_only_hooks_are_not_in_user_docs(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    shown = sorted(n for n in TEST_HOOKS if n in text)
    assert not shown, f"test-only hooks presented to users in {doc.relative_to(ROOT)}: {shown}"


def _unfenced(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _prose(text: str) -> str:
    """``text`` without fenced blocks and code spans: link syntax shown as an example is not a link."""
    return re.sub(r"`[^`\n]*`", "", _unfenced(text))


def _anchors(doc: Path) -> set[str]:
    """The fragment GitHub gives each heading of ``doc``: lower case, code and link markup read as
    their text, punctuation dropped, spaces as hyphens, a repeat numbered."""
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", _unfenced(doc.read_text(encoding="utf-8")), re.M):
        text = re.sub(r"`([^`]*)`", r"\1", heading)
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_a_file_that_exists(doc: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(<?([^)\s>]+)>?\)", _prose(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto: — not a file of this repository
        path, _, fragment = target.partition("#")
        if path.startswith("/"):
            broken.append(f"{target} (links in the docs are relative)")
            continue
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and file.suffix == ".md" and fragment not in _anchors(file):
            broken.append(f"{target} (no such heading in {file.relative_to(ROOT)})")
    assert not broken, f"links in {doc.relative_to(ROOT)} that lead nowhere: {broken}"


def test_the_readme_links_every_page_of_the_docs() -> None:
    linked = set(re.findall(r"\]\(docs/([^)#]+\.md)", README))
    pages = {p.name for p in DOCS.glob("*.md")}
    assert pages <= linked, f"docs pages the README does not link: {sorted(pages - linked)}"
