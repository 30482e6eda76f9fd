"""Hybrid search: BM25 and vectors fused by rank, with citations (SPEC §5)."""
