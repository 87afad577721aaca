"""`agentprose check`: a correct site passes; each seeded defect is reported by its rule."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import pytest
from jsonschema import Draft202012Validator

from agentprose_core.build.postbuild import build_site
from agentprose_core.check.checker import RULES, check_site_dir, check_target, check_url
from agentprose_core.check.schema_subset import KEYWORDS, SchemaSubsetError, validate
from agentprose_core.errors import InputError
from agentprose_core.reading.fetch import HttpRequest, HttpResponse, urllib_fetch
from agentprose_core.reading.llmstxt import parse_llms_txt
from agentprose_core.reading.text import parse_view
from agentprose_core.render.bodyhint import without_hint
from agentprose_core.render.index import load_schema
from agentprose_core.settings import Settings
from agentprose_core.viewsize import view_size

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

EXAMPLE = Path(__file__).parent.parent / "examples" / "plain-site"
BASE = "https://coast.example/"


def _build(target: Path, base: str) -> Path:
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("README.md"))
    build_site(target, base_url=base, settings=Settings())
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("built") / "site", BASE)


@pytest.fixture
def site(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "site"
    shutil.copytree(built, copy)
    return copy


# -- a site folder ------------------------------------------------------------------


def test_built_site_passes(built: Path) -> None:
    report = check_site_dir(built)
    assert report.problems == [], report.to_text()
    assert report.ok
    assert report.pages_checked == 5
    assert check_site_dir(built, base_url=BASE.rstrip("/")).problems == []
    assert check_target(str(built)).ok


@pytest.mark.parametrize(("target", "broken"), [("about/", False), ("fr/about/", True)])
def test_a_translation_a_view_names_is_a_page_of_the_site(
        site: Path, target: str, broken: bool) -> None:
    # issue 42: a view's translations lead somewhere we wrote
    _edit(site, "rock-pools.md", lambda text: text.replace(
        "\nprev: ", f'\ntranslations:\n  - lang: "fr"\n    url: "{BASE}{target}"\nprev: ', 1))
    _edit_index(site, _resize("rock-pools.md", site))  # the index says the view's new size
    report = check_site_dir(site)
    assert ("view-translation" in report.rules_broken()) == broken, report.to_text()
    assert report.rules_broken() <= {"view-translation"}, report.to_text()


def _resize(view: str, site: Path) -> Callable[[dict[str, Any]], None]:
    def resize(index: dict[str, Any]) -> None:
        size = view_size((site / view).read_text(encoding="utf-8"))
        for post in index["posts"]:
            if post["markdown_url"].endswith("/" + view):
                post["size"] = {"characters": size.characters, "tokens": size.tokens}
    return resize


def test_sub_path_site_passes(tmp_path: Path) -> None:
    site = _build(tmp_path / "site", "https://example.org/guides/coast/")
    report = check_site_dir(site)
    assert report.problems == [], report.to_text()


def _edit(site: Path, name: str, change: Callable[[str], str]) -> None:
    path = site / name
    before = path.read_text(encoding="utf-8")
    after = change(before)
    assert after != before, f"the defect was not seeded into {name}"
    path.write_text(after, encoding="utf-8")


def _edit_index(site: Path, change: Callable[[dict[str, Any]], None]) -> None:
    def edit(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data)
    _edit(site, "agentprose.json", edit)


def _swap_lines(first: str, second: str) -> Callable[[str], str]:
    def swap(text: str) -> str:
        lines = text.split("\n")
        a, b = lines.index(first), lines.index(second)
        lines[a], lines[b] = lines[b], lines[a]
        return "\n".join(lines)
    return swap


def _set_post(number: int, key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["posts"][number][key] = value
    return change


def _tide_markdown(change: Callable[[str], str]) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        post = next(p for p in data["posts"] if p["markdown_url"].endswith("/tide-pools.md"))
        post["markdown"] = change(post["markdown"])
    return edit


TIDE = "tide-pools.md"
TIDE_HTML = "tide-pools/index.html"
SECTION_LLMS = "tide-pools/llms.txt"  # the tide pools section's own
ALT = '<link rel="alternate" type="text/markdown" href="https://coast.example/tide-pools.md">'

SCHEMA_DEFECTS: dict[str, tuple[str, object]] = {
    "empty title": ("title", ""),
    "unknown key": ("colour", "x"),
    "bad time": ("modified", "yesterday"),
    "relative url": ("url", "/about/"),
}

DEFECTS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "view deleted": ("view-missing", lambda s: (s / TIDE).unlink()),
    "translation to nowhere": ("view-translation", lambda s: _edit(s, "rock-pools.md", (
        lambda t: t.replace("\nprev: ", f'\ntranslations:\n  - lang: "fr"\n    url: '
                                        f'"{BASE}fr/rock-pools.html"\nprev: ', 1)))),
    "key order": ("front-matter-order", lambda s: _edit(s, TIDE, _swap_lines(
        'title: "How tide pools survive low tide"',
        'canonical: "https://coast.example/tide-pools/"'))),
    "unknown key": ("front-matter-order",
                    lambda s: _edit(s, TIDE, lambda t: t.replace("\n---\n", '\nx: "y"\n---\n', 1))),
    "bad time": ("front-matter-time", lambda s: _edit(s, TIDE, lambda t: t.replace(
        '"2026-03-14T10:30:00Z"', '"2026-03-14 10:30"', 1))),
    "unquoted value": ("front-matter-yaml", lambda s: _edit(s, TIDE, lambda t: t.replace(
        'lang: "en"', "lang: en"))),
    "empty title": ("front-matter-values", lambda s: _edit(s, TIDE, lambda t: t.replace(
        'title: "How tide pools survive low tide"', 'title: ""'))),
    "bad lang": ("front-matter-values",
                 lambda s: _edit(s, TIDE, lambda t: t.replace('lang: "en"', 'lang: "en_GB"'))),
    "no front matter": ("front-matter", lambda s: _edit(s, TIDE, lambda t: t[4:])),
    "title differs": ("view-index", lambda s: _edit(s, TIDE, lambda t: t.replace(
        'title: "How tide pools', 'title: "Why tide pools'))),
    "size differs": ("view-index", lambda s: _edit_index(s, _set_post(
        1, "size", {"characters": 1, "tokens": 1}))),
    "doubled blank": ("view-whitespace",
                      lambda s: _edit(s, TIDE, lambda t: t.replace("\n\n", "\n\n\n", 3)[:-1])),
    "trailing space": ("view-whitespace",
                       lambda s: _edit(s, TIDE, lambda t: t.replace("low tide\n", "low tide \n"))),
    "unclosed fence": ("view-fence", lambda s: _edit(s, TIDE, lambda t: t + "\n```python\nx\n")),
    "view not like its page": ("view-roundtrip", lambda s: _edit_index(s, _tide_markdown(
        lambda markdown: "# A heading the page lacks\n\n" + markdown))),
    "off-origin prev": ("post-off-site", lambda s: _edit_index(s, _set_post(
        1, "prev", "https://elsewhere.example/"))),
    "off-base url": ("post-off-site", lambda s: _edit_index(s, _set_post(
        1, "markdown_url", "https://coast.example.evil/about.md"))),
    **{f"schema: {name}": ("index-schema", lambda s, change=change: _edit_index(
        s, _set_post(0, *change))) for name, change in SCHEMA_DEFECTS.items()},
    "duplicate post": ("index-duplicate", lambda s: _edit_index(
        s, lambda d: d["posts"].append(dict(d["posts"][0])))),
    "index not JSON": ("index-json",
                       lambda s: _edit(s, "agentprose.json", lambda t: t.replace("{", "[", 1))),
    "llms link broken": ("llms-link", lambda s: _edit(s, "llms.txt", lambda t: t.replace(
        "https://coast.example/about.md", "https://coast.example/nowhere.md"))),
    "llms link relative": ("llms-link", lambda s: _edit(s, "llms.txt", lambda t: t.replace(
        "(https://coast.example/about.md)", "(about.md)"))),
    "llms coverage": ("llms-coverage", lambda s: _edit(s, "llms.txt", lambda t: "\n".join(
        line for line in t.split("\n") if "about.md" not in line))),
    "llms prose in section": ("llms-format",
                              lambda s: _edit(s, "llms.txt", lambda t: t + "Some prose.\n")),
    "llms no summary": ("llms-format", lambda s: _edit(s, "llms.txt", lambda t: "\n".join(
        line for line in t.split("\n") if not line.startswith(">")))),
    "llms reference": ("llms-reference", lambda s: _edit(s, "llms.txt", lambda t: t.replace(
        "\n## ", "\n## \n", 1))),
    "llms-full post": ("llms-full-post", lambda s: _edit(s, "llms-full.txt", lambda t: t.replace(
        "Source: https://coast.example/about/", "Source: elsewhere"))),
    "discovery removed": ("discovery-missing",
                          lambda s: _edit(s, TIDE_HTML, lambda t: t.replace(ALT, ""))),
    "discovery doubled": ("discovery-duplicate",
                          lambda s: _edit(s, TIDE_HTML, lambda t: t.replace(ALT, ALT + ALT))),
    "discovery wrong view": ("discovery-href", lambda s: _edit(s, TIDE_HTML, lambda t: t.replace(
        ALT, ALT.replace("tide-pools.md", "about.md")))),
    "index link removed": ("discovery-index", lambda s: _edit(s, TIDE_HTML, lambda t: t.replace(
        'rel="agentprose-index"', 'rel="index"'))),
    "links on 404": ("discovery-unlisted", lambda s: _edit(s, "404.html", lambda t: t.replace(
        "</head>", ALT + "</head>"))),
    "page deleted": ("page-missing", lambda s: (s / TIDE_HTML).unlink()),
    "directive removed": ("view-directive", lambda s: _edit(s, TIDE, lambda t: re.sub(
        r"\n> Site index: .*\n", "", t))),
    "directive off the root": ("view-directive", lambda s: _edit(s, TIDE, lambda t: t.replace(
        "(https://coast.example/llms.txt)", "(https://coast.example/tide-pools/llms.txt)", 1))),
    "section file deleted": ("llms-section", lambda s: (s / SECTION_LLMS).unlink()),
    "section file misses a page": ("llms-section", lambda s: _edit(s, SECTION_LLMS, lambda t: (
        "\n".join(line for line in t.split("\n") if "species.md" not in line)))),
    "describedby the root": ("discovery-describedby", lambda s: _edit(s, TIDE_HTML, lambda t: (
        t.replace(f'<link rel="describedby" href="{BASE}{SECTION_LLMS}">',
                  f'<link rel="describedby" href="{BASE}llms.txt">')))),
    "hint removed": ("discovery-hint", lambda s: (s / TIDE_HTML).write_bytes(
        without_hint((s / TIDE_HTML).read_bytes()))),
    "index deleted": ("index-missing", lambda s: (s / "agentprose.json").unlink()),
    "llms.txt deleted": ("llms-missing", lambda s: (s / "llms.txt").unlink()),
    "llms-full deleted": ("llms-full-missing", lambda s: (s / "llms-full.txt").unlink()),
}


@pytest.mark.parametrize("name", DEFECTS)
def test_seeded_defect_is_reported(site: Path, name: str) -> None:
    rule, seed = DEFECTS[name]
    seed(site)
    report = check_site_dir(site, base_url=BASE)
    assert rule in report.rules_broken(), report.to_text()
    assert not report.ok or RULES[rule].level == "warning"
    assert all(p.where for p in report.problems)


def test_base_url_must_match_the_index(built: Path) -> None:
    report = check_site_dir(built, base_url="https://other.example/")
    assert [p.rule for p in report.problems] == ["index-base"]


def test_no_base_url_is_a_note(site: Path) -> None:
    (site / "agentprose.json").unlink()
    report = check_site_dir(site)
    assert report.rules_broken() == {"index-missing"}
    assert any("base_url" in note for note in report.notes)


def test_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="No such directory"):
        check_site_dir(tmp_path / "nope")


def test_text_and_json_reports(site: Path) -> None:
    DEFECTS["discovery removed"][1](site)
    report = check_site_dir(site)
    lines = report.to_text().splitlines()
    assert lines[0] == ("discovery-missing  tide-pools/index.html  "
                        'no <link rel="alternate" type="text/markdown">')
    assert lines[-1].startswith(f"agentprose check: {site}: 5 pages, ")
    assert lines[-1].endswith(": 1 error, 0 warnings (FAILED)")
    data = json.loads(report.to_json())
    assert data["ok"] is False
    assert data["errors"] == 1
    assert data["problems"][0] == {
        "rule": "discovery-missing", "level": "error", "where": "tide-pools/index.html",
        "message": 'no <link rel="alternate" type="text/markdown">',
    }


# -- the pure parts -----------------------------------------------------------------


def test_code_blocks_may_hold_blank_runs_and_trailing_spaces() -> None:
    text = ('---\ntitle: "T"\ncanonical: "https://x.org/"\nmodified: "2026-01-01T00:00:00Z"\n'
            "---\n\n# T\n\n```text\na  \n\n\nb\n```\n\n> ```\n> c \n> ```\n")
    assert parse_view(text).findings == []
    assert parse_view(text.replace("# T\n", "# T \n")).findings == [
        ("view-whitespace", 7, "trailing whitespace")]


@pytest.mark.parametrize(("translations", "problem"), [
    ('\n  - lang: "fr"\n    url: "https://x.org/fr/"', None),
    (' "fr"', "must be a non-empty list"),
    ('\n  - url: "https://x.org/fr/"\n    lang: "fr"', "'lang' then 'url'"),
    ('\n  - lang: "fr_FR"\n    url: "https://x.org/fr/"', "not a BCP 47 tag"),
    ('\n  - lang: "fr"\n    url: "/fr/"', "not an absolute URL"),
])
def test_translations_in_a_view_are_a_list_of_lang_and_url(
        translations: str, problem: str | None) -> None:
    text = ('---\ntitle: "T"\ncanonical: "https://x.org/"\nmodified: "2026-01-01T00:00:00Z"\n'
            f'version: "2.0"\ntranslations:{translations}\n---\n\n# T\n')
    found = [message for rule, _, message in parse_view(text).findings
             if rule == "front-matter-values"]
    assert (problem is None) == (not found), found
    assert problem is None or problem in found[0]


def test_code_in_a_nested_list_item_may_hold_trailing_spaces() -> None:
    text = ('---\ntitle: "T"\ncanonical: "https://x.org/"\nmodified: "2026-01-01T00:00:00Z"\n'
            "---\n\n# T\n\n- a\n  - b\n\n    ```yaml\n    key: value  \n    ```\n")
    assert parse_view(text).findings == []


def test_an_unclosed_fence_is_reported_where_it_opens() -> None:
    text = ('---\ntitle: "T"\ncanonical: "https://x.org/"\nmodified: "2026-01-01T00:00:00Z"\n'
            "---\n\n# T\n\n```\nclosed\n```\n\nText ``` here.\n\n~~~~\nopen\n")
    assert [(rule, line) for rule, line, _ in parse_view(text).findings] == [("view-fence", 15)]


def test_llms_parser_reads_our_format() -> None:
    parsed = parse_llms_txt("# Site\n\n> Sum.\n\nProse.\n\n## Docs\n\n- [A](https://x.org/a.md): "
                            "About a.\n- [B](https://x.org/b.md)\n")
    assert (parsed.title, parsed.summary, parsed.findings) == ("Site", "Sum.", [])
    assert [(link.title, link.url, link.description) for link in parsed.links] == [
        ("A", "https://x.org/a.md", "About a."), ("B", "https://x.org/b.md", "")]


def _schema_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    children = [*node.get("properties", {}).values(), *node.get("$defs", {}).values()]
    children += [node[key] for key in ("items", "additionalProperties")
                 if isinstance(node.get(key), dict)]
    for child in children:
        yield from _schema_nodes(child)


def test_schema_uses_only_supported_keywords() -> None:
    for node in _schema_nodes(load_schema()):
        assert set(node) <= KEYWORDS, set(node) - KEYWORDS
    with pytest.raises(SchemaSubsetError):
        validate({}, {"enum": [1]})


@pytest.mark.parametrize("name", [*SCHEMA_DEFECTS, "valid"])
def test_schema_subset_agrees_with_jsonschema(built: Path, name: str) -> None:
    document = json.loads((built / "agentprose.json").read_text(encoding="utf-8"))
    if name != "valid":
        key, value = SCHEMA_DEFECTS[name]
        document["posts"][0][key] = value
    reference = Draft202012Validator(load_schema(),
                                     format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert bool(validate(document, load_schema())) == (not reference.is_valid(document))


@pytest.mark.parametrize("document", [
    {"version": True, "generator": "g", "site": {"name": "n", "url": "https://x.org/"},
     "posts": []},
    {"version": 1, "generator": "g", "site": {"name": "n", "url": "x.org"}, "posts": []},
    {"version": 1, "generator": "g", "site": {"name": "n", "url": "https://x.org/"},
     "posts": [{"url": "https://x.org/", "markdown_url": "https://x.org/index.md",
                "title": "T", "modified": "2026-01-01T00:00:00Z",
                "headings": [{"level": 7, "title": "H"}], "tags": []}]},
    {"version": 1, "generator": "g", "site": {"name": "n", "url": "https://x.org/"},
     "posts": [{"url": "https://x.org/", "markdown_url": "https://x.org/index.md",
                "title": "T", "modified": "2026-01-01T00:00:00Z",
                "headings": [{"level": 2.0, "title": "H"}]}]},
])
def test_schema_subset_edge_cases_agree(document: dict[str, Any]) -> None:
    reference = Draft202012Validator(load_schema())
    assert bool(validate(document, load_schema())) == (not reference.is_valid(document))


# -- a deployed site ----------------------------------------------------------------


@dataclass
class Behaviour:
    """How the test server answers; every field off its default seeds one defect."""

    negotiate: bool = True
    view_type: str = "text/markdown; charset=utf-8"
    negotiated_type: str = "text/markdown; charset=utf-8"
    vary: bool = True
    validators: bool = True
    conditional: bool = True
    browser_gets_markdown: bool = False
    tie_to_markdown: bool = True
    negotiated_suffix: bytes = b""
    negotiated_status: int = 200
    missing: set[str] = field(default_factory=set)
    redirects: dict[str, str] = field(default_factory=dict)
    links: bool = True
    describedby: bool = True


class _Server(ThreadingHTTPServer):
    site_dir: Path
    behaviour: Behaviour
    views: dict[str, str]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        b = self.server.behaviour
        path = unquote(urlsplit(self.path).path)
        if path in b.redirects:
            self._send(302, b"", "text/plain", extra={"Location": b.redirects[path]})
            return
        file = self.server.site_dir / (path.lstrip("/") + ("index.html" if path.endswith("/")
                                                           else ""))
        if path in b.missing or not file.is_file():
            self._send(404, b"not found", "text/plain")
            return
        view = self.server.views.get(path)
        if view is not None and b.negotiate and self._wants_markdown():
            body = (self.server.site_dir / view.lstrip("/")).read_bytes() + b.negotiated_suffix
            self._send(b.negotiated_status, body, b.negotiated_type, vary=b.vary)
            return
        kind = {".md": b.view_type, ".html": "text/html; charset=utf-8",
                ".json": "application/json"}.get(file.suffix, "text/plain; charset=utf-8")
        self._send(200, file.read_bytes(), kind, vary=view is not None and b.negotiate and b.vary,
                   extra=self._links(path, view))

    def _links(self, path: str, view: str | None) -> dict[str, str]:
        """The Link header of a page with a view: its view and the llms.txt covering it."""
        b = self.server.behaviour
        if view is None or not b.links:
            return {}
        folder = path[: path.rfind("/") + 1]
        site = self.server.site_dir
        while folder != "/" and not (site / folder.lstrip("/") / "llms.txt").is_file():
            folder = folder[: folder[:-1].rfind("/") + 1]
        links = [f'<{view}>; rel="alternate"; type="text/markdown"']
        if b.describedby:
            links.append(f'<{folder}llms.txt>; rel="describedby"')
        return {"Link": ", ".join(links)}

    def _wants_markdown(self) -> bool:
        b = self.server.behaviour
        weights = {}
        for member in self.headers.get("Accept", "").split(","):
            kind, _, q = member.strip().partition(";q=")
            weights[kind.strip()] = float(q or 1)
        markdown, html = weights.get("text/markdown", 0), weights.get("text/html", 0)
        if b.browser_gets_markdown:
            return True
        return markdown > html or (markdown == html > 0 and b.tie_to_markdown)

    def _send(self, status: int, body: bytes, kind: str, *, vary: bool = False,
              extra: dict[str, str] | None = None) -> None:
        b = self.server.behaviour
        etag = '"' + hashlib.sha256(kind.encode() + body).hexdigest()[:16] + '"'
        if status == 200 and b.conditional and self.headers.get("If-None-Match") == etag:
            status, body = 304, b""
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if b.validators and status in (200, 304):
            self.send_header("ETag", etag)
        if vary:
            self.send_header("Vary", "Accept")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    httpd = _Server(("127.0.0.1", 0), _Handler)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.site_dir = _build(tmp_path_factory.mktemp("served") / "site", base)
    index = json.loads((httpd.site_dir / "agentprose.json").read_text(encoding="utf-8"))
    httpd.views = {urlsplit(p["url"]).path: urlsplit(p["markdown_url"]).path
                   for p in index["posts"]}
    httpd.behaviour = Behaviour()
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def served(server: _Server) -> Iterator[tuple[str, Behaviour]]:
    server.behaviour = Behaviour()
    yield f"http://127.0.0.1:{server.server_address[1]}/", server.behaviour
    server.behaviour = Behaviour()


def test_correct_server_passes(served: tuple[str, Behaviour]) -> None:
    url, _ = served
    report = check_url(url, timeout=5)
    assert report.problems == [], report.to_text()
    assert report.pages_checked == 5
    assert 0 < report.requests <= 12 + 7 * 50


def test_static_host_gets_one_warning(served: tuple[str, Behaviour]) -> None:
    url, behaviour = served
    behaviour.negotiate = False
    report = check_url(url, timeout=5)
    assert [p.rule for p in report.problems] == ["negotiation-unsupported"], report.to_text()
    behaviour.links = False  # GitHub Pages: no negotiation, no headers
    report = check_url(url, timeout=5)
    assert [p.rule for p in report.problems] == ["negotiation-unsupported", "http-link"]
    assert report.ok
    assert "warning: " in report.to_text()


def test_start_page_finds_the_index_through_its_link(served: tuple[str, Behaviour]) -> None:
    url, behaviour = served
    behaviour.negotiate = False
    report = check_url(url + "tide-pools/species/", timeout=5)
    assert report.rules_broken() == {"negotiation-unsupported"}, report.to_text()


HTTP_DEFECTS: dict[str, tuple[str, dict[str, Any]]] = {
    "view as octet-stream": ("view-content-type", {"view_type": "application/octet-stream"}),
    "view as text/plain": ("view-content-type-plain", {"view_type": "text/plain; charset=utf-8"}),
    "no Vary": ("negotiation-vary", {"vary": False}),
    "no charset": ("negotiation-content-type", {"negotiated_type": "text/markdown"}),
    "no validators": ("negotiation-validator", {"validators": False}),
    "no view validators": ("view-validator", {"validators": False}),
    "no 304": ("negotiation-revalidate", {"conditional": False}),
    "no view 304": ("view-revalidate", {"conditional": False}),
    "browser gets Markdown": ("negotiation-browser", {"browser_gets_markdown": True}),
    "tie to HTML": ("negotiation-tie", {"tie_to_markdown": False}),
    "different body": ("negotiation-body", {"negotiated_suffix": b"extra\n"}),
    "negotiation fails": ("http-status", {"negotiated_status": 500}),
    "view 404": ("view-missing", {"missing": {"/about.md"}}),
    "llms.txt 404": ("llms-missing", {"missing": {"/llms.txt"}}),
    "page 404": ("page-missing", {"missing": {"/about/"}}),
    "no Link header": ("http-link", {"links": False}),
    "Link without describedby": ("http-link", {"describedby": False}),
    "off-origin redirect": ("http-off-origin",
                            {"redirects": {"/about.md": "https://elsewhere.example/about.md"}}),
}


@pytest.mark.parametrize("name", HTTP_DEFECTS)
def test_seeded_header_defect_is_reported(served: tuple[str, Behaviour], name: str) -> None:
    url, behaviour = served
    rule, changes = HTTP_DEFECTS[name]
    for key, value in changes.items():
        setattr(behaviour, key, value)
    report = check_url(url, timeout=5)
    assert rule in report.rules_broken(), report.to_text()
    assert report.ok == (RULES[rule].level == "warning" and not report.errors)


def test_same_origin_redirect_is_followed(served: tuple[str, Behaviour]) -> None:
    url, behaviour = served
    behaviour.redirects = {"/docs/": "/"}
    report = check_url(url + "docs/", timeout=5)
    assert report.problems == [], report.to_text()


def _recording(log: list[HttpRequest], fail: str = "") -> Callable[[HttpRequest], HttpResponse]:
    def fetch(request: HttpRequest) -> HttpResponse:
        log.append(request)
        if fail and request.url.endswith(fail):
            raise TimeoutError("timed out")
        return urllib_fetch(request)
    return fetch


def test_requests_are_bounded_and_stay_on_the_origin(served: tuple[str, Behaviour]) -> None:
    url, _ = served
    log: list[HttpRequest] = []
    report = check_url(url, max_pages=2, timeout=5, fetch=_recording(log))
    assert report.pages_checked == 2
    assert report.requests == len(log) <= 12 + 7 * 2
    assert all(r.url.startswith(url) and r.timeout == 5 for r in log)
    assert any("first 2 of 5 posts" in note for note in report.notes)
    capped = check_url(url, timeout=5, max_requests=4, fetch=_recording(log := []))
    assert capped.requests == len(log) == 4
    assert any("budget" in note for note in capped.notes)


def test_network_errors_are_problems(served: tuple[str, Behaviour]) -> None:
    url, _ = served
    report = check_url(url, timeout=5, fetch=_recording([], fail="rock-pools.md"))
    assert report.rules_broken() == {"http-error"}, report.to_text()


def test_off_origin_urls_are_never_fetched(served: tuple[str, Behaviour]) -> None:
    url, _ = served
    index = json.loads(urllib_fetch(HttpRequest("GET", url + "agentprose.json", {}, 5)).body)
    index["posts"][1]["markdown_url"] = "https://elsewhere.example/about.md"
    log: list[HttpRequest] = []

    def fetch(request: HttpRequest) -> HttpResponse:
        if request.url.endswith("/agentprose.json"):
            return HttpResponse(200, request.url, {"content-type": "application/json"},
                                json.dumps(index).encode())
        return _recording(log)(request)

    report = check_url(url, timeout=5, fetch=fetch)
    assert "post-off-site" in report.rules_broken()
    assert all(r.url.startswith(url) for r in log)


@pytest.mark.parametrize("url", ["file:///etc/hostname", "ftp://example.org/x", "data:,x"])
def test_the_client_fetches_http_and_https_only(url: str) -> None:
    # urllib would open these: a URL a site wrote must never read this machine's files
    with pytest.raises(OSError, match="only http and https"):
        urllib_fetch(HttpRequest("GET", url, {}, 5))


def test_index_on_another_origin_stops_the_check(served: tuple[str, Behaviour]) -> None:
    url, _ = served

    def fetch(request: HttpRequest) -> HttpResponse:
        body = json.dumps({"version": 1, "generator": "g", "posts": [],
                           "site": {"name": "n", "url": "https://elsewhere.example/"}})
        return HttpResponse(200, request.url, {"content-type": "application/json"},
                            body.encode())

    report = check_url(url, fetch=fetch)
    assert report.rules_broken() == {"index-base"}
    assert report.requests == 1


def test_only_http_urls() -> None:
    with pytest.raises(InputError):
        check_url("ftp://example.org/")


def test_agentprose_serve_passes(tmp_path: Path) -> None:
    serve = pytest.importorskip("agentprose_core.serve.server")
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("README.md"))
    httpd = serve.make_server(site, port=0, quiet=True)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        build_site(site, base_url=httpd.url, settings=Settings())
        report = check_url(httpd.url, timeout=5)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert report.problems == [], report.to_text()


def test_every_rule_has_a_test() -> None:
    seeded = {rule for rule, _ in DEFECTS.values()} | {rule for rule, _ in HTTP_DEFECTS.values()}
    elsewhere = {"index-base", "http-error", "http-off-origin", "negotiation-unsupported",
                 "mcp-files", "mcp-endpoint"}  # tests/test_check_endpoint.py
    assert set(RULES) == seeded | elsewhere


def test_target_may_be_the_index_url(served: tuple[str, Behaviour]) -> None:
    url, behaviour = served
    behaviour.negotiate = False
    report = check_url(url + "agentprose.json", timeout=5)
    assert report.rules_broken() == {"negotiation-unsupported"}, report.to_text()
    with pytest.raises(InputError, match="max_pages"):
        check_url(url, max_pages=0)


def test_without_the_reference_parser_a_note_says_so(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "llms_txt", None)
    report = check_site_dir(built)
    assert report.problems == []
    assert any("pip install llms-txt" in note for note in report.notes)


def test_cli_check_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from agentprose_core.build.postbuild import build_site
    from agentprose_core.cli import main
    from agentprose_core.settings import Settings

    site = tmp_path / "site"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", site)
    build_site(site, base_url="https://coast.example/", settings=Settings())
    assert main(["check", str(site)]) == 0
    assert "(FAILED)" not in capsys.readouterr().out
    (site / "rock-pools.md").unlink()
    assert main(["check", str(site), "--json"]) == 1
    assert '"view-missing"' in capsys.readouterr().out
    assert main(["check", str(tmp_path / "nowhere")]) == 2


def test_a_page_whose_theme_shows_no_content_is_not_compared() -> None:
    # Material's home.html empties the content block: the view keeps the page's text
    from agentprose_core.check.roundtrip import roundtrip_findings

    page = ('<html><head><title>Home</title></head><body><div class="md-content" '
            'data-md-component="content"><article class="md-content__inner md-typeset">'
            "</article></div></body></html>")
    assert roundtrip_findings(page, page_url="https://x.example/", markdown="# Home\n\nHi.\n",
                              site_map={}) == []
    shown = page.replace("</article>", "<h1>Home</h1><p>Other.</p><p>More.</p></article>")
    assert roundtrip_findings(shown, page_url="https://x.example/", markdown="# Home\n\nHi.\n",
                              site_map={}) != []


def test_a_page_copied_after_the_build_is_no_unlisted_page(site: Path) -> None:
    # issue 39: a site that copies one page to another name (its landing page) after
    # the build; the copy's links lead to the page's view.
    shutil.copy(site / "tide-pools/index.html", site / "landing.html")
    report = check_site_dir(site, base_url=BASE)
    assert report.problems == [], report.to_text()


def test_a_page_without_a_known_content_container_is_not_compared(site: Path) -> None:
    # issue 39: a custom theme without <main> or <article>: the checker cannot tell the
    # content from the header and navigation, which the view rightly lacks.
    def bare(text: str) -> str:
        for tag in ("main", "article"):
            text = re.sub(rf"<{tag}\b", "<div", text).replace(f"</{tag}>", "</div>")
        return text.replace("<body>", "<body><div>Shore · Home · Guide · About</div>")
    for page in site.rglob("*.html"):
        _edit(site, page.relative_to(site).as_posix(), bare)
    report = check_site_dir(site, base_url=BASE)
    assert "view-roundtrip" not in report.rules_broken(), report.to_text()


def test_a_minified_page_keeps_its_links_for_the_checker(site: Path) -> None:
    # issue 39: mkdocs-minify-plugin after agentprose drops every quote it can
    def minified(text: str) -> str:
        return re.sub(r'="([^"\s<>=`\']+)"', r"=\1", re.sub(r">\s+<", "><", text))
    for page in site.rglob("*.html"):
        _edit(site, page.relative_to(site).as_posix(), minified)
    assert "href=https://" in (site / TIDE_HTML).read_text(encoding="utf-8")
    report = check_site_dir(site, base_url=BASE)
    assert report.problems == [], report.to_text()


def test_a_dripping_server_is_cut_off_at_the_whole_request_deadline() -> None:
    # issue 40: the 10 s timeout was per read: one byte a second held a call forever
    import socket
    import threading

    from agentprose_core.reading.fetch import HttpRequest, urllib_fetch

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(4096)
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000:
                if stop.wait(0.05):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/agentprose.json"
    try:  # each byte comes within the 1 s, all of them in 52 s: only a deadline cuts it
        with pytest.raises(TimeoutError, match="no whole answer within 1 s"):
            urllib_fetch(HttpRequest("GET", url, {}, 1.0))
        # `agentprose check URL` on it: an answer in words, not a wait
        thread.join(timeout=5)
        thread = threading.Thread(target=drip, daemon=True)
        thread.start()
        report = check_url(url, timeout=1.0, max_requests=1)
        assert not report.ok
        assert "no whole answer within 1 s" in report.to_text()
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)


def test_a_file_larger_than_the_cap_is_reported_not_read(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 40: `check DIR` read whole local files (a 2.8 GB page took minutes)
    from agentprose_core.check import checker

    huge = site / "llms-full.txt"
    cap = huge.stat().st_size - 1
    monkeypatch.setattr(checker, "MAX_BODY", cap)
    report = check_site_dir(site)
    assert not report.ok
    assert any(f"larger than {cap:,} bytes" in problem.message
               for problem in report.problems), report.to_text()
