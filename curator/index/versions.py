"""The versions of the steps that make an epoch's passages, which its fingerprint records.

Kept apart from the chunker and the normaliser they version: every read of the index checks
the serving epoch's fingerprint, and importing those modules (the normaliser brings language
detection and segmentation, 14 ms) for two numbers cost ``curator ls``, ``read`` and ``status``
more than their work. Bump a version here when its step's output changes.
"""

from __future__ import annotations

CHUNKER_VERSION = 2
"""``curator.index.chunker``. 2: comments left out; link text in breadcrumbs; a heading alone
joins what it heads; a note with nothing but a title is one passage."""

NORMALISATION_VERSION = 4
"""``curator.index.normalise``. 2: notes in other languages than English stemmed by their own
rules (Porter stemmed them all before); bigrams for unspaced scripts. 3: a note's language told
by its text when nothing says it; each word of a note in another language indexed exact beside
its stem; a note's aliases in its first passage's breadcrumb column. 4: a Portuguese note told
European or Brazilian by its words (``detect.variant``)."""

LINKS_VERSION = 3
"""``curator.vault.links``: what link extraction finds; bumped when it finds links it did not
before (2: Pandoc citations; 3: Obsidian's forms: escaped table pipes, markdown links by name,
[[a]](b)), so the next reconcile reads every note once for them. Kept here, not beside the
extraction: the freshness check of every read compares it, and importing the link modules for
it cost each `curator search` 3.6 ms."""
