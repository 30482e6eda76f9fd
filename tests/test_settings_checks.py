"""What a config may say: every mistake of it said at once, in one line."""

from __future__ import annotations

import pytest

from curator.errors import ConfigError
from curator.settings import parse


def test_every_mistake_of_a_config_is_said_at_once() -> None:
    """A config with three mistakes names them all in its one line, not the first one per run."""
    with pytest.raises(ConfigError) as e:
        parse(b"search:\n  link: true\n  k: ten\nnotes:\n  max_bytes: -1\n")
    message = str(e.value)
    assert "unknown key search.link" in message and "search.k must be" in message and "notes.max_bytes" in message
    assert "\n" not in message


def test_one_mistake_is_said_as_before() -> None:
    with pytest.raises(ConfigError) as e:
        parse(b"search:\n  k: ten\n")
    assert e.value.message == "search.k must be a non-negative integer, not 'ten'"


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"search:\n  k: 5\n   links: true\n", "at line 3, column 9: mapping values are not allowed here"),
        (b"search:\n\tk: 5\n", "at line 2, column 1: found character '\\t' that cannot start any token"),
    ],
)
def test_a_config_that_is_not_yaml_says_where_and_what(raw: bytes, said: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse(raw)
    assert e.value.message == f".kp/config.yaml is not valid YAML {said}"
