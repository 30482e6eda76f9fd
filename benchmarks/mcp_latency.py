"""kp_search through the official MCP client (stdio) beside the same search from the CLI.

    python benchmarks/mcp_latency.py [--calls 100] [--cli-runs 20] [--embedder local|fake|none]

Both run against one copy of the example vault with one index, in the same command:
the server answers from a process that stays up (the query model loaded once), the
CLI pays a process start, imports and the model load on every search.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
QUERY = "why is the database locked"


def main() -> None:
    import anyio
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--cli-runs", type=int, default=20)
    ap.add_argument("--embedder", default="local", choices=["local", "fake", "none"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(vault)], check=True, capture_output=True)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache"), "CURATOR_EMBEDDER": args.embedder}
        curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
        subprocess.run([*curator, "index", "--quiet"], check=True, env=env)

        cli: list[float] = []
        for _ in range(args.cli_runs):
            t = time.perf_counter()
            subprocess.run([*curator, "search", QUERY, "--k", "10", "--json"], check=True, env=env, capture_output=True)
            cli.append(time.perf_counter() - t)

        mcp: list[float] = []

        async def through_the_client() -> None:
            params = StdioServerParameters(command=sys.executable, args=[*curator[1:], "mcp"], env=env)
            async with Client(params) as client:
                await client.call_tool("kp_search", {"query": QUERY, "k": 10})  # warm: the model loads once
                for _ in range(args.calls):
                    t = time.perf_counter()
                    r = await client.call_tool("kp_search", {"query": QUERY, "k": 10})
                    mcp.append(time.perf_counter() - t)
                    assert not r.is_error

        anyio.run(through_the_client)
    out = {
        "embedder": args.embedder,
        "query": QUERY,
        "mcp_kp_search_median_ms": round(statistics.median(mcp) * 1000, 1),
        "mcp_calls": len(mcp),
        "cli_search_median_ms": round(statistics.median(cli) * 1000, 1),
        "cli_runs": len(cli),
        "cli_over_mcp": round(statistics.median(cli) / statistics.median(mcp), 1),
    }
    print(f"kp_search through the MCP client: median {out['mcp_kp_search_median_ms']} ms of {len(mcp)} calls")
    print(f"curator search (a process each):  median {out['cli_search_median_ms']} ms of {len(cli)} runs")
    print(f"the CLI takes {out['cli_over_mcp']}x as long")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
