"""The leak scanner's rules that span lines: PEM blocks and the values YAML writes below a key.

A private key block is a secret whole, every line from ``-----BEGIN … PRIVATE KEY-----`` to its
``END`` line (or to the end of the text), so the body of a pasted key is caught even in a passage
or page that does not hold the ``BEGIN`` line; the lines of a certificate or public key block are
random but public. A key that names a secret and holds its value on the lines below it
(``password: |``, ``passwords:`` over a list) makes those lines assigned secrets.
``curator.leaks`` reads each text through these and judges every other rule a line at a time.
"""

from __future__ import annotations

import re

from curator.leak_patterns import lazy

PRIVATE_KEY = "Private Key"
PEM_BEGIN = lazy(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
PEM_END = lazy(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
PUBLIC_BEGIN = lazy(r"-----BEGIN (?:[A-Z0-9]+ )*(?:CERTIFICATE|PUBLIC KEY(?: BLOCK)?|X509 CRL)(?: REQUEST)?-----")
PUBLIC_END = lazy(r"-----END (?:[A-Z0-9]+ )*(?:CERTIFICATE|PUBLIC KEY(?: BLOCK)?|X509 CRL)(?: REQUEST)?-----")

BLOCK_KEY = lazy(r"(?P<indent> *)(?:- +)?(?P<quote>[\"']?)(?P<key>[^\s:#\"'][^:#\"']{0,63})(?P=quote) *: *(?P<style>[|>][-+0-9]{0,2})? *(?:#.*)?")
"""A YAML key whose value is on the lines below it: ``password: |``, ``passwords:`` over a list."""
BLOCK_ITEM = lazy(r"- +")
NESTED_KEY = lazy(r"[^\s:#][^:#]{0,63}: ")


def key_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indices of private key blocks; an unclosed block runs to the end."""
    return _blocks(lines, PEM_BEGIN, PEM_END, unclosed=True)


def public_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indices of certificate and public key blocks, closed ones only."""
    return _blocks(lines, PUBLIC_BEGIN, PUBLIC_END, unclosed=False) if any("-----BEGIN" in x for x in lines) else []


def _blocks(lines: list[str], begin: re.Pattern[str], end: re.Pattern[str], *, unclosed: bool) -> list[tuple[int, int]]:
    blocks = []
    i = 0
    while i < len(lines):
        if not begin.search(lines[i]):
            i += 1
            continue
        j = i
        if not end.search(lines[i]):
            j = i + 1
            while j < len(lines) and not end.search(lines[j]):
                j += 1
        if j >= len(lines) and not unclosed:
            break  # no END follows this BEGIN, so none follows a later one either
        last = min(j, len(lines) - 1)
        blocks.append((i, last))
        i = last + 1
    return blocks


def block_values(lines: list[str]) -> list[tuple[int, int, int]]:
    """(line, start, end) of the values a key that names a secret holds on the lines below it, as
    YAML writes them (a block scalar ``password: |``, a list under ``passwords:``): each line alone
    carries no key, so the scanner's line rules cannot see them. A line of a block scalar is judged
    whole; a list item by its text; a nested ``key: value`` is its own key's (the line rules judge
    it). One pass, each line looked at once, ended by the first line no deeper than the key (but a
    list item at the key's own depth). Hand-written, not a YAML parse: notes quote YAML inside
    prose and code fences, where no parser would take the note."""
    from curator.leak_rules import key_names_secret, value_is_secret

    found: list[tuple[int, int, int]] = []
    names: str | None = None
    depth = literal = 0
    bare = True
    for n, line in enumerate(lines):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        deeper = indent > depth or (indent == depth and bare and BLOCK_ITEM.match(stripped) is not None)
        if names is not None and stripped and deeper:
            value = stripped.rstrip()
            if not literal:
                item = BLOCK_ITEM.match(value)
                value = value[item.end() :] if item else value
                if NESTED_KEY.match(value) or value.endswith(":"):
                    continue
                value = value.strip("\"'")
            if value and value_is_secret(value, names, quoted=True):
                start = line.index(value)
                found.append((n, start, start + len(value)))
            continue
        if names is not None and not stripped:
            continue
        names = None
        m = BLOCK_KEY.fullmatch(line.rstrip()) if line.endswith((":", "|", ">", "-", "+")) or "#" in line else None
        if m is not None:
            names = key_names_secret(m["key"].strip())
            depth, literal = len(m["indent"]), bool(m["style"])
            bare = BLOCK_ITEM.match(line, depth) is None  # YAML lets its list sit at the key's depth
    return found


def settles(line: str) -> bool:
    """Whether what a scan finds below ``line`` owes nothing to the lines above it: a line at
    the left margin that is not a list item ends any YAML block value (``block_values``), and
    every other rule but the PEM blocks judges a line alone. So a change to a long note can be
    scanned in its neighbourhood, from the last such line above it to the first below it, as
    long as neither text holds a ``-----BEGIN`` or ``-----END`` line (see ``has_blocks``)."""
    return line[:1] not in ("", " ") and BLOCK_ITEM.match(line) is None


def has_blocks(text: str) -> bool:
    """Whether ``text`` may hold a PEM block (a private key, a certificate), which spans any
    number of lines: such a text is scanned whole."""
    return "-----BEGIN" in text or "-----END" in text
