"""The one kp_id reader agrees with YAML: a differential property test between
``vault.kp_id`` (what the validator's KP006 and the hook read), the note parser (what the index
keeps) and ruamel.yaml's pure-Python safe loader run directly on the frontmatter block, over
the spellings YAML allows for one value: plain, quoted, escaped, commented, folded, literal,
flow mappings, anchors, quoted keys, CRLF, a BOM, keys around it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.vault import kp_id as reader
from curator.vault.identity import canonical, is_valid_kp_id
from curator.vault.note import NotANote, parse

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _yaml_value(text: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(io.StringIO(text))
    except YAMLError:
        return reader.UNREADABLE
    return data.get("kp_id") if isinstance(data, dict) else None


ulid_body = st.text(alphabet=CROCKFORD + CROCKFORD.lower(), min_size=26, max_size=26)
values = st.one_of(
    ulid_body.map(lambda u: "kp:" + u),  # valid, in either case
    ulid_body.map(lambda u: "kp:" + u[:-1]),  # one short
    st.sampled_from(["kp:", "kp:not-a-ulid", "zotero:ABCD1234", "KP:01J0000000000000000000AAAA"]),
)


def _spell(value: str, style: str) -> str:
    """``kp_id`` set to ``value`` in one YAML spelling (a mapping's lines, without the fences)."""
    escaped = "".join(f"\\x{ord(c):02x}" if c in "0A" else c for c in value)
    return {
        "plain": f"kp_id: {value}\n",
        "single": f"kp_id: '{value}'\n",
        "double": f'kp_id: "{value}"\n',
        "escaped": f'kp_id: "{escaped}"\n',
        "comment": f"kp_id: '{value}'  # minted by hand\n",
        "folded": f"kp_id: >-\n  {value}\n",
        "literal": f"kp_id: |-\n  {value}\n",
        "quoted-key": f'"kp_id": {value}\n',
        "anchor": f"id: &me {value}\nkp_id: *me\n",
        "tagged": f"kp_id: !!str {value}\n",
        "flow": f"{{kp_id: '{value}', title: E}}\n",
        "spaced": f"kp_id   :    {value}   \n",
        "escaped-key": f'"kp\\u005fid": {value}\n',  # the key's letters never appear
        "hex-key": f'"\\x6bp_id": {value}\n',
        "continued-key": f'? "kp_\\\n  id"\n: {value}\n',  # a quoted key continued after a backslash
    }[style]


STYLES = [
    "plain",
    "single",
    "double",
    "escaped",
    "comment",
    "folded",
    "literal",
    "quoted-key",
    "anchor",
    "tagged",
    "flow",
    "spaced",
    "escaped-key",
    "hex-key",
    "continued-key",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=values,
    style=st.sampled_from(STYLES),
    # ``---x: 1`` starts like a fence and is a key; a long title pushes kp_id past the reader's
    # first 4 KB.
    before=st.sampled_from(["", "title: A note\n", "tags: [a, b]\n", "# a comment\n", "---x: 1\n", f"title: {'a' * 4200}\n"]),
    after=st.sampled_from(["", "title: After\n", "aliases:\n  - x\n"]),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_the_kp_id_reader_the_note_parser_and_yaml_agree(
    value: str, style: str, before: str, after: str, crlf: bool, bom: bool, tmp_path_factory: Any
) -> None:
    yaml_text = before + _spell(value, style) + after if style != "flow" else _spell(value, style)
    text = "---\n" + yaml_text + "---\n# Body\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    raw = ("\ufeff" if bom else "").encode() + text.encode()

    want = _yaml_value(yaml_text)
    expected = canonical(want) if is_valid_kp_id(want) else None

    assert reader.read(raw) == expected, (yaml_text, want)
    path = Path(tmp_path_factory.mktemp("n")) / "n.md"
    path.write_bytes(raw)
    assert reader.read_file(str(path)) == expected
    try:
        note = parse("n.md", raw)
    except NotANote:
        assert expected is None
        return
    assert (canonical(note.kp_id) if note.kp_id else None) == expected
