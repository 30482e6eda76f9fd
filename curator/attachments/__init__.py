"""Attachments: PDFs and Word files kept in the vault, turned into text with a locator.

The extractor port (``base.Extractor``) has one adapter a format (``pdf``, ``word``) and a
registry by file suffix (``all_extractors``); ``sandbox`` runs an adapter in a child
process with CPU, memory and output limits, so a hostile file costs bounded time and
memory and never stops the index. What the text becomes (passages, pages, citations) is
the index's business (``curator.index.attachment``).
"""
