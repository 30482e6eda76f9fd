"""``curator hooks pre-commit``: a ``.pre-commit-config.yaml`` for the pre-commit framework
that runs this installation's validator on what each commit holds.

A ``repo: local`` hook with ``language: system`` runs the program its entry names, so
nothing stands in for a repository URL (Curator's hook manifest, ``.pre-commit-hooks.yaml``,
serves a configuration that names a clone of Curator and a revision of it). The entry
names this installation by absolute path (``locations.curator_command``): a commit made
from Obsidian (obsidian-git) or a GUI client does not have ``.venv/bin`` on its PATH. The
framework splits an entry as a shell would, so the path is quoted for it; the YAML holds
the entry as a double-quoted (JSON) string, which reads back whatever the path holds.
"""

from __future__ import annotations

import json
import shlex

from curator import output
from curator.commands.app import App
from curator.locations import curator_command

HOOK_ID = "curator-validate"


def render() -> str:
    command = [*curator_command(), "--vault", ".", "validate", "--staged"]
    entry = " ".join(shlex.quote(word) for word in command)
    return "\n".join(
        [
            "# The pre-commit framework runs Curator's validator on what each commit holds",
            "# (`curator hooks pre-commit` wrote this; run it again if Curator moves).",
            "repos:",
            "  - repo: local",
            "    hooks:",
            f"      - id: {HOOK_ID}",
            "        name: curator validate",
            f"        entry: {json.dumps(entry)}",
            "        language: system",
            "        pass_filenames: false",
            "        always_run: true",
            "        require_serial: true",
            "        stages: [pre-commit, manual]",
            "",
        ]
    )


def run(app: App) -> int:
    text = render()
    if app.json:
        output.emit_json({"config": text, "entry": curator_command()})
        return 0
    for line in text.splitlines():
        output.line(line)
    output.note(
        "save it as .pre-commit-config.yaml in the vault (or add its hook to your repos: list), then "
        "`pre-commit install`; new notes need a kp_id: run `curator mint --new` before you commit"
    )
    return 0
