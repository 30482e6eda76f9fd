from __future__ import annotations

from curator.index.normalise import extra_terms, fts_query, query_terms


def test_identifiers_get_sub_words_and_joined_form() -> None:
    extra = extra_terms("call getUserName with busy_timeout and max-file-bytes").split()
    assert {"get", "user", "name", "getusername", "busytimeout", "maxfilebytes"} <= set(extra)


def test_query_terms_match_the_document_side() -> None:
    assert query_terms("getUserName") == ["getusername", "get", "user", "name"]
    assert query_terms("busy_timeout") == ["busy", "timeout", "busytimeout"]
    assert query_terms("why is the database locked") == ["database", "locked"]
    assert query_terms("the") == ["the"]  # only stop words: keep them


def test_fts_syntax_is_neutralised() -> None:
    q = fts_query(query_terms('foo:bar "NEAR" * -x AND (y)'))
    assert q == '"foo" OR "bar" OR "near" OR "x" OR "y"'
