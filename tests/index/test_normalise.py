from __future__ import annotations

from curator.index.normalise import extra_terms, fts_query, query_terms


def test_identifiers_get_sub_words_and_joined_form() -> None:
    extra = extra_terms("call getUserName with busy_timeout and max-file-bytes").split()
    assert {"get", "user", "name", "getusername", "busytimeout", "maxfilebytes"} <= set(extra)


def test_query_terms_match_the_document_side() -> None:
    assert query_terms("getUserName", mode="fold") == ["getusername", "get", "user", "name"]
    assert query_terms("busy_timeout", mode="fold") == ["busy", "timeout", "busytimeout"]
    assert query_terms("why is the database locked", mode="fold") == ["database", "locked"]
    assert query_terms("the", mode="fold") == ["the"]  # only stop words: keep them
    # English words go to FTS5's porter as they are; for notes in other languages each
    # word is also looked up exact, and stemmed in the question's own language only
    assert query_terms("why is the database locked") == ["database", "locked"]
    assert query_terms("Einstellungen laden", ("en", "de"), asker="de") == [
        "einstellungen",
        "einstellungen1",
        "einstell0",
        "laden",
        "laden1",
        "lad0",
    ]
    # a language without a stemmer among the notes': the word exact
    assert query_terms("Templater", ("en", "zh")) == ["templater", "templater1"]


def test_a_question_is_stemmed_in_its_own_language_only() -> None:
    # an English question in a vault of English, French and German notes: no French or German
    # stem of "tags" (tag0) that would match those notes' "tag" as if it were the same word
    terms = query_terms("nested tags", ("en", "fr", "de"), asker="en")
    assert not any(t.endswith("0") for t in terms), terms
    # of unknown language: exact forms only, no stems of any language
    assert query_terms("nested tags", ("en", "fr", "de")) == ["nested", "nested1", "tags", "tags1"]
    # an English question's words weigh double in English notes (a term twice counts twice)
    assert terms == ["nested", "nested", "nested1", "tags", "tags", "tags1"]


def test_notes_in_other_languages_are_indexed_exact_and_stemmed() -> None:
    from curator.index.normalise import fts_row

    crumb, body, _extra = fts_row("Einstellungen", "Die Dateien werden geladen.", "de", "fold+stem")
    assert (crumb, body) == ("einstellungen1 einstell0", "die1 die0 dateien1 datei0 werden1 werd0 geladen1 gelad0")
    assert fts_row("Settings", "Files are loaded.", "en", "fold+stem")[:2] == ("Settings", "Files are loaded.")
    assert fts_row("Einstellungen", "geladen", "de", "fold")[:2] == ("Einstellungen", "geladen")  # no stemming


def test_query_stop_words_follow_the_index_languages() -> None:
    assert query_terms("die Einstellungen", ("en",), mode="fold") == ["die", "einstellungen"]
    assert query_terms("die Einstellungen", ("en", "de"), mode="fold") == ["einstellungen"]


def test_elided_articles_and_russian_function_words_are_stop_words() -> None:
    # split from their word at the apostrophe, d' l' dell' un' were looked up as words of
    # their own (dell1 is in every Italian note); Russian had no stop words at all
    assert query_terms("faire un lien vers le titre d'une note", ("en", "fr"), "fold", "fr") == [
        "faire",
        "lien",
        "vers",
        "titre",
        "note",
    ]
    assert query_terms("cambiare la lingua dell'interfaccia", ("en", "it"), "fold", "it") == [
        "cambiare",
        "lingua",
        "interfaccia",
    ]
    assert query_terms("inserire un’immagine nella nota", ("en", "it"), "fold", "it") == ["inserire", "immagine", "nota"]
    assert query_terms("как вставить картинку в заметку", ("en", "ru"), "fold", "ru") == ["вставить", "картинку", "заметку"]
    # a question of nothing else keeps its words
    assert query_terms("как", ("en", "ru"), "fold", "ru") == ["как"]


def test_fts_syntax_is_neutralised() -> None:
    q = fts_query(query_terms('foo:bar "NEAR" * -x AND (y)', mode="fold"))
    assert q == '"foo" OR "bar" OR "near" OR "x" OR "y"'
