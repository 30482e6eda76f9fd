"""The review UI is an extra: without textual, ``curator review`` says how to install it."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import GitVault


def test_without_textual_the_command_says_how_to_install_it(vault: GitVault) -> None:
    probe = "import sys; sys.modules['textual'] = None\nfrom curator.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    r = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(vault.root), "review"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "curator[review]" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert r.stdout == ""
