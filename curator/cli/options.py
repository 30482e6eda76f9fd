"""What every command shares: ``--json`` and the ``App`` the root group made from the global options."""

from __future__ import annotations

import click

from curator.commands.app import App

json_option = click.option("--json", "json_", is_flag=True, help="Print results as JSON.")


def app_of(ctx: click.Context, json_: bool = False) -> App:
    """The ``App`` of this run; a command's own ``--json`` counts as the global one."""
    app: App = ctx.ensure_object(App)
    if json_:
        app.json = True
    return app
