"""Translations: a page found in another language than the question's is answered by its
translation in the question's language, the page found listed under it (``search.translations``)."""

from __future__ import annotations

import json

import anyio
import pytest

from tests.conftest import GitVault, make_git_vault
from tests.mcp.harness import connect, ok

ALIAS_ES = """---
lang: es
permalink: aliases
---
Si quieres referirte a un archivo con otros nombres, agrega alias a la nota. Un alias es otro nombre.

## Agregar un alias a una nota

Para agregar un alias a una nota, agrega la propiedad `aliases`. Los alias se escriben como una lista.

## Enlazar a una nota con un alias

Escribe el alias en un enlace interno: cada alias aparece en las sugerencias.
"""
ALIAS_FR = """---
lang: fr
permalink: aliases
---
Pour désigner un fichier par d'autres noms, ajoutez des alias à la note. Un alias est un autre nom.

## Ajouter un alias à une note

Pour ajouter un alias à une note, ajoutez la propriété `aliases`. Les alias s'écrivent en liste.

## Lier une note par un alias

Tapez l'alias dans un lien interne : chaque alias apparaît dans les suggestions.
"""
ALCUNHAS_PT = """---
lang: pt
permalink: aliases
---
Se pretende referenciar um ficheiro por outros nomes, adicione alcunhas à nota. Uma alcunha é outro nome.

## Adicionar uma alcunha a uma nota

Para adicionar uma alcunha a uma nota, adicione a propriedade `aliases`. As alcunhas são uma lista.

## Ligar a uma nota com uma alcunha

Escreva a alcunha numa ligação interna: cada alcunha aparece nas sugestões.
"""
CANVAS_ES = """---
lang: es
translationKey: 7
---
El plugin Canvas es un lienzo infinito. Abre un canvas nuevo desde la barra lateral y agrega tarjetas al canvas.
"""
ALIAS_IT = """---
lang: it
permalink: aliases
---
Per indicare un file con altri nomi, aggiungi degli alias alla nota. Un alias è un altro nome.

## Aggiungere un alias a una nota

Per aggiungere un alias a una nota, aggiungi la proprietà `aliases`. Gli alias si scrivono in un elenco.
"""
TELA_PT = """---
lang: pt
translationKey: 7
---
O plugin de tela é um espaço infinito. Abra uma tela nova na barra lateral e adicione cartões à tela.
"""
BACKLINKS_ES = """---
lang: es
---
El panel de backlinks muestra las notas que enlazan a la nota activa: abre los backlinks desde la barra lateral.
"""
LIGACOES_PT = """---
lang: pt
---
O painel de ligações de entrada mostra as notas que ligam à nota ativa: abra-o na barra lateral.
"""
NOTAS_PT = """---
lang: pt
---
Uma nota é um ficheiro de texto no cofre. Pode criar uma nota nova, mudar o nome de uma nota e apagá-la.
"""
OTHER = {
    "pt": "Sincronize o cofre entre dispositivos, Os temas mudam as cores da interface, "
    "Importe notas do Evernote, Os atalhos de teclado executam comandos",
    "es": "Sincroniza tu bóveda entre dispositivos, Los temas cambian los colores de la interfaz, "
    "Importa notas desde Evernote, Los atajos de teclado ejecutan comandos",
    "fr": "Synchronisez votre coffre entre appareils, Les thèmes changent les couleurs de l'interface, "
    "Importez des notes depuis Evernote, Les raccourcis clavier lancent des commandes",
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    """A help vault in three languages: the alias page in each (one ``permalink``), the canvas page
    in two (one Hugo ``translationKey``), the backlinks page in two with no key, the Italian alias
    page under a file name that looks like a key, and pages on other things (so that `alias` is a
    rare word, as in a real vault)."""
    v = make_git_vault(tmp_path_factory.mktemp("translations") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("es/Enlazar/Alias.md", ALIAS_ES)
    v.write("fr/Lier/Alias.md", ALIAS_FR)
    v.write("keys/AKIA2E3F4G5H6J7K8L9M.md", ALIAS_IT)
    v.write("pt/Ligar/Alcunhas.md", ALCUNHAS_PT)
    v.write("es/Plugins/Lienzo.md", CANVAS_ES)
    v.write("pt/Plugins/Tela.md", TELA_PT)
    v.write("es/Enlazar/Backlinks.md", BACKLINKS_ES)
    v.write("pt/Ligar/Ligações de entrada.md", LIGACOES_PT)
    v.write("pt/Notas.md", NOTAS_PT)
    # Keys that name no one page: one every index page shares, a list, an empty one.
    v.write("es/Grafo.md", "---\nlang: es\npermalink: /\n---\nEl grafo muestra cada nota como un punto.\n")
    for n in range(4):
        v.write(f"pt/Inicio/{n}.md", f"---\nlang: pt\npermalink: /\n---\nPágina inicial número {n} do cofre.\n")
    v.write(
        "es/Incrustar.md",
        "---\nlang: es\npermalink: [embeds]\n---\nLos embeds muestran otra nota dentro de una nota.\n",
    )
    v.write("pt/Incorporar.md", "---\nlang: pt\npermalink: [embeds]\n---\nIncorpore um ficheiro dentro de uma nota.\n")
    v.write("es/Vacío.md", "---\nlang: es\npermalink: ''\n---\nEl webhook avisa a otro servicio.\n")
    v.write("pt/Vazio.md", "---\nlang: pt\npermalink: ''\n---\nUma ligação externa aponta para fora do cofre.\n")
    # A note whose language is not known (too short to tell), sharing a key with a Portuguese one.
    v.write("xx/Zapier.md", "---\npermalink: automation\n---\nZapier, IFTTT.\n")
    v.write("pt/Automatizar.md", "---\nlang: pt\npermalink: automation\n---\nAutomatize tarefas repetidas.\n")
    for lang, words in OTHER.items():
        for n, topic in enumerate(words.split(", ")):
            v.write(f"{lang}/Outros/{n}.md", f"---\nlang: {lang}\n---\n{topic}\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def _search(cli, v: GitVault, query: str, *extra: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli(
        "--vault", v.root, "--index-dir", v.root.parent / "idx", "--json", "search", query, "--mode", "lexical", *extra
    )
    assert r.code == 0, r
    return json.loads(r.out)


def test_a_page_found_in_another_language_is_answered_by_its_translation(pages: GitVault, cli) -> None:
    # The question's `alias` is in the Spanish and French pages, not the Portuguese (`alcunha`).
    data = _search(cli, pages, "dar um alias a uma nota", "--explain")
    hits = data["hits"]
    assert data["language"]["question"] == "pt"
    paths = [h["path"] for h in hits]
    assert paths[0] == "pt/Ligar/Alcunhas.md", paths  # before: es/Enlazar/Alias.md first, Alcunhas nowhere
    assert not {"es/Enlazar/Alias.md", "fr/Lier/Alias.md"} & set(paths), paths
    first = hits[0]
    found = {t["path"]: t for t in first["translations"]}
    assert set(found) == {"es/Enlazar/Alias.md", "fr/Lier/Alias.md", "keys/AKIA2E3F4G5H6J7K8L9M.md"}
    assert found["es/Enlazar/Alias.md"]["language"] == "es"
    # The section at the same place as the one found: the translation keeps its page's order.
    found_es = found["es/Enlazar/Alias.md"]
    lines = (pages.root / "es/Enlazar/Alias.md").read_text().split("\n")
    assert lines[found_es["start_line"] - 1] == "## Agregar un alias a una nota"
    assert first["breadcrumb"] == "Alcunhas › Adicionar uma alcunha a uma nota"
    assert found_es["cite"] == f"es/Enlazar/Alias.md:{found_es['start_line']}-{found_es['end_line']}"


def test_hugos_translation_key_says_it_too(pages: GitVault, cli) -> None:
    hits = _search(cli, pages, "abrir um canvas numa nota")["hits"]
    assert hits[0]["path"] == "pt/Plugins/Tela.md", [h["path"] for h in hits]
    assert [t["path"] for t in hits[0]["translations"]] == ["es/Plugins/Lienzo.md"]


def test_a_page_with_no_translation_key_keeps_its_place(pages: GitVault, cli) -> None:
    hits = _search(cli, pages, "onde ficam os backlinks")["hits"]
    assert hits[0]["path"] == "es/Enlazar/Backlinks.md", [h["path"] for h in hits]
    assert all("translations" not in h for h in hits)


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("onde fica o grafo", "es/Grafo.md"),  # `permalink: /` on four Portuguese pages: not one page's
        ("onde ficam os embeds", "es/Incrustar.md"),  # a list
        ("onde está o webhook", "es/Vacío.md"),  # empty
        ("onde está o Zapier", "xx/Zapier.md"),  # a note not told in another language: it may be in this one
    ],
)
def test_no_translation_without_a_key_to_one_page_and_a_note_told_in_another_language(
    pages: GitVault, cli, query: str, page: str
) -> None:
    data = _search(cli, pages, query, "--explain")
    assert data["language"]["question"] == "pt"
    hits = data["hits"]
    assert hits[0]["path"] == page, [h["path"] for h in hits]
    assert all("translations" not in h for h in hits)


def test_a_question_in_the_pages_language_gets_that_page(pages: GitVault, cli) -> None:
    # The other languages' pages stand behind the Spanish one, as the Spanish stood behind theirs.
    hits = _search(cli, pages, "agregar un alias a la nota")["hits"]
    assert hits[0]["path"] == "es/Enlazar/Alias.md"
    assert not {"pt/Ligar/Alcunhas.md", "fr/Lier/Alias.md"} & {h["path"] for h in hits}


def test_a_translation_outside_the_filters_does_not_stand_in(pages: GitVault, cli) -> None:
    hits = _search(cli, pages, "dar um alias a uma nota", "--path", "es/**")["hits"]
    assert [h["path"] for h in hits][:1] == ["es/Enlazar/Alias.md"]
    assert all("translations" not in h for h in hits)


def test_explain_says_each_notes_language(pages: GitVault, cli) -> None:
    r = cli(
        "--vault",
        pages.root,
        "--index-dir",
        pages.root.parent / "idx",
        "search",
        "onde ficam os backlinks",
        "--explain",
    )
    assert r.code == 0, r
    lines = r.out.splitlines()
    assert lines[1].startswith("1. Backlinks  es/Enlazar/Backlinks.md"), r.out
    # not preferred, and why: another language (before: nothing said of it)
    assert lines[3].endswith("; the note is in es"), r.out


def test_the_command_line_names_the_translations_found(pages: GitVault, cli) -> None:
    r = cli("--vault", pages.root, "--index-dir", pages.root.parent / "idx", "search", "abrir um canvas numa nota")
    assert r.code == 0, r
    assert "   the same page in es/Plugins/Lienzo.md:5-5 (es)\n" in r.out, r.out


def test_kp_search_redacts_a_translations_path_as_it_does_a_hits(
    pages: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    monkeypatch.setenv("CURATOR_INDEX_DIR", str(pages.root.parent / "idx"))

    async def scenario() -> dict:
        async with connect(pages.root) as c:
            return ok(await c.call_tool("kp_search", {"query": "dar um alias a uma nota", "mode": "lexical"}))

    data = anyio.run(scenario)
    found = [t["path"] for h in data["hits"] for t in h.get("translations", [])]
    assert "keys/[REDACTED: AWS Access Key].md" in found, found
    assert "AKIA2E3F4G5H6J7K8L9M" not in json.dumps(data)
