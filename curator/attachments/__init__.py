"""Attachments: PDFs and Word files kept in the vault, turned into text with a locator.

The extractor port (``base.Extractor``) has one adapter a format (``pdf``, ``word``) and a
registry by file suffix (``all_extractors``); ``sandbox`` runs an adapter in a child
process with CPU, memory and output limits, so a hostile file costs bounded time and
memory and never stops the index. What the text becomes (passages, pages, citations) is
the index's business (``curator.index.attachment``).
"""

VERSIONS: dict[str, int] = {"PDF": 1, "Word": 1}
"""Each format's adapter version (by its ``kind``), what an epoch's fingerprint records of
extraction: a new version re-reads every file of its format. Here, not beside each adapter,
because every search checks the fingerprint and the adapters' registry costs 4 ms to import;
each adapter takes its own ``version`` from it."""
