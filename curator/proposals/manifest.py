"""The manifest ``proposal.yaml`` as pydantic models (SPEC §2).

A change's ``Op`` and an author's ``AuthorKind`` are ``typing.Literal`` aliases, as every state
Curator reads and writes as text is (``proposals.events`` says why): the string itself at run
time, so ``proposal.yaml`` and JSON carry the same bytes, and mypy refuses a misspelled one.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import Any, Literal, get_args

# pydantic looks for plugins through every installed package's entry points; that
# scan is a third of `curator validate`'s start-up, and Curator uses no plugins.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from curator import clock
from curator.proposals.layout import SCHEMA
from curator.vault.identity import is_ulid

Op = Literal["create", "modify", "delete"]
"""What a change does to its file."""
AuthorKind = Literal["agent", "human", "librarian"]
"""Who stages a proposal: an agent (``kp_propose``), a person (``curator propose``), or Curator's
own librarian (``curator digest``)."""
AUTHOR_KINDS: tuple[AuthorKind, ...] = get_args(AuthorKind)

HEX_OID = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


class Author(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: AuthorKind
    """Who staged the proposal."""
    name: str = Field(min_length=1, max_length=200)
    """Their name, e.g. the agent's client name or the person's git name."""

    @field_validator("name")
    @classmethod
    def _one_line(cls, v: str) -> str:
        if any(ord(c) < 32 for c in v):
            raise ValueError("must be one line of text")
        return v

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    op: Op
    """What happens to the file."""
    path: str = Field(min_length=1)
    """Vault-relative POSIX path."""
    kp_id: str | None = None
    """The note's identity (required for create; informative otherwise)."""
    base_blob: str | None = None
    """Git blob id of the file the change was made against (modify and delete)."""

    @field_validator("base_blob")
    @classmethod
    def _oid(cls, v: str | None) -> str | None:
        if v is not None and not HEX_OID.match(v):
            raise ValueError("must be a full hexadecimal git object id")
        return v


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["proposals/v1"] = Field(alias="schema")
    """Always proposals/v1."""
    id: str
    """The proposal's ULID, equal to its directory name."""
    title: str = Field(min_length=1, max_length=300)
    """One line saying what the proposal does."""
    rationale: str = ""
    """Why; shown to the reviewer and written into the commit message."""
    author: Author
    created: str
    """UTC ISO-8601 time of staging."""
    base: str
    """The commit the proposal was staged against."""
    changes: list[Change] = Field(min_length=1)
    supersedes: str | None = None
    """The proposal this one is a revision of, if any: rebased (``curator rebase``), partly accepted
    (``curator apply --only``/``--hunks``), edited by a reviewer, or its author's answer to a
    request for changes (``kp_propose`` with ``revises``). That one's ``superseded`` event names this."""
    revised_by: Author | None = None
    """Who made this revision when it is not its author: the reviewer who kept some of an agent's
    hunks, or rebased it (the author stays the one whose change it is)."""

    @field_validator("supersedes")
    @classmethod
    def _ulid(cls, v: str | None) -> str | None:
        if v is not None and not is_ulid(v):
            raise ValueError("must be the ULID of the proposal this one replaces")
        return v

    @field_validator("created")
    @classmethod
    def _utc(cls, v: str) -> str:
        try:
            when = clock.read(v)
        except ValueError:
            raise ValueError("must be an ISO-8601 time such as 2026-11-29T10:00:00Z") from None
        if when.utcoffset() != dt.timedelta(0):
            raise ValueError("must be in UTC (end with Z)")
        return v

    @field_validator("base")
    @classmethod
    def _commit(cls, v: str) -> str:
        if not HEX_OID.match(v):
            raise ValueError("must be a full hexadecimal commit id")
        return v

    def to_yaml_dict(self) -> dict[str, Any]:
        data = self.model_dump(by_alias=True, exclude_none=True)
        keys = ("schema", "id", "title", "rationale", "author", "created", "base", "supersedes", "revised_by", "changes")
        return {k: data[k] for k in keys if k in data}


def parse(data: Any) -> tuple[Manifest | None, list[str]]:
    """The manifest, or the list of problems in it (each one line)."""
    if not isinstance(data, dict):
        return None, ["proposal.yaml is not a mapping"]
    if data.get("schema") != SCHEMA:
        return None, [f"schema is {data.get('schema')!r}, expected {SCHEMA!r}"]
    try:
        return Manifest.model_validate(data), []
    except ValidationError as e:
        problems = []
        for err in e.errors():
            loc = ".".join(str(p) for p in err["loc"]) or "manifest"
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown field"
            elif err["type"] == "literal_error" and loc.endswith(".op"):
                msg = f"unknown op {err.get('input')!r} (create, modify or delete)"
            problems.append(f"{loc}: {msg}")
        return None, sorted(set(problems))
