"""kp_search through the official MCP client (stdio) beside the same search from the CLI.

    python benchmarks/mcp_latency.py [--calls 100] [--cli-runs 20] [--embedder local|fake|none]
                                     [--peer REV] [--path GLOB]

Both run against one copy of the example vault with one index, in the same command:
the server answers from a process that stays up (the query model loaded once), the
CLI pays a process start, imports and the model load on every search.

With ``--peer REV`` (a git revision or a checkout folder, see ``common.peer_checkout``) a second
server runs that Curator beside this one, on the same vault with its own index, and the calls
alternate between the two (this, peer, peer, this, ...) so that both meet the same load; each
side's median is printed with the server's CPU time per call (read from /proc). ``--path``
passes a path glob with every call.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import example_sides, interleaved, process_times

QUERY = "why is the database locked"


def _server_pid(vault: Path, known: set[int]) -> int:
    """The `curator mcp` process this script started last (a child of it, serving ``vault``)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in known:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"mcp" in cmdline and str(vault).encode() in cmdline:
            return int(entry)
    raise SystemExit("cannot find the curator mcp process")


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    import anyio
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--cli-runs", type=int, default=20)
    ap.add_argument("--embedder", default="local", choices=["local", "fake", "none"])
    ap.add_argument("--peer", help="a git revision (or a checkout folder) of older Curator to serve side by side")
    ap.add_argument("--path", help="a path glob passed with every kp_search call")
    args = ap.parse_args()
    call: dict[str, Any] = {"query": QUERY, "k": 10} | ({"path": args.path} if args.path else {})
    with tempfile.TemporaryDirectory() as tmp:
        vault, sides = example_sides(Path(tmp), args.embedder, args.peer)
        curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
        search = [*curator, "search", QUERY, "--k", "10", "--json"]
        cli = [process_times(search, sides["this"], vault)[0] for _ in range(args.cli_runs)]

        mcp: dict[str, list[float]] = {name: [] for name in sides}
        cpu: dict[str, float] = {}
        first: dict[str, float] = {}

        async def through_the_clients() -> None:
            pids: dict[str, int] = {}
            clients: dict[str, Any] = {}
            async with contextlib.AsyncExitStack() as stack:
                for name, env in sides.items():
                    params = StdioServerParameters(
                        command=sys.executable, args=[*curator[1:], "mcp"], env=env, cwd=str(vault)
                    )
                    clients[name] = await stack.enter_async_context(Client(params))
                    pids[name] = _server_pid(vault, set(pids.values()))
                    t = time.perf_counter()
                    await clients[name].call_tool("kp_search", call)  # warm: the model loads once
                    first[name] = time.perf_counter() - t
                start = {name: _cpu(pid) for name, pid in pids.items()}
                for _n, name, client in interleaved(clients, args.calls):
                    t = time.perf_counter()
                    r = await client.call_tool("kp_search", call)
                    mcp[name].append(time.perf_counter() - t)
                    assert not r.is_error, r.content
                for name, pid in pids.items():
                    cpu[name] = (_cpu(pid) - start[name]) / args.calls

        anyio.run(through_the_clients)
    median = {name: statistics.median(times) for name, times in mcp.items()}
    out: dict[str, Any] = {
        "embedder": args.embedder,
        "query": QUERY,
        "path": args.path,
        "mcp_kp_search_median_ms": round(median["this"] * 1000, 1),
        "mcp_kp_search_cpu_ms": round(cpu["this"] * 1000, 1),
        "mcp_first_call_ms": round(first["this"] * 1000, 1),
        "mcp_calls": len(mcp["this"]),
        "cli_search_median_ms": round(statistics.median(cli) * 1000, 1),
        "cli_runs": len(cli),
        "cli_over_mcp": round(statistics.median(cli) / median["this"], 1),
        "load_average": round(os.getloadavg()[0], 2),
    }
    for name in sides:
        print(
            f"kp_search through the MCP client ({name}): median {median[name] * 1000:.1f} ms of {len(mcp[name])} "
            f"calls, server CPU {cpu[name] * 1000:.1f} ms a call, first call {first[name] * 1000:.0f} ms"
        )
    if args.peer:
        peer = f"peer {args.peer}"
        out["peer"] = args.peer
        out["peer_mcp_kp_search_median_ms"] = round(median[peer] * 1000, 1)
        out["peer_mcp_kp_search_cpu_ms"] = round(cpu[peer] * 1000, 1)
        out["peer_mcp_first_call_ms"] = round(first[peer] * 1000, 1)
    print(f"curator search (a process each):  median {out['cli_search_median_ms']} ms of {len(cli)} runs")
    print(f"the CLI takes {out['cli_over_mcp']}x as long")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
