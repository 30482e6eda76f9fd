"""The index and search: index, index rebuild, status, ls, search, read, relate, bench."""

from __future__ import annotations

import click

from curator.cli.options import app_of, json_option
from curator.commands import bench as bench_cmd
from curator.commands import index as index_cmd
from curator.commands import search as search_cmd
from curator.search.filters import Filters


@click.group(invoke_without_command=True)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing unless something is wrong.")
@json_option
@click.pass_context
def index(ctx: click.Context, quiet: bool, json_: bool) -> int | None:
    """Reconcile the index with the vault: only what changed is read, chunked and embedded."""
    if ctx.invoked_subcommand is not None:
        return None
    return index_cmd.run(app_of(ctx, json_), quiet)


@index.command("rebuild")
@json_option
@click.pass_context
def index_rebuild(ctx: click.Context, json_: bool) -> int:
    """Build a new epoch from the config beside the serving one, verify it, swap it in."""
    return index_cmd.run_rebuild(app_of(ctx, json_))


@click.command()
@click.argument("query")
@click.option("--k", type=click.IntRange(1, 1000), help="How many hits (default: search.k in the config).")
@click.option("--mode", type=click.Choice(["hybrid", "lexical", "vector"]), default="hybrid", show_default=True)
@click.option("--tag", "tags", multiple=True, help="Only notes with this tag (repeatable: all must match).")
@click.option("--path", "path_glob", metavar="GLOB", help="Only notes whose path matches, e.g. 'meetings/**'.")
@click.option("--namespace", metavar="NS", help="Only notes whose kp_id is in this namespace, e.g. kp or zotero.")
@click.option(
    "--since",
    metavar="DATE",
    help="Only notes dated (created/date) on or after DATE (YYYY-MM-DD, YYYY-MM or YYYY).",
)
@click.option(
    "--until", metavar="DATE", help="Only notes dated on or before DATE (a whole month or year when partial)."
)
@click.option("--links/--no-links", default=None, help="Add link neighbours of the top hits as a third list.")
@click.option("--mmr/--no-mmr", default=None, help="Diversify the hits (maximal marginal relevance).")
@click.option("--templates", is_flag=True, help="Search template notes too (they are left out by default).")
@click.option(
    "--explain", is_flag=True, help="Show each leg's rank and score for every hit, and the question's language."
)
@json_option
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    k: int | None,
    mode: str,
    tags: tuple[str, ...],
    path_glob: str | None,
    namespace: str | None,
    since: str | None,
    until: str | None,
    links: bool | None,
    mmr: bool | None,
    templates: bool,
    explain: bool,
    json_: bool,
) -> int:
    """Search the vault: BM25 and vectors fused by rank; one hit per note, citing path:start-end."""

    filters = Filters(tuple(tags), path_glob, namespace, since, until, templates=templates)
    return search_cmd.run(app_of(ctx, json_), query, k, mode, filters, links, mmr, explain)


@click.command()
@json_option
@click.pass_context
def status(ctx: click.Context, json_: bool) -> int:
    """Index health: epoch, counts, embedder, pending embeddings, last reconcile, remote usage."""
    from curator.commands import status as status_cmd  # heavy: the index, apsw

    return status_cmd.run(app_of(ctx, json_))


@click.command("ls")
@json_option
@click.pass_context
def ls(ctx: click.Context, json_: bool) -> int:
    """List the documents in the index."""
    from curator.commands import ls as ls_cmd  # heavy: the index, apsw

    return ls_cmd.run(app_of(ctx, json_))


@click.command()
@click.argument("ref")
@click.option("--page", type=int, default=1, show_default=True, help="Which page of 200 lines.")
@json_option
@click.pass_context
def read(ctx: click.Context, ref: str, page: int, json_: bool) -> int:
    """Show a note (by kp_id, path, title or alias) with line numbers."""
    from curator.commands import read as read_cmd  # heavy: the index, apsw

    return read_cmd.run(app_of(ctx, json_), ref, page)


@click.command()
@click.argument("ref")
@json_option
@click.pass_context
def relate(ctx: click.Context, ref: str, json_: bool) -> int:
    """Links, backlinks, unresolved links and one-hop neighbours of a note."""
    from curator.commands import relate as relate_cmd  # heavy: the index, apsw

    return relate_cmd.run(app_of(ctx, json_), ref)


@click.command()
@click.argument("dataset_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--mode", type=click.Choice(["lexical", "vector", "hybrid", "all"]), default="all", show_default=True)
@click.option("--baseline", is_flag=True, help="Also run bm25s on the same data and queries.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N test queries.")
@click.option("--fresh", is_flag=True, help="Rebuild the benchmark index instead of reusing the cached one.")
@json_option
@click.pass_context
def bench(
    ctx: click.Context, dataset_dir: str, mode: str, baseline: bool, limit: int | None, fresh: bool, json_: bool
) -> int:
    """Retrieval benchmark on BEIR-format data: nDCG@10, recall@100, index time, latency."""
    return bench_cmd.run(app_of(ctx, json_), dataset_dir, mode, baseline, limit, fresh)
