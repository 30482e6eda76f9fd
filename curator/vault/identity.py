"""Note identity: ``kp_id`` is minted, never derived (SPEC §1)."""

from __future__ import annotations

import re

KP_ID_MAX = 128
KP_ID_RE = re.compile(r"^[a-z][a-z0-9-]*:[A-Za-z0-9._-]+$")
# Crockford base32; a ULID's first character is at most 7 (48-bit timestamp).
ULID_RE = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")


def is_valid_kp_id(value: object) -> bool:
    return isinstance(value, str) and len(value) <= KP_ID_MAX and bool(KP_ID_RE.match(value))


def is_ulid(value: object) -> bool:
    return isinstance(value, str) and bool(ULID_RE.match(value))


def is_fresh_kp_ulid(value: object) -> bool:
    """A ``kp:`` identity whose ID part is a ULID: what Curator itself mints."""
    return isinstance(value, str) and value.startswith("kp:") and is_ulid(value[3:])


def canonical(kp_id: str) -> str:
    """The form two kp_ids are compared in: a ULID is Crockford base32, which reads the same in
    either case, so ``kp:01j...a`` and ``kp:01J...A`` are one identity."""
    ns, sep, rest = kp_id.partition(":")
    return f"{ns}:{rest.upper()}" if sep and is_ulid(rest.upper()) else kp_id


def namespace(kp_id: str) -> str:
    return kp_id.split(":", 1)[0]


def new_ulid() -> str:
    from ulid import ULID  # python-ulid's import is slow; only minting needs it

    return str(ULID())


def mint() -> str:
    return "kp:" + new_ulid()


def why_invalid(value: object) -> str:
    if not isinstance(value, str):
        return f"kp_id must be a string, not {type(value).__name__}"
    if len(value) > KP_ID_MAX:
        return f"kp_id is {len(value)} characters long (at most {KP_ID_MAX})"
    return f"kp_id {value!r} is not NAMESPACE:ID ([a-z][a-z0-9-]*:[A-Za-z0-9._-]+)"
