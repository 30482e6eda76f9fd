"""The registry of extractor adapters and the versions an epoch's fingerprint records."""

from __future__ import annotations

from curator.attachments import VERSIONS
from curator.attachments.all_extractors import EXTRACTORS, for_path


def test_every_adapter_has_its_version_in_the_fingerprints_table_and_no_other() -> None:
    adapters = {adapter.kind: adapter.version for adapter in EXTRACTORS.values()}
    assert adapters == VERSIONS


def test_an_adapter_is_found_by_its_suffix_in_any_case() -> None:
    assert for_path("papers/A.PDF") is EXTRACTORS[".pdf"]
    assert for_path("notes/draft.docx") is EXTRACTORS[".docx"]
    assert for_path("notes/a.md") is None
