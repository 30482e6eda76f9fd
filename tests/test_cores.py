"""How many threads Curator takes: the cores free now, not a minute ago."""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
from collections.abc import Iterator

import pytest

from curator import cores


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_last", None)
    monkeypatch.setattr(cores, "_early", None)
    monkeypatch.setattr(cores, "_own_running", lambda: 1)
    monkeypatch.delenv("CURATOR_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(cores, "available", lambda: 2)
    monkeypatch.setattr(cores, "SAMPLE_GAP", 0.0)


def test_a_load_average_left_by_an_earlier_run_does_not_take_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # The previous `curator index` left a one-minute load of 1.3; nothing else runs now.
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (1.3, 0.8, 0.4))
    monkeypatch.setattr(cores, "_runnable", lambda: 1)
    assert cores.threads() == 2


def test_a_process_holding_a_core_now_takes_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    monkeypatch.setattr(cores, "_runnable", lambda: 2)
    assert cores.threads() == 1


def test_a_task_seen_in_one_sample_only_is_not_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = itertools.chain([3], itertools.repeat(1))
    monkeypatch.setattr(cores, "_runnable", lambda: next(seen))
    assert cores.busy_elsewhere() == 0.0


def test_an_early_sample_is_the_one_a_query_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def runnable() -> int:
        calls.append(1)
        return 3

    monkeypatch.setattr(cores, "_runnable", runnable)
    cores.sample_early()
    cores.sample_early()  # started once
    assert cores.busy_elsewhere() == 2.0
    assert cores.busy_elsewhere() == 2.0
    assert len(calls) == cores.SAMPLES


def test_a_sample_taken_beside_a_working_main_thread_does_not_count_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sample_early`` samples while the main thread imports: that thread is this process's."""
    if not os.path.exists("/proc/self/task"):
        pytest.skip("no /proc")
    monkeypatch.undo()
    seen: list[int] = []
    done = threading.Event()

    def sample() -> None:
        for _ in range(200):
            seen.append(cores._own_running())
            if max(seen) >= 2:
                break
        done.set()

    threading.Thread(target=sample).start()
    spins = 0
    while not done.is_set():  # the main thread works (holds a core) meanwhile
        spins += 1
    assert max(seen) >= 2


def test_without_proc_the_load_average_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_runnable", lambda: None)
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (1.6, 1.0, 1.0))
    assert cores.threads() == 1


def test_the_kernel_count_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    n = cores._runnable()
    if os.path.exists("/proc/stat"):
        assert n is not None and n >= 1  # this test itself is running
    else:
        assert n is None


def test_parsing_workers_are_one_per_core_whatever_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # Another program holds a core: the BLAS pool takes one thread, the parsing pool still two
    # processes (the kernel shares the busy core; one worker would leave it to the other program).
    monkeypatch.setattr(cores, "_runnable", lambda: 3)
    assert cores.threads() == 1
    assert cores.workers(4) == 2
    monkeypatch.setattr(cores, "available", lambda: 8)
    assert cores.workers(4) == 4
    monkeypatch.setenv("CURATOR_THREADS", "1")
    assert cores.workers(4) == 1


def test_a_first_index_reports_its_workers(tmp_path, monkeypatch: pytest.MonkeyPatch, cli) -> None:
    import json

    from curator.index import documents
    from tests.conftest import make_git_vault, note

    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    monkeypatch.setattr(cores, "_runnable", lambda: 3)  # a busy machine
    v = make_git_vault(tmp_path / "v")
    for i in range(documents.PARALLEL_FROM):
        v.write(f"n/{i}.md", note(f"kp:01J000000000000000000{i:05d}", f"Note {i}"))
    v.commit("notes")
    first = json.loads(cli("--vault", v.root, "--json", "index").out)
    assert first["indexed"] == documents.PARALLEL_FROM and first["workers"] == 2
    again = json.loads(cli("--vault", v.root, "--json", "index").out)
    assert again["workers"] == 0  # nothing needed reading


def test_a_limit_of_every_core_asks_threadpoolctl_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import threadpoolctl

    limited: list[int] = []

    class Counting:
        def __init__(self, limits: int) -> None:
            limited.append(limits)

        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: object) -> None:
            return None

    monkeypatch.setattr(threadpoolctl, "threadpool_limits", Counting)
    with cores.bounded(2):
        pass
    with cores.bounded(1):
        pass
    assert limited == [1]


def test_a_process_that_embeds_one_question_keeps_blas_to_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_one_blas_thread", False)
    for name in cores.BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    cores.one_question()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


@pytest.mark.parametrize("name", ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "CURATOR_THREADS"])
def test_a_thread_count_the_person_set_is_theirs(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr(cores, "_one_blas_thread", False)
    for other in cores.BLAS_THREADS:
        monkeypatch.delenv(other, raising=False)
    monkeypatch.setenv(name, "2")
    cores.one_question()
    assert os.environ.get("OPENBLAS_NUM_THREADS") == ("2" if name == "OPENBLAS_NUM_THREADS" else None)


PROBE = """
import sys
from curator.cli.main import main
main(sys.argv[1:])
from threadpoolctl import threadpool_info
print("BLAS=" + ",".join(str(p["num_threads"]) for p in threadpool_info() if p["internal_api"] == "openblas"))
"""


def _local_vault(tmp_path):  # type: ignore[no-untyped-def]
    """A vault indexed with the local model, and an environment that sets no thread count."""
    import subprocess
    import sys

    from tests.conftest import make_git_vault

    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: local\n")
    v.write("wal.md", "# WAL mode\n\nWrite-ahead logging lets readers work while one writer writes.\n")
    v.commit()
    env = {k: val for k, val in os.environ.items() if k not in cores.BLAS_THREADS}
    env["HF_HUB_OFFLINE"] = "1"
    subprocess.run([sys.executable, "-m", "curator", "--vault", str(v.root), "index", "--quiet"], check=True, env=env)
    return v, env


def test_a_hybrid_search_computes_its_question_on_one_blas_thread(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    v, env = _local_vault(tmp_path)
    args = ["--vault", str(v.root), "search", "why is the database locked", "--mode", "hybrid"]
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env)
    assert "wal.md" in r.stdout and r.stdout.rstrip().endswith("BLAS=1"), r.stdout + r.stderr


BUSY_PROBE = """
import sys
from curator.cli.main import main
main(sys.argv[1:])
print("THREADPOOLCTL=%s" % ("threadpoolctl" in sys.modules))
"""


def test_a_search_on_a_busy_machine_does_not_bound_a_pool_of_one_thread(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Two other processes keep both cores busy, so the bound is one thread: the question's BLAS
    pool already has one, and neither threadpoolctl nor its scan of the libraries is loaded."""
    import subprocess
    import sys

    v, env = _local_vault(tmp_path)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores.available())]
    try:
        args = ["--vault", str(v.root), "search", "why is the database locked", "--mode", "hybrid"]
        r = subprocess.run([sys.executable, "-c", BUSY_PROBE, *args], capture_output=True, text=True, env=env)
    finally:
        for b in burners:
            b.kill()
            b.wait()
    assert "wal.md" in r.stdout and r.stdout.rstrip().endswith("THREADPOOLCTL=False"), r.stdout + r.stderr


def test_numpy_work_outside_a_question_process_is_still_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``one_question`` (an index's few edited passages), the numpy pool is bounded as before."""
    monkeypatch.setattr(cores, "_one_blas_thread", False)
    monkeypatch.setattr(cores, "threads", lambda: 1)
    asked: list[int] = []

    @contextlib.contextmanager
    def bounded(n: int) -> Iterator[None]:
        asked.append(n)
        yield

    monkeypatch.setattr(cores, "bounded", bounded)
    with cores.blas_bounded():
        pass
    monkeypatch.setattr(cores, "_one_blas_thread", True)
    with cores.blas_bounded():
        pass
    assert asked == [1]
