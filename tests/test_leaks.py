"""The one leak scanner: what it finds, what it leaves alone, and how it redacts."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from curator import leak_patterns, leaks, redaction

KEYS = {
    "AWS Access Key": "key AKIAIOSFODNN7EXAMPLE here",
    "GitHub Token": "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "Google API Key": "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI",
    "Hugging Face Token": "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
    "npm Token": "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "Slack Token": "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
    "Password in URL": "postgres://admin:hunter2secret@db.example.org/app",
    "Assigned Secret": "api_key = 9f8e7d6c5b4a39281706",
    "High-entropy String": "q8Zr2LmX7vPk4Tn9Wb3Yc6Hd1Jf5Gs0A",
}
CLEAN = [
    "commit 3f9a1c0e8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it",
    "kp_id: kp:01M2HG3KW0N0GDH7KZP7PMFH67",
    "getUserNameFromDatabaseConnection and writeAheadLogCheckpoint2 are identifiers",
    "See https://example.org/docs/retrieval/chunking-strategies-for-long-documents",
    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;",
    "Dates like 2026-11-29T10:00:00Z and versions like 3.45.1 are fine.",
    "staged in .kp/proposals/01M8Q1N39VFHZ7K2D5XWQ0RT3B/ for review",
    "see .kp/proposals/01M8Q1N39VFHZ7K2D5XWQ0RT3B/files/notes/sqlite-wal.md",
    "kp_read kp:01M8Q1N39VFHZ7K2D5XWQ0RT3B/notes",
    # Model names, as a digest's method and the index card name the embedder.
    '    embedder: "local:all-MiniLM-L6-v2/384"',
    "Ranked by closeness to `now.md` (cosine of mean passage vectors, local:all-MiniLM-L6-v2/384)",
    "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 and multilingual-e5-small/384/q4",
]


@pytest.mark.parametrize(("kind", "line"), KEYS.items())
def test_each_kind_is_found_and_redacted_by_name(kind: str, line: str) -> None:
    assert kind in leaks.find_secrets(line)
    clean, kinds = redaction.redact(line)
    assert kind in kinds and "REDACTED: " in clean and kind in clean
    assert line.split()[-1] not in clean or kind == "AWS Access Key"


@pytest.mark.parametrize("line", CLEAN)
def test_ordinary_text_is_left_alone(line: str) -> None:
    assert leaks.find_secrets(line) == []
    assert redaction.redact(line) == (line, [])


def test_a_secret_beside_a_ulid_in_a_path_is_still_found() -> None:
    line = ".kp/proposals/01M8Q1N39VFHZ7K2D5XWQ0RT3B/q8Zr2LmX7vPk4Tn9Wb3Yc6Hd1Jf5Gs0A"
    clean, kinds = redaction.redact(line)
    assert "High-entropy String" in kinds and "q8Zr2LmX7vPk4Tn9Wb3Yc6Hd1Jf5Gs0A" not in clean


def test_a_secret_past_the_4000th_character_is_found() -> None:
    line = "x " * 3000 + "AKIAIOSFODNN7EXAMPLE"
    assert "AWS Access Key" in leaks.find_secrets(line)
    assert "AKIA" not in redaction.redact(line)[0]


def test_a_key_block_is_redacted_whole_and_seen_across_passages() -> None:
    body = ["MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi1Z4pCkBZl1ul6Rr5Yq8Qn2Hc4", "short tail=="]
    text = "\n".join(
        ["intro", "-----BEGIN OPENSSH PRIVATE KEY-----", *body, "-----END OPENSSH PRIVATE KEY-----", "after"]
    )
    clean, kinds = redaction.redact(text)
    assert kinds == ["Private Key"] or "Private Key" in kinds
    assert clean.split("\n")[0] == "intro" and clean.split("\n")[-1] == "after"
    assert not any(b in clean for b in body)
    # The same note as passages: the body's passage holds no BEGIN line, and is still caught.
    spans = [
        (1, 2, "intro\n-----BEGIN OPENSSH PRIVATE KEY-----"),
        (3, 4, "\n".join(body)),
        (5, 6, "-----END OPENSSH PRIVATE KEY-----\nafter"),
        (8, 8, "clean"),
    ]
    found = leaks.secrets_by_span(spans)
    assert [bool(k) for k in found] == [True, True, True, False]
    redacted, _ = redaction.redact_passage(spans, 1)
    assert "short tail" not in redacted and "MIIE" not in redacted
    page, _ = redaction.redact_lines(["short tail=="], text, 3)
    assert page == ["[REDACTED: Private Key]"]


@pytest.mark.parametrize(
    "text, hidden",
    [
        ("---\ntitle: db\npassword: |\n  hunter2hunter2zz\n---\n", "hunter2hunter2zz"),
        ("config:\n  password: >-\n    Tr0ub4dor-prod\n  user: bob\n", "Tr0ub4dor-prod"),
        ("passwords:\n  - correcthorse99\n", "correcthorse99"),
        ("api_tokens:\n- 'q8Zr2LmW9xK4pT7v'\n", "q8Zr2LmW9xK4pT7v"),
    ],
)
def test_a_value_yaml_writes_below_its_secret_key_is_redacted(text: str, hidden: str) -> None:
    """Each line alone carries no key (``  hunter2hunter2zz``): the block below a key that names
    a secret is judged as assigned to it, in a note's frontmatter or in YAML a note quotes."""
    from curator.redaction import redact

    clean, kinds = redact(text)
    assert hidden not in clean and "Assigned Secret" in kinds, clean


@pytest.mark.parametrize(
    "text",
    [
        "secrets:\n  db: hello world\n",  # a nested key is its own key's
        "token: |\n  just some prose here\n",  # a sentence under a key that names a token
        "passwords:\n  - ${DB_PASSWORD}\n  - changeme\n",  # a reference and a documented default
        "password:\nnext: value-at-the-same-depth-1234\n",  # the block ends at the key's own depth
    ],
)
def test_a_block_below_a_secret_key_that_holds_no_secret_is_left(text: str) -> None:
    from curator.redaction import redact

    assert redact(text) == (text, [])


# Keys in the languages notes are written in, with the colon their keyboards type (fullwidth in
# Chinese and Japanese, with no space after it).
SPOKEN = [
    ("密码：Xk7pq2Lm9w", "Xk7pq2Lm9w"),
    ("数据库密码： hunter2hunter2", "hunter2hunter2"),
    ("密碼: Tr0ub4dor&3x", "Tr0ub4dor&3x"),
    ("パスワード：Sakura2024xyz", "Sakura2024xyz"),
    ("API密钥=9f8e7d6c5b4a39281706aa", "9f8e7d6c5b4a39281706aa"),
    ("비밀번호: qwerty123456", "qwerty123456"),
    ("пароль: hunter2hunter2", "hunter2hunter2"),
    ("Kennwort: Geheim2024xyz", "Geheim2024xyz"),
    ("senha=correcthorse123", "correcthorse123"),
    ("wachtwoord: fietsband77", "fietsband77"),
    ("mot_de_passe = soleil2024abc", "soleil2024abc"),
]


@pytest.mark.parametrize(("line", "hidden"), SPOKEN)
def test_a_password_keyed_in_another_language_is_redacted(line: str, hidden: str) -> None:
    clean, kinds = redaction.redact(line)
    assert hidden not in clean and kinds, (line, clean)


SPOKEN_PROSE = [
    "密码：请联系管理员获取",  # "password: ask the administrator"
    "パスワード：管理者に聞いてください",
    "密码：见上文的说明。",
    "パスワードを忘れた場合は、リセットしてください。",
    "пароль: спросите администратора",
    "## 密码管理",
]


@pytest.mark.parametrize("line", SPOKEN_PROSE)
def test_prose_about_passwords_in_another_language_is_left(line: str) -> None:
    assert redaction.redact(line) == (line, []), line


def test_a_pattern_compiles_on_first_use_and_is_then_the_compiled_patterns_own() -> None:
    import re

    pattern = leak_patterns.LazyPattern(r"(?<![A-Za-z])[A-Z]{3}\d+")
    assert "finditer" not in vars(pattern)  # nothing compiled yet
    text = "ABC123 xABC9 DEF4"
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in re.finditer(pattern.source, text)]
    compiled = re.compile(pattern.source)
    assert {name: getattr(pattern, name).__self__ for name in leak_patterns.LazyPattern.METHODS} == dict.fromkeys(
        leak_patterns.LazyPattern.METHODS, compiled
    )  # re caches compiled patterns: the object's methods are bound to that one
    assert pattern.fullmatch("ABC12") and not pattern.match("abc1") and pattern.split("1ABC1y") == ["1", "y"]


SCAN = """
import json, sys
from curator import leaks
found = [(k.kind, k.line) for k in leaks.scan(sys.argv[1])]
print(json.dumps({"found": found, "library": "detect_secrets" in sys.modules}))
"""
PLUGIN_TEXT = (
    "slack: xoxb-123456789012-1234567890123-abcdefghijabcdefghijabcd\nmailchimp 0123456789abcdef0123456789abcdef-us12"
)


def _scan_process(cache: Path) -> dict[str, Any]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    out = subprocess.run([sys.executable, "-c", SCAN, PLUGIN_TEXT], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_the_plugins_patterns_are_read_from_detect_secrets_once_and_kept(tmp_path: Path) -> None:
    first = _scan_process(tmp_path)
    assert first["library"] and [kind for kind, _line in first["found"]] == ["Slack Token", "Mailchimp Access Key"]
    (kept,) = (tmp_path / "curator" / "leak-patterns").glob("*.json")
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700 and stat.S_IMODE(kept.stat().st_mode) == 0o600
    again = _scan_process(tmp_path)
    assert again == {"found": first["found"], "library": False}


@pytest.mark.parametrize(
    "tamper",
    ["empty plugin list", "no patterns", "bad flags", "not json", "symlink", "other key"],
)
def test_kept_patterns_that_are_not_what_curator_wrote_are_read_again_from_the_library(
    tmp_path: Path, tamper: str
) -> None:
    first = _scan_process(tmp_path)
    (kept,) = (tmp_path / "curator" / "leak-patterns").glob("*.json")
    data = json.loads(kept.read_text())
    if tamper == "empty plugin list":
        data["plugins"] = []
    elif tamper == "no patterns":
        data["plugins"] = [[name, kind, []] for name, kind, _p in data["plugins"]]
    elif tamper == "bad flags":
        data["plugins"][0][2][0][1] = True
    elif tamper == "other key":
        data["key"] = "0" * 64
    kept.write_text("{" if tamper == "not json" else json.dumps(data))
    if tamper == "symlink":
        planted = tmp_path / "planted.json"
        data["plugins"] = []
        planted.write_text(json.dumps(data))
        kept.unlink()
        kept.symlink_to(planted)
    again = _scan_process(tmp_path)
    assert again == {"found": first["found"], "library": True}


def test_a_pattern_folder_others_may_write_is_neither_read_nor_written(tmp_path: Path) -> None:
    folder = tmp_path / "curator" / "leak-patterns"
    _scan_process(tmp_path)
    (kept,) = folder.glob("*.json")
    data = json.loads(kept.read_text())
    data["plugins"] = [p for p in data["plugins"] if p[1] != "Slack Token"]  # another user's: misses Slack
    kept.write_text(json.dumps(data))
    folder.chmod(0o777)
    found = _scan_process(tmp_path)
    assert found["library"] and "Slack Token" in [kind for kind, _line in found["found"]]
    assert json.loads(kept.read_text())["plugins"] == data["plugins"]  # left as it was
