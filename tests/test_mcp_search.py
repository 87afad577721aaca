"""The ranking behind ``search_docs``: terms, BM25 over fields, the passage shown."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentprose_core.mcp.search import best_passage
from agentprose_core.search.index import Document, SearchIndex
from agentprose_core.search.terms import names_in, query_terms, stem, terms


def test_terms_fold_case_and_accents_and_split_identifiers() -> None:
    assert terms("Café RÉSUMÉ") == ["cafe", "resume"]
    assert terms("get_page") == ["get_page", "get", "page"]
    assert terms("HTTPServer") == ["httpserver", "http", "server"]
    assert terms("") == []


def test_common_endings_meet_at_one_stem() -> None:
    assert {stem(word) for word in ("install", "installing", "installed", "installs")} \
        == {"install"}
    assert stem("policies") == stem("policy")
    assert stem("running") == "run"
    assert stem("class") == "class"  # not "clas"
    assert stem("is") == "is"


def _index(*documents: Document) -> SearchIndex:
    return SearchIndex.build(list(documents))


def test_a_title_outranks_the_same_word_in_a_body() -> None:
    index = _index(Document("Tide pools", body="Crabs hide under rocks."),
                   Document("Crabs", body="Tide pools hold crabs."),
                   Document("Weather", body="Wind and rain."))
    hits = index.search("crabs", 10)
    assert [hit.number for hit in hits] == [1, 0]
    assert hits[0].score > hits[1].score
    assert index.search("snow", 10) == []


def test_a_query_finds_other_forms_of_its_words() -> None:
    index = _index(Document("Install a plugin", body="Run pip."),
                   Document("Configure", body="Edit the file."))
    assert [hit.number for hit in index.search("installing plugins", 5)] == [0]


def test_allowed_limits_the_posts_considered_and_limit_the_count() -> None:
    index = _index(*(Document(f"Page {n}", body="shared words") for n in range(5)))
    assert [hit.number for hit in index.search("shared", 2)] == [0, 1]
    assert [hit.number for hit in index.search("shared", 10, allowed=[3])] == [3]


def test_term_scores_are_the_posts_own_terms() -> None:
    index = _index(Document("Tides", body="moon"), Document("Crabs", body="shells"))
    assert set(index.term_scores(1)) == {"crab", "shell"}


def test_the_passage_is_the_best_block_under_its_headings() -> None:
    markdown = ("# Guide\n\nIntro text.\n\n## Install\n\n### With pip\n\n"
                "Run pip install tidelib to get the tide tables.\n\n"
                "```bash\n# not a heading: install here\npip install x\n```\n\n"
                "## Other\n\nNothing.")
    passage = best_passage(markdown, "tide tables")
    assert passage.headings == ("Guide", "Install", "With pip")
    assert passage.snippet == "Run pip install tidelib to get the tide tables."
    in_code = best_passage(markdown, "not a heading")
    assert in_code.headings == ("Guide", "Install", "With pip")
    assert in_code.snippet.startswith("```bash # not a heading")


def test_the_passage_names_the_api_object_it_is_in() -> None:
    markdown = ('# <a id="module-x"></a>API\n\n<a id="x.height"></a>`x.height(a)`\n\n'
                "Height of the tide.\n\n<a id=\"x.depth\"></a>`x.depth(a)`\n\nDepth.")
    passage = best_passage(markdown, "height of tide")
    assert passage.anchors == ("x.height",)
    assert "<a id" not in passage.snippet


def test_a_long_passage_is_cut_near_its_first_match() -> None:
    block = " ".join(["filler"] * 100) + " the moon pulls the sea " + " ".join(["more"] * 100)
    snippet = best_passage(block, "moon").snippet
    assert "moon" in snippet
    assert snippet.startswith("…")
    assert snippet.endswith("…")
    assert len(snippet) <= 302


@given(st.lists(st.text(max_size=40), min_size=1, max_size=8), st.text(max_size=20))
def test_search_never_fails_and_is_deterministic(bodies: list[str], query: str) -> None:
    documents = [Document(f"t{n}", body=body) for n, body in enumerate(bodies)]
    first = SearchIndex.build(documents).search(query, 5)
    assert first == SearchIndex.build(documents).search(query, 5)
    assert all(0 <= hit.number < len(bodies) for hit in first)


def test_a_query_naming_an_api_object_finds_its_entry_first() -> None:
    # Flask's docs: one long API page against guides full of "send" and "file".
    guide = Document("Uploading files", body="Send the file. " * 40 + "Files are sent.")
    api = Document("API", headings=" ".join(f"name{n}" for n in range(300)) + " send_file",
                   body="lorem ipsum " * 3000 + "send_file(path) sends a file.",
                   names=("flask.send_file", "flask.Flask.url_for"))
    index = SearchIndex.build([guide, api])
    assert [hit.number for hit in index.search("send_file", 5)] == [1, 0]
    assert index.search("Flask.url_for", 5)[0].number == 1
    assert index.search("url_for", 5)[0].number == 1
    # Plain words do not name objects.
    assert names_in("send a file") == set()
    assert names_in("send_file and Flask.url_for") == {"send_file", "flask.url_for"}


def test_the_parts_of_an_identifier_weigh_less_than_it() -> None:
    assert query_terms("send_file now") == {"send_file": 1.0, "send": 0.3, "file": 0.3,
                                            "now": 1.0}


def test_the_passage_of_a_named_object_is_its_entry() -> None:
    markdown = ('# API\n\n<a id="m.get_file_age"></a>`get_file_age()`\n\nThe file age of '
                'a send.\n\n<a id="m.send_file"></a>`send_file(path)`\n\nSends.')
    assert best_passage(markdown, "send_file").anchors == ("m.send_file",)


def test_a_query_that_is_a_page_s_title_finds_that_page_first() -> None:
    # Material's docs: "Blog" is the title of the blog's index, and a word of many pages.
    index = SearchIndex.build([Document("Basic blogs", body="blog " * 50),
                         Document("Blog support just landed", body="blog " * 30),
                         Document("Blog", body="Posts.")])
    assert index.search("blog", 3)[0].number == 2
