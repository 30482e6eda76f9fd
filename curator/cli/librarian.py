"""The librarian: digest."""

from __future__ import annotations

import click

from curator.cli.options import app_of, json_option
from curator.commands import digest as digest_cmd


@click.command()
@click.option("--now", "now", metavar="ISO", help="The digest's clock (default: the current time, UTC).")
@click.option("--k", "k", type=int, help="Notes in the digest (default: digest.k in the config, 10).")
@click.option(
    "--half-life-days",
    "half_life_days",
    type=float,
    help="Age scale in days: weight exp(-age / half-life) (default: digest.half_life_days, 14).",
)
@click.option(
    "--auto-apply", is_flag=True, help="Apply the digest at once when the validator finds it auto-applicable."
)
@click.option("--force", is_flag=True, help="Stage a digest even while an earlier one is still pending.")
@json_option
@click.pass_context
def digest(
    ctx: click.Context,
    now: str | None,
    k: int | None,
    half_life_days: float | None,
    auto_apply: bool,
    force: bool,
    json_: bool,
) -> int:
    """Propose a digest note of what is new since the last digest, ranked against now.md."""
    return digest_cmd.run(app_of(ctx, json_), now, k, half_life_days, auto_apply, force)
