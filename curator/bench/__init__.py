"""Retrieval benchmarks on BEIR-format data (SPEC §11)."""
