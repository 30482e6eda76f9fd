"""Curator: a local-first, git-native knowledge plane over a markdown vault."""

__version__ = "0.1.0"
