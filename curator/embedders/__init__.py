"""Embedders: a port with one adapter a module (SPEC §6)."""
