"""The attachment tests need the attachments extra (pypdfium2, python-docx) and the dev
extra's ReportLab to make their PDFs."""

from __future__ import annotations

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("docx")
pytest.importorskip("reportlab")
