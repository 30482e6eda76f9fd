"""Who holds a loopback port: the users whose sockets listen on it, from the kernel's tables.

When ``curator mcp --http --port P`` cannot bind, the program holding P receives whatever a
client configured for P sends, the bearer token included. A program of this user's (another
server of the same vault, started twice) is no one the token is hidden from; any other user's
is a squatter, and the token it may have been sent must stop opening the server.

Read from ``/proc/net/tcp`` and ``tcp6`` (Linux): a listening socket's line names its local
address, port and owner's uid. Where the tables cannot be read, the holder is unknown (None)
and the caller must assume the worst.
"""

from __future__ import annotations

LISTEN = "0A"
_REACHES_LOOPBACK = {
    "0100007F",  # 127.0.0.1
    "00000000",  # 0.0.0.0: every address, loopback included
    "00000000000000000000000000000000",  # [::], which takes IPv4 connections too
    "0000000000000000FFFF00000100007F",  # [::ffff:127.0.0.1]
}


def holders(port: int) -> set[int] | None:
    """The uids of the sockets listening on ``port`` where a client of 127.0.0.1 reaches them,
    or None when the kernel's tables cannot be read."""
    found: set[int] = set()
    read_any = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        read_any = True
        for line in lines:
            fields = line.split()
            if len(fields) < 8 or fields[3] != LISTEN:
                continue
            address, _, hex_port = fields[1].partition(":")
            if hex_port and int(hex_port, 16) == port and address.upper() in _REACHES_LOOPBACK:
                found.add(int(fields[7]))
    return found if read_any else None
