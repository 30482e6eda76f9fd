"""`curator mcp --http` on loopback, as another local user or a web page would reach it.

Loopback is not a boundary between the users of one machine: every one of them can connect to
127.0.0.1. So every request needs the vault's bearer token, which only its owner can read; the
DNS-rebinding check (Host and Origin) holds as well, for a request that carries the token too.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import GitVault, note
from tests.mcp.harness import env, free_port, http_token

PRIVATE = "The owner's private plan is PLAN-OCTOBER-7731."
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@pytest.fixture
def private(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    vault.write("notes/private.md", note("kp:01J0000000000000000000PRIV", "Private", PRIVATE + "\n"))
    vault.commit("a private note")
    return vault


@contextlib.contextmanager
def serving(vault: Path, *prefix: str, port: int | None = None) -> Iterator[int]:
    """`curator mcp --http` started by the vault's owner; yields its port once it accepts connections."""
    port = port or free_port()
    proc = subprocess.Popen(
        [*prefix, sys.executable, "-m", "curator", "--vault", str(vault), "mcp", "--http", "--port", str(port)],
        env={**os.environ, **env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def post(port: int, body: object, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """One plain HTTP POST to the MCP endpoint: no MCP client, no session."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **(headers or {}),
        }
        conn.request("POST", "/mcp", body=json.dumps(body), headers=sent)
        response = conn.getresponse()
        return response.status, response.read(4096).decode("utf-8", "replace")
    finally:
        conn.close()


def post_full(port: int, body: object, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers}
        conn.request("POST", "/mcp", body=json.dumps(body), headers=sent)
        response = conn.getresponse()
        got = {k.lower(): v for k, v in response.getheaders()}
        return response.status, got, response.read(4096).decode("utf-8", "replace")
    finally:
        conn.close()


def test_a_request_without_a_token_gets_401(private: GitVault) -> None:
    with serving(private.root) as port:
        status, body = post(port, INITIALIZE)
        bare = post_full(port, INITIALIZE, {})
    assert status == 401, (status, body)
    assert bare[1]["www-authenticate"].startswith("Bearer"), bare
    assert '"result"' not in body and "Unauthorized" in body, body


def test_a_request_with_a_wrong_token_gets_401(private: GitVault) -> None:
    with serving(private.root) as port:
        token = http_token(private.root)
        status, body = post(port, INITIALIZE, {"Authorization": "Bearer not-the-token-0123456789abcdef"})
        near = post(port, INITIALIZE, {"Authorization": f"Bearer {token[:-1]}"})
        other_scheme = post(port, INITIALIZE, {"Authorization": f"Basic {token}"})
        right = post_full(port, INITIALIZE, {"Authorization": f"Bearer {token}"})
    assert status == 401, (status, body)
    assert near[0] == 401 and other_scheme[0] == 401, (near, other_scheme)
    assert right[0] == 200 and '"serverInfo"' in right[2], right  # the owner's token opens it


ATTACKER = r"""
import json, sys
import anyio
from mcp.client import Client

print("CLIENT-RAN", flush=True)

def plain_status(url):
    import http.client, urllib.parse
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", u.path, body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
                 headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    print("STATUS", conn.getresponse().status, flush=True)

plain_status(sys.argv[1])

async def main(url):
    async with Client(url) as c:
        read = await c.call_tool("kp_read", {"ref": "notes/private.md"})
        print("READ", json.dumps([getattr(x, "text", "") for x in read.content]), flush=True)
        made = await c.call_tool("kp_propose", {
            "title": "Planted by another user",
            "rationale": "nobody asked for this",
            "changes": [{"op": "create", "path": "notes/planted.md", "content": "# Planted\n"}],
        })
        print("PROPOSE", json.dumps(made.structured_content), flush=True)

async def bounded(url):
    with anyio.fail_after(60):  # refused or not, the client ends on its own
        await main(url)

try:
    anyio.run(bounded, sys.argv[1])
except BaseException as e:
    print("REFUSED", type(e).__name__, str(e)[:300], flush=True)
"""


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to run a client as a second user (65534)"
)
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="setpriv (util-linux) is not installed")
def test_another_user_cannot_read_the_vault_through_the_http_server(private: GitVault) -> None:
    private.root.chmod(0o700)
    note_path = private.root / "notes" / "private.md"
    cat = subprocess.run([*NOBODY, "cat", str(note_path)], capture_output=True, text=True, timeout=30)
    assert cat.returncode != 0 and PRIVATE not in cat.stdout, "the second user can read the vault's files"
    with serving(private.root) as port:
        token = http_token(private.root)
        token_file = json.loads(
            subprocess.run(
                [sys.executable, "-m", "curator", "--vault", str(private.root), "--json", "mcp", "--print-token"],
                env={**os.environ, **env()},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )["file"]
        peek = subprocess.run([*NOBODY, "cat", token_file], capture_output=True, text=True, timeout=30)
        assert peek.returncode != 0 and token not in peek.stdout, "the second user can read the token"
        attacker = subprocess.run(
            [*NOBODY, sys.executable, "-c", ATTACKER, f"http://127.0.0.1:{port}/mcp"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd="/",
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent"},
        )
    out = attacker.stdout
    assert "CLIENT-RAN" in out, (out, attacker.stderr)  # the second user's client did run
    assert "STATUS 401" in out, out  # refused for want of the token, not for some other reason
    assert "PLAN-OCTOBER-7731" not in out, out
    proposals = private.root / ".kp" / "proposals"
    staged = sorted(p.name for p in proposals.iterdir()) if proposals.exists() else []
    assert staged == [], f"the second user staged {staged} in the owner's vault"


# The SDK's DNS-rebinding protection (Host and Origin checked against loopback names), shown to
# refuse a request that carries the owner's token: the token does not replace it.
def test_a_foreign_host_or_origin_is_refused(private: GitVault) -> None:
    with serving(private.root) as port:
        auth = {"Authorization": f"Bearer {http_token(private.root)}"}
        host = post(port, INITIALIZE, {**auth, "Host": f"attacker.example:{port}"})
        origin = post(port, INITIALIZE, {**auth, "Origin": "http://attacker.example"})
        local = post(port, INITIALIZE, {**auth, "Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"})
    assert host[0] == 421 and "Host" in host[1], host
    assert origin[0] == 403 and "Origin" in origin[1], origin
    assert local[0] == 200, local


# -- the token file ---------------------------------------------------------------------------


def curator(vault: Path, *args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(vault), *args],
        env={**os.environ, **env(), **(extra_env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def token_of(vault: Path, *more: str) -> tuple[str, Path]:
    got = curator(vault, "--json", "mcp", "--http", "--print-token", *more)
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    return data["token"], Path(data["file"])


def test_the_token_is_private_outside_the_vault_and_one_per_vault(private: GitVault, tmp_path: Path) -> None:
    token, file = token_of(private.root)
    assert len(token) >= 43 and file.read_text().strip() == token
    assert file.stat().st_mode & 0o777 == 0o600 and file.parent.stat().st_mode & 0o777 == 0o700
    assert file.stat().st_uid == os.geteuid()
    assert Path(os.environ["XDG_RUNTIME_DIR"]) in file.parents and private.root not in file.parents
    assert token_of(private.root) == (token, file)  # kept: a client's configuration survives a restart
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    assert token_of(other)[1] != file and token_of(other)[0] != token  # two vaults never share one
    fresh, same = token_of(private.root, "--new-token")
    assert same == file and fresh != token and file.read_text().strip() == fresh


def test_under_umask_000_every_folder_made_for_the_token_is_private(private: GitVault, tmp_path: Path) -> None:
    """No runtime folder and a new home: the state folders between home and the token are made
    too, and each is the user's alone, whatever the umask would have given them."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    script = "import os, runpy, sys; os.umask(0); sys.argv = ['curator', *sys.argv[1:]]; runpy.run_module('curator', run_name='__main__')"
    environ = {k: v for k, v in {**os.environ, **env()}.items() if k not in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME")}
    got = subprocess.run(
        [sys.executable, "-c", script, "--vault", str(private.root), "--json", "mcp", "--http", "--print-token"],
        env={**environ, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert got.returncode == 0, got.stderr
    file = Path(json.loads(got.stdout)["file"])
    assert home in file.parents
    made = [p for p in file.parents if home in p.parents]
    assert [p.relative_to(home).as_posix() for p in made][-1] == ".local", made
    assert {p.relative_to(home).as_posix(): oct(p.stat().st_mode & 0o777) for p in made} == {
        p.relative_to(home).as_posix(): "0o700" for p in made
    }
    assert file.stat().st_mode & 0o777 == 0o600


def test_a_token_others_could_read_is_replaced_not_reused(private: GitVault) -> None:
    token, file = token_of(private.root)
    file.chmod(0o644)
    again, _ = token_of(private.root)
    assert again != token and file.stat().st_mode & 0o777 == 0o600
    file.parent.chmod(0o755)
    third, _ = token_of(private.root)
    assert third != again and file.parent.stat().st_mode & 0o777 == 0o700


def test_the_server_refuses_to_start_when_the_token_cannot_be_kept_private(private: GitVault, tmp_path: Path) -> None:
    runtime = tmp_path / "runtime"
    (runtime / "curator").mkdir(parents=True, mode=0o700)
    (runtime / "curator" / "mcp-tokens").write_text("not a folder\n")
    port = free_port()
    refused = curator(private.root, "mcp", "--http", "--port", str(port), extra_env={"XDG_RUNTIME_DIR": str(runtime)})
    assert refused.returncode == 2, refused.stderr
    said = refused.stderr.strip()
    assert "\n" not in said and "HTTP token" in said and "Traceback" not in said, said
    inside = curator(
        private.root, "mcp", "--http", "--port", str(port), extra_env={"XDG_RUNTIME_DIR": str(private.root / ".run")}
    )
    assert inside.returncode == 2 and "inside the vault" in inside.stderr, inside.stderr
    assert not (private.root / ".run").exists()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to hand the token folder to another user"
)
def test_a_token_folder_owned_by_another_user_is_refused(private: GitVault) -> None:
    _token, file = token_of(private.root)
    os.chown(file.parent, 65534, 65534)
    refused = curator(private.root, "mcp", "--http", "--port", str(free_port()))
    assert refused.returncode == 2 and "another user" in refused.stderr, refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to plant a folder as another user"
)
def test_a_curator_folder_another_user_planted_above_the_tokens_is_refused(private: GitVault, tmp_path: Path) -> None:
    """In a shared runtime folder, a second user who makes ``curator/`` first (a folder of theirs,
    or a symlink to one) could later move ``mcp-tokens`` away and plant their own: refused, as a
    token folder of theirs is. A base folder anyone may write in and rename in is refused too."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # sticky, as /tmp is: others may create, not rename what is ours
    planted = shared / "curator"
    planted.mkdir()
    os.chown(planted, 65534, 65534)
    theirs = curator(private.root, "mcp", "--print-token", extra_env={"XDG_RUNTIME_DIR": str(shared)})
    assert theirs.returncode == 2 and "another user" in theirs.stderr, theirs.stderr
    planted.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted.symlink_to(elsewhere)
    linked = curator(private.root, "mcp", "--print-token", extra_env={"XDG_RUNTIME_DIR": str(shared)})
    assert linked.returncode == 2 and "symlink" in linked.stderr, linked.stderr
    assert list(elsewhere.iterdir()) == []
    planted.unlink()
    shared.chmod(0o777)  # writable by all, not sticky
    loose = curator(private.root, "mcp", "--print-token", extra_env={"XDG_RUNTIME_DIR": str(shared)})
    assert loose.returncode == 2 and "writable by every user" in loose.stderr, loose.stderr
    shared.chmod(0o1777)
    mine = curator(private.root, "mcp", "--print-token", extra_env={"XDG_RUNTIME_DIR": str(shared)})
    assert mine.returncode == 0, mine.stderr
    assert (shared / "curator").stat().st_mode & 0o777 == 0o700


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="prlimit (util-linux) is not installed")
def test_half_requests_that_never_finish_are_closed_and_the_server_lives(private: GitVault) -> None:
    """A second user needs no token to open connections: more than the server has file
    descriptors for, each sending half a request's headers, used to hold every descriptor until
    the server died (its error log needed one more). Each is closed once it has sent no whole
    request for ``REQUEST_SECONDS`` (those the kernel held back while the server was full, once
    accepted); the server keeps answering its owner."""
    import select

    from curator.mcp.transport import REQUEST_SECONDS

    token = http_token(private.root)
    auth = {"Authorization": f"Bearer {token}"}
    with serving(private.root, "prlimit", "--nofile=128:128") as port:
        idle = []
        for _ in range(160):
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=2)
            except OSError:
                break  # the listen backlog is full: the server accepts no more for now
            conn.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            idle.append(conn)
        assert len(idle) >= 128, len(idle)  # more than the server has descriptors for
        started, open_ = time.monotonic(), list(idle)
        while open_ and time.monotonic() - started < 3 * REQUEST_SECONDS + 10:
            ready, _, _ = select.select(open_, [], [], 1.0)
            for conn in ready:
                try:
                    data = conn.recv(1024)
                except OSError:
                    data = b""  # reset by the server: closed too
                if data == b"":
                    open_.remove(conn)
        waited = time.monotonic() - started
        for conn in idle:
            conn.close()
        assert open_ == [], f"{len(open_)} of {len(idle)} still open after {waited:.0f}s"
        assert waited > REQUEST_SECONDS - 1  # closed by the deadline, not at once
        status, body = post(port, INITIALIZE, auth)
        assert status == 200, body


def test_the_readme_s_client_config_opens_the_server(private: GitVault) -> None:
    """The README's JSON for an HTTP client, with the printed token put where it says: the
    headers it names are the ones the server takes, at the URL's path."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("`curator mcp --http --print-token` prints; put it in the client's JSON config:", 1)[1]
    whole = json.loads(block.split("```json\n", 1)[1].split("\n```", 1)[0])
    # The whole file a client reads, with its wrapper, as docs/mcp.md gives it.
    docs = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    in_docs = [json.loads(b.split("\n```", 1)[0]) for b in docs.split("```json\n")[1:]]
    assert whole in in_docs, whole
    config = whole["mcpServers"]["curator"]
    assert config["type"] == "http" and config["url"] == "http://127.0.0.1:8765/mcp", config
    with serving(private.root) as port:
        token = http_token(private.root)
        headers = {k: v.replace("PASTE-THE-TOKEN-HERE", token) for k, v in config["headers"].items()}
        status, body = post(port, INITIALIZE, headers)
        bare = post(port, INITIALIZE)
    assert status == 200 and '"serverInfo"' in body, (status, body)
    assert bare[0] == 401, bare


def test_a_port_another_program_holds_is_a_one_line_error_before_anything_says_it_serves(
    private: GitVault,
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = curator(private.root, "mcp", "--http", "--port", str(port))
    assert r.returncode == 2, r.stderr
    said = [line for line in r.stderr.splitlines() if line.startswith("curator")]
    assert said == [
        f"curator: cannot serve on 127.0.0.1:{port}: Address already in use; a program of yours holds it, "
        "another curator mcp perhaps (choose another port with --port)"
    ]
    assert "serving" not in r.stderr and "ERROR" not in r.stderr
    stdio = curator(private.root, "mcp", "--port", str(port))
    assert stdio.returncode == 2 and "pass --http" in stdio.stderr, stdio.stderr


SQUATTER = """
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
print("listening", flush=True)
conn, _ = s.accept()
head = b""
while b"\\r\\n\\r\\n" not in head:
    head += conn.recv(4096)
for line in head.decode("latin-1").split("\\r\\n"):
    if line.lower().startswith("authorization: bearer "):
        print(line.split(" ", 2)[2], flush=True)
conn.sendall(b"HTTP/1.1 503 Service Unavailable\\r\\nContent-Length: 0\\r\\n\\r\\n")
# The client closes first: the side that closes first keeps the port in TIME_WAIT for a minute,
# and this socket (no SO_REUSEADDR) would keep the owner's server off it.
conn.settimeout(30)
while conn.recv(4096):
    pass
"""


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv, to bind the port as a second user (65534)",
)
def test_a_token_sent_to_a_squatted_port_opens_nothing(private: GitVault) -> None:
    """A second user binds the owner's port first: the owner's server cannot start, and replaces
    the vault's token as it says so; the token the owner's client then sends to the squatter (as
    configured by the README) no longer opens the real server once it runs."""
    sent, _file = token_of(private.root)
    port = free_port()
    squatter = subprocess.Popen(
        [*NOBODY, "/usr/bin/python3", "-c", SQUATTER, str(port)], stdout=subprocess.PIPE, text=True, cwd="/"
    )
    try:
        assert squatter.stdout is not None and squatter.stdout.readline().strip() == "listening"
        refused = curator(private.root, "mcp", "--http", "--port", str(port))
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert "another user (uid 65534) holds it" in refused.stderr and "token was replaced" in refused.stderr
        status, _ = post(port, INITIALIZE, {"Authorization": f"Bearer {sent}"})  # the client, as configured
        assert status == 503
        captured = squatter.stdout.readline().strip()
        assert captured == sent
    finally:
        squatter.kill()
        squatter.wait(timeout=30)
    new = http_token(private.root)
    assert new != sent
    with serving(private.root, port=port):
        replay = subprocess.run(
            [*NOBODY, "/usr/bin/python3", "-c", REPLAY, str(port), captured],
            capture_output=True,
            text=True,
            timeout=60,
            cwd="/",
        )
        assert replay.stdout.strip() == "401", replay
        assert post(port, INITIALIZE, {"Authorization": f"Bearer {new}"})[0] == 200


REPLAY = """
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "replay", "version": "0"}}}
c.request("POST", "/mcp", body=json.dumps(body), headers={"Authorization": "Bearer " + sys.argv[2],
          "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
print(c.getresponse().status)
"""


def test_a_port_held_by_another_server_of_yours_keeps_the_token(private: GitVault) -> None:
    """Started twice, the second server of a vault cannot bind; the first one's clients keep working."""
    token = http_token(private.root)
    with serving(private.root) as port:
        again = curator(private.root, "mcp", "--http", "--port", str(port))
        assert again.returncode == 2 and "a program of yours holds it" in again.stderr, again.stderr
        assert http_token(private.root) == token
        assert post(port, INITIALIZE, {"Authorization": f"Bearer {token}"})[0] == 200
