"""Search in every language: hit@1, hit@5 and MRR@10 per language and mode on a translated help
vault, this checkout beside another.

    python benchmarks/multilingual.py [--set DIR] [--vault-git REPO [--rev REV] | --vault DIR]
        [--modes lexical,vector,hybrid] [--json] [--per-query] [--save FILE] [--peer DIR]
        [--model NAME | --model DIR --dims N] [--embedder none] [--batch-size N] [--languages]

A set is a folder holding ``queries.jsonl`` and ``qrels.tsv``: ``benchmarks/multilingual/`` (the
default: a small CC0 vault in nine languages, kept in its ``vault/`` folder) or
``benchmarks/multilingual_help/`` (questions on Obsidian's own help vault in 36 languages, which is
not kept here: ``--vault-git`` names a clone of it, and the set's ``source.json`` the commit the
questions were judged at, which ``--rev`` overrides). ``--vault DIR`` takes a vault folder as it is; ``--only zh,zh-TW,ja`` keeps those top-level
folders of it (a cut-down copy, when embedding the whole vault takes too long); ``--workdir
DIR`` keeps the vault and its index there, so a second run (another checkout, with
``--checkout``) reconciles the same index, its vectors carried over to a new epoch.
From a git repository only the notes (``*.md``) of the commit are written out, with ``git cat-file``:
a partial clone that lacks the large attachments still gives the whole vault.

The vault is copied into a temporary git repository (git init, one commit) and indexed with
``curator index`` into an index folder outside it; then each query of the set is run in each mode
as ``curator search QUERY --json --mode MODE --k 10``. Only the command line is used, driven in-process as ``python -m curator`` runs it,
with stdout captured, so the embedding model is loaded once per process and the figures measure
what a person typing the command gets.

A query's hits are reduced to their notes (first passage wins) and scored against the set's
``qrels.tsv``: hit@1 and hit@5 (a judged page at rank 1, in the top 5), MRR@10 (1 / rank of the
first judged page in the top 10, else 0), other@1 (the share of queries whose first hit is a page
of another language folder: the Spanish question answered by the Catalan copy, the Chinese one by
the zh-TW copy), and repeat@10 (the share of the 10 hits that repeat a page already listed, before
the reduction). Means per language, and over all queries.

``--peer DIR`` runs the same measurement with another checkout of Curator (e.g. ``git archive
REV | tar -x -C DIR``) as a subprocess of this script with PYTHONPATH=DIR, from the temporary
folder, on its own copy of the vault and its own index, and prints the two side by side.
``--model DIR --dims N`` writes ``embedder.model`` and ``embedder.dims`` into the vault's
``.kp/config.yaml`` (a sentence-transformers model folder); ``--model multilingual-e5-small``
names the multilingual model (the ``multilingual`` extra), whose size is known; ``--embedder`` sets
CURATOR_EMBEDDER for the run (``openai`` takes its endpoint from CURATOR_EMBED_BASE_URL,
CURATOR_EMBED_MODEL and CURATOR_EMBED_DIMS, as ``curator`` does); ``--batch-size`` writes
``embedder.batch_size`` (a slow endpoint needs smaller requests); ``--languages`` also sets ``index.languages`` to each language's
folder (every top-level folder named by a language tag), so notes are stemmed by their own
language's rules (by default the vault says nothing, as most vaults do).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "multilingual"
"""The set in use (``--set``)."""
MODES = ("lexical", "vector", "hybrid")
K = 10
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}


def languages() -> list[str]:
    """The set's languages, in the order its questions come."""
    return list(dict.fromkeys(q["lang"] for q in load_queries()))


def load_queries() -> list[dict[str, str]]:
    with open(DATA / "queries.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_qrels() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(DATA / "qrels.tsv", encoding="utf-8") as f:
        next(f)  # header
        for line in f:
            qid, path, score = line.rstrip("\n").split("\t")
            if int(score) > 0:
                qrels.setdefault(qid, {})[path] = int(score)
    return qrels


def model_of(args: argparse.Namespace) -> str:
    """A model folder as an absolute path; a model's name (multilingual-e5-small) as it is."""
    return os.path.abspath(args.model) if os.path.isdir(args.model) else args.model


def source_rev() -> str | None:
    """The commit the set's questions were judged at (its ``source.json``), if it names one."""
    try:
        with open(DATA / "source.json", encoding="utf-8") as f:
            return str(json.load(f)["rev"])
    except (OSError, KeyError, ValueError):
        return None


def notes_from_git(repo: str, rev: str, vault: Path) -> int:
    """Write the ``*.md`` files of ``rev`` in ``repo`` under ``vault``; how many."""
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-z", rev], capture_output=True, check=True).stdout
    blobs: list[tuple[str, str]] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        _mode, kind, oid = meta.split()
        name = path.decode("utf-8")
        if kind == b"blob" and name.endswith(".md"):
            blobs.append((oid.decode(), name))
    cat = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert cat.stdin is not None and cat.stdout is not None
    for oid, name in blobs:
        cat.stdin.write(oid.encode() + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if len(header) < 3:
            sys.exit(f"{repo} lacks {name} at {rev}")
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        target = vault.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    cat.stdin.close()
    cat.wait()
    return len(blobs)


def language_folders(vault: Path) -> dict[str, str]:
    """``index.languages`` for a vault laid out one language a folder: each top-level folder
    named by a language tag (``de``, ``zh-TW``, ``pt-br``) that the Curator measured knows."""
    from curator import languages as known_languages

    def known(tag: str) -> bool:
        return bool(known_languages.known(known_languages.normalise_code(tag)))

    return {
        f"{p.name}/": p.name
        for p in sorted(vault.iterdir())
        if p.is_dir() and re.fullmatch(r"[a-z]{2,3}(-[A-Za-z]{2,4})?", p.name) and known(p.name)
    }


def make_vault(args: argparse.Namespace) -> Path:
    """The vault as a fresh git repository in a temporary folder (``--workdir``: its ``vault``
    folder, made once and then reused), with the run's config."""
    if args.workdir and (Path(args.workdir) / "vault" / ".git").is_dir():
        return Path(args.workdir) / "vault"
    vault = (Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="curator-multilingual-"))) / "vault"
    if args.vault_git:
        rev = args.rev or source_rev()
        if not rev:
            sys.exit("--vault-git needs --rev (the set has no source.json naming one)")
        vault.mkdir(parents=True)
        notes_from_git(args.vault_git, rev, vault)
    elif args.vault:
        shutil.copytree(args.vault, vault, ignore=shutil.ignore_patterns(".git"))
    elif (DATA / "vault").is_dir():
        shutil.copytree(DATA / "vault", vault)
    else:
        sys.exit(f"{DATA} keeps no vault: give --vault-git REPO (see its README) or --vault DIR")
    if args.only:
        keep = set(args.only.split(","))
        for folder in vault.iterdir():
            if folder.is_dir() and folder.name not in keep:
                shutil.rmtree(folder)
    config: dict[str, dict] = {}
    if args.model:
        config["embedder"] = {"model": model_of(args)}
        if args.dims:
            config["embedder"]["dims"] = args.dims
    if args.batch_size:
        config.setdefault("embedder", {})["batch_size"] = args.batch_size
    if args.languages:
        config["index"] = {"languages": language_folders(vault)}
    if config:
        (vault / ".kp").mkdir()
        # JSON is YAML: no YAML writer needed on this side.
        (vault / ".kp" / "config.yaml").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "vault"], cwd=vault, check=True, env=env)
    return vault


def curator(argv: list[str]) -> tuple[int, str, str]:
    """``curator ARGV`` in this process: exit code, stdout, stderr.

    Run as ``python -m curator`` runs it (its ``__main__``), the one entry point that stays
    put while the modules behind it move; every module it imports stays loaded for the next
    command, the embedding model included."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["curator", *argv]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            runpy.run_module("curator", run_name="__main__", alter_sys=False)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = saved
    return code, out.getvalue(), err.getvalue()


def notes_of(hits: list[dict]) -> list[str]:
    """The hits' notes in rank order, each once (its best passage's rank)."""
    return list(dict.fromkeys(h["path"] for h in hits))


def measure(args: argparse.Namespace) -> dict:
    """Index the vault and run every query in every mode, in this process."""
    if args.embedder:
        os.environ["CURATOR_EMBEDDER"] = args.embedder
    vault = make_vault(args)
    if args.workdir:
        index_dir = Path(args.workdir) / "index"
        index_dir.mkdir(exist_ok=True)
    else:
        index_dir = Path(tempfile.mkdtemp(prefix="curator-multilingual-index-"))
    base = ["--vault", str(vault), "--index-dir", str(index_dir)]
    started = time.perf_counter()
    code, out, err = curator([*base, "index"])
    index_seconds = time.perf_counter() - started
    if code != 0:
        sys.exit(f"curator index failed ({code}): {err.strip() or out.strip()}")
    index_output = out.strip().splitlines()[0] if out.strip() else ""
    queries = load_queries()
    runs: dict[str, list[dict]] = {}
    for mode in args.modes:
        runs[mode] = []
        for q in queries:
            t0 = time.perf_counter()
            code, out, err = curator([*base, "search", q["text"], "--json", "--mode", mode, "--k", str(K)])
            ms = (time.perf_counter() - t0) * 1000
            if code == 0:
                paths = [h["path"] for h in json.loads(out)["hits"]][:K]
                notes, error = notes_of(json.loads(out)["hits"]), None
            else:
                paths, notes, error = [], [], (err.strip() or out.strip()).splitlines()[-1:] or [f"exit {code}"]
            repeats = len(paths) - len(set(paths))
            runs[mode].append(
                {"id": q["id"], "notes": notes[:K], "repeats": repeats, "ms": round(ms, 1), "error": error}
            )
    code, status, _ = curator([*base, "status", "--json"])
    if not args.workdir:
        shutil.rmtree(vault.parent, ignore_errors=True)
        shutil.rmtree(index_dir, ignore_errors=True)
    return {
        "curator": os.path.dirname(sys.modules["curator"].__file__ or ""),
        "index": {"seconds": round(index_seconds, 1), "output": index_output},
        "status": json.loads(status) if code == 0 else None,
        "runs": runs,
    }


def score(result: dict) -> dict:
    """hit@1, hit@5, MRR@10, other@1 and repeat@10 per mode and language, and over all queries."""
    qrels = load_qrels()
    lang_of = {q["id"]: q["lang"] for q in load_queries()}
    table: dict[str, dict[str, dict[str, float]]] = {}
    for mode, runs in result["runs"].items():
        per: dict[str, list[tuple[float, float, float, float, float]]] = {}
        for run in runs:
            judged = qrels.get(run["id"], {})
            ranks = [i for i, path in enumerate(run["notes"], start=1) if path in judged]
            first = ranks[0] if ranks else None
            top = run["notes"][0] if run["notes"] else None
            other = 1.0 if top is not None and not top.startswith(lang_of[run["id"]] + "/") else 0.0
            row = (
                1.0 if first == 1 else 0.0,
                1.0 if first is not None and first <= 5 else 0.0,
                1.0 / first if first is not None else 0.0,
                other,
                run.get("repeats", 0) / K,
            )
            run["rank"] = first
            per.setdefault(lang_of[run["id"]], []).append(row)
            per.setdefault("all", []).append(row)
        table[mode] = {
            lang: {
                "n": len(rows),
                "hit@1": statistics.fmean(r[0] for r in rows),
                "hit@5": statistics.fmean(r[1] for r in rows),
                "mrr@10": statistics.fmean(r[2] for r in rows),
                "other@1": statistics.fmean(r[3] for r in rows),
                "repeat@10": statistics.fmean(r[4] for r in rows),
            }
            for lang, rows in per.items()
        }
    return table


def embedder_of(result: dict) -> str:
    status = result.get("status") or {}
    emb = status.get("embedder")
    if isinstance(emb, dict):
        return emb.get("describe") or emb.get("name") or json.dumps(emb, ensure_ascii=False)
    return str(emb) if emb else "?"


def print_tables(sides: list[tuple[str, dict, dict]]) -> None:
    for name, result, _ in sides:
        status = result.get("status") or {}
        print(
            f"{name}: {result['curator']}  embedder {embedder_of(result)}  index {result['index']['seconds']}s"
            f"  ({result['index']['output']})"
        )
        if status.get("pending_embeddings"):
            # Passages without vectors are still found lexically, never by the vector leg.
            print(f"  warning: {status['pending_embeddings']} passages were left without vectors")
    order = [*languages(), "all"]
    metrics = ("hit@1", "hit@5", "mrr@10", "other@1", "repeat@10")
    for mode in sides[0][2]:
        print()
        head = f"{mode:<8}{'n':>4}"
        for name, _, _ in sides:
            head += "  " + "".join(
                f"{(name + ' ' + m) if i == 0 else m:>{14 if i == 0 else 10}}" for i, m in enumerate(metrics)
            )
        print(head)
        for lang in order:
            row_n = sides[0][2][mode].get(lang, {}).get("n", 0)
            if not row_n:
                continue
            line = f"{lang:<8}{row_n:>4}"
            for _, _, table in sides:
                cell = table.get(mode, {}).get(lang)
                if cell is None:
                    line += "  " + "".join(f"{'-':>{14 if i == 0 else 10}}" for i in range(len(metrics)))
                    continue
                line += "  " + "".join(
                    f"{cell.get(m, float('nan')):>{14 if i == 0 else 10}.3f}" for i, m in enumerate(metrics)
                )
            print(line)


def print_per_query(sides: list[tuple[str, dict, dict]]) -> None:
    texts = {q["id"]: q["text"] for q in load_queries()}
    for name, result, _ in sides:
        for mode, runs in result["runs"].items():
            print(f"\n{name} {mode}: rank of the first judged page, then the top hit")
            for run in runs:
                rank = run.get("rank") or "-"
                top = run["notes"][0] if run["notes"] else (f"(error: {run['error'][0]})" if run["error"] else "(none)")
                print(f"  {run['id']:<6} {rank!s:>2}  {texts[run['id']]}  ->  {top}")


def run_peer(args: argparse.Namespace, peer: str) -> dict:
    """The same measurement with another checkout: this script in a subprocess, PYTHONPATH=peer."""
    folder = tempfile.mkdtemp(prefix="curator-multilingual-peer-")
    out = os.path.join(folder, "result.json")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", out, "--modes", ",".join(args.modes)]
    cmd += ["--set", str(DATA)]
    if args.vault_git:
        cmd += ["--vault-git", os.path.abspath(args.vault_git)] + (["--rev", args.rev] if args.rev else [])
    if args.vault:
        cmd += ["--vault", os.path.abspath(args.vault)]
    if args.only:
        cmd += ["--only", args.only]
    if args.model:
        cmd += ["--model", model_of(args)] + (["--dims", str(args.dims)] if args.dims else [])
    if args.embedder:
        cmd += ["--embedder", args.embedder]
    if args.batch_size:
        cmd += ["--batch-size", str(args.batch_size)]
    if args.languages:
        cmd += ["--languages"]
    cmd += ["--checkout", os.path.abspath(peer)]
    env = {**os.environ, "PYTHONPATH": os.path.abspath(peer)}
    r = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"the peer run failed: {r.stderr.strip()}")
    with open(out, encoding="utf-8") as f:
        result = json.load(f)
    shutil.rmtree(folder, ignore_errors=True)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", help="the folder of queries.jsonl and qrels.tsv (default benchmarks/multilingual)")
    ap.add_argument("--vault-git", help="a git repository holding the set's vault (its notes at --rev are used)")
    ap.add_argument("--rev", help="the commit of --vault-git (default: the one the set's source.json names)")
    ap.add_argument("--vault", help="the set's vault as a folder")
    ap.add_argument("--only", help="keep only these top-level folders of the vault (comma-separated: zh,zh-TW,ja)")
    ap.add_argument(
        "--workdir",
        help="keep the vault and its index in this folder and reuse them: a second run (another checkout) "
        "indexes what changed and carries the vectors over",
    )
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated: lexical,vector,hybrid")
    ap.add_argument("--json", action="store_true", help="print the figures (and every query's hits) as JSON")
    ap.add_argument("--per-query", action="store_true", help="also list each query's rank and top hit")
    ap.add_argument("--save", help="also write the --json output to this file")
    ap.add_argument("--peer", help="another checkout of Curator to measure beside this one")
    ap.add_argument("--model", help="embedder.model: a named model (multilingual-e5-small) or a sentence-transformers folder")
    ap.add_argument("--dims", type=int, help="its vector size (embedder.dims); needed with a --model folder")
    ap.add_argument("--embedder", help="CURATOR_EMBEDDER for the run (local, none, ...)")
    ap.add_argument("--batch-size", type=int, help="embedder.batch_size (passages a request)")
    ap.add_argument("--languages", action="store_true", help="set index.languages to each language's folder")
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # a peer run: write the result here
    ap.add_argument("--checkout", help=argparse.SUPPRESS)  # the peer's checkout, first on sys.path
    args = ap.parse_args()
    global DATA
    if args.set:
        DATA = Path(args.set).resolve()
    args.modes = tuple(m for m in args.modes.split(",") if m)
    if any(m not in MODES for m in args.modes):
        ap.error(f"--modes takes {', '.join(MODES)}")
    if args.model and os.path.isdir(args.model) and not args.dims:
        ap.error("a --model folder needs --dims")
    checkout = args.checkout or str(ROOT)
    sys.path.insert(0, checkout)
    # Index workers and anything else Curator starts import the same checkout.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [checkout, os.environ.get("PYTHONPATH")]))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.worker:
        with open(args.worker, "w", encoding="utf-8") as f:
            json.dump(measure(args), f, ensure_ascii=False)
        return
    sides = [("this", measure(args))]
    if args.peer:
        sides.append(("peer", run_peer(args, args.peer)))
    scored = [(name, result, score(result)) for name, result in sides]
    payload = {name: {**result, "scores": table} for name, result, table in scored}
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(payload, f, ensure_ascii=False, indent=1)
    if args.json:
        print(json.dumps(payload, ensure_ascii=False, indent=1))
        return
    print_tables(scored)
    if args.per_query:
        print_per_query(scored)


if __name__ == "__main__":
    main()
