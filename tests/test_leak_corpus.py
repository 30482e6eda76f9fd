"""The leak scanner on the corpus of secret shapes (tests/leaks_corpus.py): recall by shape, no false
positive on the negatives, a (key, value) pair judged as an assignment, and linear time."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from curator import leaks, redaction
from tests import leaks_corpus as lc
from tests.conftest import ROOT

N = 200
RECALL = 0.97
"""The lowest share of a shape's samples that must be found and redacted whole (all are today)."""


@pytest.mark.parametrize("shape", lc.SHAPES)
def test_each_shape_is_found_and_redacted_whole(shape: str) -> None:
    samples = lc.positives(shape, N)
    missed = []
    for s in samples:
        clean, kinds = redaction.redact(s.text)
        if not kinds or any(secret in clean for secret in s.secrets):
            missed.append((s.text, clean))
    assert len(missed) <= (1 - RECALL) * N, missed[:5]


@pytest.mark.parametrize(("family", "texts"), lc.negatives().items())
def test_no_negative_is_flagged(family: str, texts: list[str]) -> None:
    flagged = [(t, leaks.find_secrets(t)) for t in texts if leaks.find_secrets(t)]
    assert flagged == []


ISSUE = {
    # The lines a pasted .env or JSON config holds, each missed before.
    "DB_PASSWORD=hunter2hunter2": "hunter2hunter2",
    "POSTGRES_PASSWORD: correcthorsebatterystaple": "correcthorsebatterystaple",
    "SECRET_KEY = 'django-insecure-8x!k2#q9v$w1z^e3r&t5y*u7i(o0p)l-m+n4b6'": "8x!k2#q9v$w1z^e3r&t5y*u7i(o0p)l-m+n4b6",
    "DATADOG_API_KEY=0f1e2d3c4b5a69788796a5b4c3d2e1f0": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    '{"password": "hunter2hunter2", "api_key": "0f1e2d3c4b5a69788796a5b4c3d2e1f0"}': "hunter2hunter2",
    "Authorization: Bearer 0f1e2d3c4b5a69788796a5b4c3d2e1f0": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "https://:pass@db.example.org/app": ":pass@",  # "pass" is in the kind's name
    "https://user:pa/ss@db.example.org/app": "pa/ss",
}


@pytest.mark.parametrize(("line", "secret"), ISSUE.items())
def test_the_reported_shapes_are_found(line: str, secret: str) -> None:
    clean, kinds = redaction.redact(line)
    assert kinds and secret not in clean, clean


def test_only_the_value_of_an_assignment_is_redacted() -> None:
    clean, kinds = redaction.redact("export DB_PASSWORD='hunter2hunter2'  # staging")
    assert clean == "export DB_PASSWORD='[REDACTED: Assigned Secret]'  # staging" and kinds == ["Assigned Secret"]
    clean, _ = redaction.redact("postgres://app:hunter2hunter2@db.example.org:5432/app")
    assert clean == "postgres://app:[REDACTED: Password in URL]@db.example.org:5432/app"


FIELDS = {
    ("password", "hunter2hunter2"): "hunter2hunter2",
    ("token", "0123456789abcdef0123456789abcdef"): "0123456789abcdef0123456789abcdef",
    ("db.password", "correct horse battery staple"): "correct horse battery staple",
    ("DATADOG_API_KEY", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"): "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    ("apiKey", "q8Zr2LmX7vPk4Tn9Wb3Y"): "q8Zr2LmX7vPk4Tn9Wb3Y",
    ("notes", "rotated AKIAIOSFODNN7EXAMPLE today"): "AKIAIOSFODNN7EXAMPLE",  # the value scanned as text too
    ("private_key", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----"): "MHcCAQEEIBkg",
}
CLEAN_FIELDS = [
    ("title", "Password rotation"),
    ("password", "changeme"),
    ("password", "${DB_PASSWORD}"),
    ("token", "a unit of text"),
    ("max_tokens", "4096"),
    ("password_policy", "twelve characters or more"),
    ("key", "sqlite-wal"),
    ("tags", "secrets"),
]


@pytest.mark.parametrize(("field", "secret"), FIELDS.items())
def test_a_frontmatter_field_is_judged_as_an_assignment(field: tuple[str, str], secret: str) -> None:
    key, value = field
    clean, kinds = redaction.redact_field(key, value)
    assert kinds and secret not in clean, clean
    assert leaks.scan_field(key, value)
    if key in ("password", "token"):
        # Scanned alone, neither string is a secret: that is why a mapping needs scan_field.
        assert leaks.find_secrets(key) == [] and leaks.find_secrets(value) == []


@pytest.mark.parametrize(("key", "value"), CLEAN_FIELDS)
def test_a_field_that_holds_no_secret_is_left_alone(key: str, value: str) -> None:
    assert redaction.redact_field(key, value) == (value, [])
    assert leaks.scan_field(key, value) == ()


def test_a_field_reports_spans_in_the_value() -> None:
    # A block scalar under a password key is the password, each of its lines.
    value = "hunter2hunter2\n  second-part-9"
    assert leaks.scan_field("password", value) == (
        leaks.Leak("Assigned Secret", 0, 0, 14),
        leaks.Leak("Assigned Secret", 1, 2, 15),
    )
    assert redaction.redact_field("password", "  hunter2hunter2 ")[0] == "  [REDACTED: Assigned Secret] "


PATHOLOGICAL = {
    # Lines that make a backtracking regex retry from every position: each one took from a
    # second to minutes before the scanner's patterns were made to start only where a token does.
    "slashes": "//" * 50_000,
    "eyJ": "eyJ" * 33_334,
    "eyJ and dots": "eyJa." * 20_000,
    "colons after a scheme": "https://a:" + "a:" * 49_995,
    "at signs in a URL": "https://" + "a:b@" * 24_998,
    "assignments": "password=" * 11_112,
    "keys and colons": "key: " * 20_000,
    "quotes": "token='" * 14_286,
    "digits in a token": "KEY=xoxb-" + "7" * 99_990,
    "words in a token": "Win32_" * 16_667,
    "one letter": "a" * 100_000,
}
LIMIT = 1.0
"""CPU seconds a 100 KB line may take; each takes about a tenth of that on an idle machine."""


def test_a_pathological_line_is_scanned_in_linear_time() -> None:
    # A separate process, so a line that would take minutes is stopped (a regex in C cannot be
    # interrupted) and named.
    code = textwrap.dedent(
        """
        import json, sys, time
        from curator import leaks, redaction
        leaks.scan("warm up")
        for name, line in json.loads(sys.stdin.read()).items():
            start = time.process_time()
            leaks.scan(line)
            print(json.dumps([name, time.process_time() - start]), flush=True)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        out, _ = proc.communicate(json.dumps(PATHOLOGICAL), timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    took = dict(json.loads(line) for line in out.splitlines())
    assert list(took) == list(PATHOLOGICAL), f"stuck on {next(n for n in PATHOLOGICAL if n not in took)}"
    slow = {name: round(seconds, 3) for name, seconds in took.items() if seconds > LIMIT}
    assert slow == {}
    assert all(len(line) >= 99_990 for line in PATHOLOGICAL.values())


@pytest.mark.parametrize(("query", "secret"), lc.QUERY_SECRETS.items())
def test_a_query_shaped_secret_is_found(query: str, secret: str) -> None:
    assert secret in query
    assert leaks.find_query_secrets(query), query


@pytest.mark.parametrize("query", lc.QUERY_QUESTIONS)
def test_a_question_is_not_taken_for_a_secret(query: str) -> None:
    assert leaks.find_query_secrets(query) == []


def test_every_secret_in_a_note_is_a_secret_in_a_query() -> None:
    for shape in lc.SHAPES:
        for s in lc.positives(shape, 20):
            for line in s.text.split("\n"):
                assert set(leaks.find_secrets(line)) <= set(leaks.find_query_secrets(line))
