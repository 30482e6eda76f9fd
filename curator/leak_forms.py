"""The leak scanner's other forms of a key and its value, beside ``key = value``
(``curator.leak_rules``): an XML element or a .NET setting, PHP's ``define()``, a command's flag,
curl's ``-u``, mysql's ``-p``, sshpass, an HTML form's input, a markdown table row, ``user:pass@host`` without a
scheme, a ``.netrc`` and a ``.pgpass`` line. Each finds a span; ``leak_rules`` judges the key
and the value, as it does for an assignment. Every pattern is bounded, so a line costs linear time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from curator.leak_rules import key_names_secret, letters_and_digits, value_is_secret

XML_ELEMENT = re.compile(r"<([\w.\-:]{1,80})(?:\s[^<>]{0,200})?>([^<>\n]{1,512})</\1>")
XML_SETTING = re.compile(r"\bkey=([\"'])([\w.\-:]{1,80})\1\s+value=([\"'])([^\"'\n]{1,512})\3")
PHP_DEFINE = re.compile(r"\bdefine\(\s*([\"'])([\w.\-]{1,80})\1\s*,\s*([\"'])([^\"'\n]{1,512})\3")
FLAG = re.compile(r"(?:^|(?<=\s))(--?[A-Za-z][\w\-]{0,40})[ \t]+([\"']?)([^\s\"']{1,256})\2")
NETRC = re.compile(r"^\s*(?:password|passwd)\s+(\S{1,256})\s*$|\blogin\s+\S{1,256}\s+(?:password|passwd)\s+(\S{1,256})")
CURL_USER = re.compile(r"(?:^|(?<=\s))(?:-u|--user)[ \t]+([\"']?)[^\s:\"']{1,128}:([^\s\"']{1,256})\1")
MYSQL_P = re.compile(r"(?:^|(?<=\s))-p([^\s\"']\S{0,255}|'[^'\n]{1,256}'|\"[^\"\n]{1,256}\")")
SSHPASS = re.compile(r"\bsshpass[ \t]+-p[ \t]*([\"']?)([^\s\"']{1,256})\1")
TABLE_ROW = re.compile(r"\|[ \t]*\**([\w.\- ]{1,80}?)\**[ \t]*\|[ \t]*`?([^|`\s]{6,256})`?[ \t]*\|")
"""A markdown table's key cell and the value cell beside it: ``| password | Xk7pq2LmW9 |``."""
BARE_CREDENTIALS = re.compile(
    r"(?<![\w/:@.%+\-])[\w.\-]{1,64}:([^\s:@/\"'`]{6,128})@[\w\-]{1,63}(?:\.[\w\-]{1,63})*\.[A-Za-z]{2,63}\b"
)
"""``user:password@host`` without a scheme (an scp or git remote, a pasted DSN): the URL rule's
credentials, where no ``://`` announces them."""
INPUT_TAG = re.compile(r"<input\b[^<>]{1,1024}>", re.IGNORECASE)
ATTRIBUTE = re.compile(r"(?<![\w\-])([\w\-:]{1,80})\s*=\s*(?:\"([^\"\n]{0,512})\"|'([^'\n]{0,512})'|([^\s\"'<>=`]{1,512}))")
"""An HTML form's input and its attributes: ``<input type="password" value="…">`` holds a
password whatever its name, and ``<input name="api_key" value="…">`` what its name says."""
PGPASS = re.compile(r"\s*[\w.\-*]{1,253}:(?:\d{1,5}|\*):[\w.\-*]{1,63}:[\w.\-*@]{1,63}:([^\s:]{1,256})\s*")


def other_forms(line: str) -> list[tuple[int, int]]:
    found = []
    if "</" in line:
        found += _keyed(XML_ELEMENT.finditer(line), 1, 2, quoted=True)
    if "value=" in line:
        found += _keyed(XML_SETTING.finditer(line), 2, 4, quoted=True)
    if "<input" in line.lower():
        found += [span for m in INPUT_TAG.finditer(line) if (span := _input_value(m)) is not None]
    if "define(" in line:
        found += _keyed(PHP_DEFINE.finditer(line), 2, 4, quoted=True)
    if " -" in line or line.startswith("-"):
        for m in FLAG.finditer(line):
            names = key_names_secret(m[1])
            if names is None or "credential" in m[1].lower() or m[3][0] in "(-\\":
                continue  # PowerShell's -Credential takes a user name or an object, not a secret
            if value_is_secret(m[3], names, quoted=bool(m[2])):
                found.append(m.span(3))
        for m in CURL_USER.finditer(line):
            if value_is_secret(m[2], "password", quoted=True):
                found.append(m.span(2))
        if "mysql" in line or "mariadb" in line:
            found += [
                m.span(1) for m in MYSQL_P.finditer(line) if value_is_secret(m[1].strip("'\""), "password", quoted=True)
            ]
    if "pass" in line:
        found += [
            m.span(m.lastindex or 1)
            for m in NETRC.finditer(line)
            if value_is_secret(m[m.lastindex or 1], "password", quoted=True)
        ]
    if "sshpass" in line:
        found += [m.span(2) for m in SSHPASS.finditer(line) if value_is_secret(m[2], "password", quoted=True)]
    if line.count("|") >= 3:  # a table documents types and words: only a value mixing letters and digits
        found += _keyed((m for m in TABLE_ROW.finditer(line) if letters_and_digits(m[2])), 1, 2, quoted=True)
    if "@" in line and ":" in line:
        found += [
            m.span(1)
            for m in BARE_CREDENTIALS.finditer(line)
            if letters_and_digits(m[1]) and value_is_secret(m[1], "password", quoted=True)
        ]
    pgpass = PGPASS.fullmatch(line) if line.count(":") >= 4 else None
    if pgpass and value_is_secret(pgpass[1], "password", quoted=True):
        found.append(pgpass.span(1))
    return found


def _input_value(tag: re.Match[str]) -> tuple[int, int] | None:
    """The span of an input's ``value`` when its type is ``password`` or its name or id names a
    secret (``key_names_secret``), and the value is one (``value_is_secret``)."""
    attrs: dict[str, tuple[str, int, int]] = {}
    for m in ATTRIBUTE.finditer(tag[0]):
        group = next(g for g in (2, 3, 4) if m[g] is not None)
        attrs.setdefault(m[1].lower(), (m[group], tag.start() + m.start(group), tag.start() + m.end(group)))
    if "value" not in attrs:
        return None
    value, start, end = attrs["value"]
    kind = attrs.get("type", ("",))[0].lower()
    names = "password" if kind == "password" else None
    for attr in ("name", "id"):
        if names is None and attr in attrs:
            names = key_names_secret(attrs[attr][0])
    if names is None or not value_is_secret(value.strip(), names, quoted=True):
        return None
    return start, end


def _keyed(matches: Iterable[re.Match[str]], key: int, value: int, *, quoted: bool) -> list[tuple[int, int]]:
    found = []
    for m in matches:
        names = key_names_secret(m[key])
        if names is not None and value_is_secret(m[value].strip(), names, quoted=quoted):
            found.append(m.span(value))
    return found
