"""Independent checks of a built site's agentprose outputs.

Written against the contract (/work/shared/agent-view.md) with markdown-it-py, PyYAML
and lxml. agentprose's own code is used only for its format checker
(``check_site_dir``), to find a page's content (``parse_page``) and for the round-trip
comparison (``roundtrip_mismatches``), as the harness's brief says.
"""

from __future__ import annotations

import copy as copy_module
import datetime as dt
import html
import json
import re
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import yaml
from markdown_it import MarkdownIt
from markers import HIDDEN, VISIBLE

from agentprose_core.reading.text import is_directive

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import lxml.html
    from markdown_it.token import Token

EXAMPLES = 5
_LLMS_NAMES = ("llms.txt", "llms-full.txt")


@dataclass
class Finding:
    """A count and a few examples of one kind of problem."""

    count: int = 0
    pages: int = 0
    examples: list[dict[str, str]] = field(default_factory=list)
    by: Counter[str] = field(default_factory=Counter)

    def add(self, where: str, message: str, key: str = "", n: int = 1) -> None:
        self.count += n
        if key:
            self.by[key] += n
        if len(self.examples) < EXAMPLES:
            self.examples.append({"where": where, "message": message[:300]})

    def to_dict(self) -> dict[str, object]:
        return {"count": self.count, "pages": self.pages, "examples": self.examples,
                "by": dict(self.by.most_common())}


@dataclass
class Post:
    url: str
    view_url: str
    view_path: Path
    html_path: Path
    view: str
    data: dict[str, Any]


@dataclass
class Site:
    """A built site: its folder, base URL, index and posts."""

    root: Path
    base: str
    index: dict[str, Any]
    posts: list[Post]

    def path_of(self, url: str) -> Path | None:
        """The file serving ``url`` (``…/`` -> ``…/index.html``), None when off-site."""
        plain = url.split("#", 1)[0].split("?", 1)[0]
        if not plain.startswith(self.base):
            return None
        rel = unquote(plain[len(self.base):])
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        return self.root / rel


def load_site(root: Path, base: str) -> Site:
    index_file = root / "agentprose.json"
    index = json.loads(index_file.read_text(encoding="utf-8")) if index_file.exists() else {}
    site = Site(root, base, index, [])
    for data in index.get("posts", []):
        view_path = site.path_of(data["markdown_url"])
        html_path = site.path_of(data["url"])
        if view_path is None or html_path is None:
            continue
        view = view_path.read_text(encoding="utf-8") if view_path.exists() else ""
        site.posts.append(Post(data["url"], data["markdown_url"], view_path, html_path,
                               view, data))
    return site


@cache
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


# ---- front matter -----------------------------------------------------------------

_FM_LINE = re.compile(r'[a-z_]+: "(?:[^"\\]|\\.)*"')
_FM_KEY = re.compile(r"[a-z_]+:")
_FM_ITEM = re.compile(r'  - "(?:[^"\\]|\\.)*"')


def split_front_matter(view: str) -> tuple[str | None, str]:
    """The front matter text (None when missing) and the rest of the view."""
    if not view.startswith("---\n"):
        return None, view
    end = view.find("\n---\n", 3)
    if end < 0:
        return None, view
    return view[4:end + 1], view[end + 5:]


def view_body(view: str) -> str:
    """The view without front matter and without the site-index line (any language)."""
    _, body = split_front_matter(view)
    lines = body.split("\n")
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start < len(lines) and is_directive(lines[start]):
        return "\n".join(lines[start + 1:]).lstrip("\n")
    return body


def check_front_matter(post: Post, finding: Finding) -> None:
    front, _ = split_front_matter(post.view)
    where = post.view_url
    if front is None:
        finding.add(where, "no YAML front matter at the top", "missing")
        return
    try:
        data = yaml.safe_load(front)
    except yaml.YAMLError as error:
        finding.add(where, f"front matter does not load: {error}", "yaml-error")
        return
    if not isinstance(data, dict):
        finding.add(where, "front matter is not a mapping", "not-mapping")
        return
    for key in ("title", "canonical", "modified"):
        if not isinstance(data.get(key), str) or not data[key]:
            finding.add(where, f"front matter lacks {key}", f"no-{key}")
    for line in front.splitlines():
        if not (_FM_LINE.fullmatch(line) or _FM_KEY.fullmatch(line) or _FM_ITEM.fullmatch(line)):
            finding.add(where, f"front matter line not a quoted string: {line!r}", "unquoted")


# ---- dates --------------------------------------------------------------------------


def commit_times(checkout: Path) -> tuple[set[str], str]:
    """Every commit time of the checkout's history (UTC ISO, as views write them) and
    HEAD's: a ``modified`` that is none of them came from a file's time or a clock."""
    out = subprocess.run(["git", "-C", str(checkout), "log", "--format=%ct"],
                         capture_output=True, text=True, check=False).stdout.split()
    times = [dt.datetime.fromtimestamp(int(t), dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
             for t in out]
    return set(times), (times[0] if times else "")


def check_date(post: Post, times: tuple[set[str], str], finding: Finding) -> None:
    """``modified`` must be a commit time of the repository (metadata dates aside:
    the view's own ``published`` or a date-only value), never after HEAD."""
    front, _ = split_front_matter(post.view)
    try:
        data = yaml.safe_load(front or "") or {}
    except yaml.YAMLError:
        return
    modified = str(data.get("modified") or "")
    commits, head = times
    if not modified or modified in commits or modified.endswith("T00:00:00Z"):
        return
    if modified == data.get("published"):
        return
    kind = "after HEAD (a clock)" if head and modified > head else "not a commit time"
    finding.add(post.view_url, f"modified {modified} is {kind}", kind)


# ---- fences -------------------------------------------------------------------------

_CONTAINER_PREFIX = re.compile(r"^(?:[ \t]*>)*[ \t]*")


def _closes(line: str, char: str, length: int) -> bool:
    rest = _CONTAINER_PREFIX.sub("", line)
    run = len(rest) - len(rest.lstrip(char))
    return run >= length and not rest[run:].strip()


def unbalanced_fences(body: str) -> list[str]:
    """Fences that run to the end of their container instead of closing."""
    lines = body.split("\n")
    found = []
    for token in _md().parse(body):
        if token.type != "fence" or token.map is None:
            continue
        start, end = token.map
        char, length = token.markup[0], len(token.markup)
        last = end - 1
        if last <= start or last >= len(lines) or not _closes(lines[last], char, length):
            found.append(f"line {start + 1}: {lines[start].strip()[:60]!r} never closes")
    return found


_HTML_CODE = re.compile(r"""<pre><code(?: class="language-([^"]+)")?>(.*?)</code></pre>""",
                        re.DOTALL)


def fences(body: str) -> list[tuple[str, str]]:
    """The view's code blocks in order, (language, code): fenced ones, and those of
    tables kept as HTML (``<pre><code class="language-x">``, as a browser reads them)."""
    found = []
    for token in _md().parse(body):
        if token.type in ("fence", "code_block"):
            found.append(((token.info.split() or [""])[0].lower(), token.content))
        elif token.type == "html_block" and token.content.lstrip().startswith("<table"):
            found.extend(((lang or "").lower(), html.unescape(code))
                         for lang, code in _HTML_CODE.findall(token.content))
    return found


# ---- tags ---------------------------------------------------------------------------

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^>]*)>")
_ANCHOR = re.compile(r"""\s+id=(?:"[^"]*"|'[^']*')\s*/?""")
_INLINE_OK = {"sub", "sup", "br"}
_TABLE_OK = _INLINE_OK | {
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup", "col",
    "a", "code", "em", "strong", "b", "i", "img", "kbd", "del", "s", "ins", "mark", "small",
    "span", "p", "ul", "ol", "li", "pre", "abbr", "dl", "dt", "dd", "var", "samp", "q",
    "blockquote", "hr",  # an admonition in a cell is a quote, as everywhere in a view
}


def _bad_tags(html: str, allowed: set[str]) -> Iterator[str]:
    for match in _TAG.finditer(html):
        closing, name, attrs = match[1], match[2].lower(), match[3]
        if name in allowed:
            continue
        if name == "a" and (closing or _ANCHOR.fullmatch(attrs) or not attrs.strip()):
            continue
        yield name


def _html_tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.type == "html_block":
            yield token
        elif token.type == "inline":
            yield from (child for child in token.children or () if child.type == "html_inline")


def bad_tags(body: str) -> Counter[str]:
    """Tags outside code that the contract does not allow, by tag name."""
    found: Counter[str] = Counter()
    for token in _html_tokens(_md().parse(body)):
        content = token.content
        if content.lstrip().startswith("<!--"):
            continue
        table = token.type == "html_block" and content.lstrip().lower().startswith("<table")
        found.update(_bad_tags(content, _TABLE_OK if table else _INLINE_OK))
    return found


# ---- links and fragments ------------------------------------------------------------

_ID_ANCHOR = re.compile(r"""<a\s+id=["']([^"']+)["']""")
_URL_IN_TEXT = re.compile(r"""https?://[^\s<>"'()\[\]]+""")


def github_slug(text: str) -> str:
    slug = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return slug.replace(" ", "-")


def _plain_text(inline: Token) -> str:
    """A heading's text as renderers slug it: its text and code, no inline HTML."""
    return "".join(child.content for child in inline.children or ()
                   if child.type in ("text", "code_inline"))


def _links(markdown: str) -> Iterator[str]:
    for token in _md().parse(markdown):
        if token.type == "inline":
            for child in token.children or ():
                if child.type == "link_open":
                    yield str(child.attrs.get("href", ""))
        elif token.type == "html_block":
            yield from re.findall(r"""href=["']([^"']+)["']""", token.content)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _index_links(index: dict[str, Any]) -> Iterator[str]:
    for post in index.get("posts", []):
        if isinstance(post.get("markdown"), str):
            yield from _links(post["markdown"])
        for key, value in post.items():
            if key != "markdown":
                yield from (s for s in _strings(value) if _URL_IN_TEXT.fullmatch(s))


_HTML_ID = re.compile(r"""\sid=(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""")


def html_ids(path: Path) -> set[str]:
    """Every ``id`` in a built HTML page (minified pages leave attributes unquoted)."""
    if not path.exists():
        return set()
    text = path.read_text(encoding="utf-8", errors="replace")
    return {a or b or c for a, b, c in _HTML_ID.findall(text)}


@dataclass
class Anchors:
    ids: dict[str, set[str]]
    html_paths: dict[str, Path] = field(default_factory=dict)
    _html: dict[str, set[str]] = field(default_factory=dict)

    def in_html(self, view_url: str, fragment: str) -> bool:
        """True when the target's HTML page has the id: the view lost it."""
        if view_url not in self._html:
            path = self.html_paths.get(view_url)
            self._html[view_url] = html_ids(path) if path is not None else set()
        return fragment in self._html[view_url]

    @classmethod
    def of(cls, site: Site) -> Anchors:
        ids: dict[str, set[str]] = {}
        for post in site.posts:
            found = set(_ID_ANCHOR.findall(post.view))
            found.update(str(h.get("id")) for h in post.data.get("headings") or [])
            tokens = _md().parse(view_body(post.view))
            for position, token in enumerate(tokens):
                if token.type == "heading_open":
                    found.add(github_slug(_plain_text(tokens[position + 1])))
            ids[post.view_url] = found
        return cls(ids, {post.view_url: post.html_path for post in site.posts})


def check_fragments(site: Site, anchors: Anchors, finding: Finding, unknown: Finding,
                    broken: Finding) -> None:
    """Unresolved fragments go to ``finding`` when the target HTML page has the id, to
    ``broken`` when the site's own page lacks it too (a broken link in the source)."""
    sources: list[tuple[str, Iterator[str]]] = [
        (post.view_url, _links(view_body(post.view))) for post in site.posts]
    sources.extend((str(llms.relative_to(site.root)), _links(llms.read_text(encoding="utf-8")))
                   for llms in sorted(site.root.rglob("llms*.txt")) if llms.name in _LLMS_NAMES)
    sources.append(("agentprose.json", _index_links(site.index)))
    for where, links in sources:
        for href in links:
            _check_link(href, where, anchors, (finding, broken), unknown)


def _check_link(href: str, where: str, anchors: Anchors, findings: tuple[Finding, Finding],
                unknown: Finding) -> None:
    if "#" not in href:
        return
    target, fragment = href.split("#", 1)
    if not urlsplit(target).path.endswith(".md") or not fragment:
        return
    known = anchors.ids.get(target)
    if known is None:
        unknown.add(where, f"link to a view not in agentprose.json: {href}")
        return
    plain = unquote(fragment)
    if plain in known or fragment in known:
        return
    lost, broken = findings
    if anchors.in_html(target, plain) or anchors.in_html(target, fragment):
        lost.add(where, f"#{fragment} not found in {target} (its HTML page has it)")
    else:
        broken.add(where, f"#{fragment} is not in {target} nor in its HTML page")


# ---- code languages -----------------------------------------------------------------

_LANG_CLASS = re.compile(r"^(?:language|lang|highlight)-([\w+#.-]+)$")
_NO_LANG = {"text", "none", "default", "plain", "plaintext", "nohighlight", "txt"}
_ALIASES = {"python3": "python", "py": "python", "py3": "python", "ipython3": "ipython",
            "sh": "bash", "shell": "bash", "yml": "yaml", "js": "javascript",
            "c++": "cpp", "ts": "typescript"}


def normal_lang(lang: str) -> str:
    lang = lang.lower()
    return _ALIASES.get(lang, lang)


def _html_lang(pre: lxml.html.HtmlElement, default: str) -> str | None:
    """The language a ``<pre>`` shows in its classes or its wrappers', if any."""
    elements = [*pre.iterchildren("code"), pre]
    parent = pre.getparent()
    for _ in range(4):
        if parent is None:
            break
        elements.append(parent)
        parent = parent.getparent()
    for element in elements:
        for cls in (element.get("class") or "").split():
            match = _LANG_CLASS.match(cls)
            if match is None or match[1] in ("", "table"):
                continue
            lang = match[1].lower()
            if lang == "default":
                lang = default
            if lang not in _NO_LANG:
                return normal_lang(lang)
            return None
    return None


def html_code_blocks(content: lxml.html.HtmlElement, default: str) -> list[tuple[str | None, str]]:
    """(language or None, text) of the code blocks of a page's content, in order."""
    blocks = []
    for pre in content.iter("pre"):
        if any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        if any("linenos" in (a.get("class") or "") or "linenodiv" in (a.get("class") or "")
               for a in (pre, *pre.iterancestors())):
            continue
        blocks.append((_html_lang(pre, default), _code_text(pre)))
    return blocks


_LINENOS = './/span[contains(concat(" ", normalize-space(@class), " "), " linenos ")]'


def _code_text(pre: lxml.html.HtmlElement) -> str:
    """The code of a ``<pre>`` without Pygments' inline line numbers
    (``linenos: inline``: ``<span class="linenos">``), which no fence carries."""
    if not pre.xpath(_LINENOS):
        return str(pre.text_content())
    copy = copy_module.deepcopy(pre)
    for span in copy.xpath(_LINENOS):
        span.drop_tree()
    return str(copy.text_content())


def _same_code(html_text: str, view_code: str) -> bool:
    def squash(text: str) -> str:
        return re.sub(r"\s+", " ", text).strip()
    return squash(html_text) == squash(view_code)


@dataclass
class LangCount:
    knowable: int = 0
    kept: int = 0
    source_extra: int = 0
    source_kept: int = 0


def compare_langs(html_blocks: list[tuple[str | None, str]],
                  view_fences: list[tuple[str, str]], where: str, finding: Finding,
                  counts: LangCount) -> Counter[str]:
    """Match HTML blocks to the view's fences in order (by their code); count kept langs.

    Returns the languages of view fences not matched to a knowable HTML block."""
    pointer = 0
    unmatched_view: Counter[str] = Counter()
    matched: set[int] = set()
    for lang, text in html_blocks:
        found = next((i for i in range(pointer, len(view_fences))
                      if _same_code(text, view_fences[i][1])), None)
        if found is not None:
            pointer = found + 1
        if lang is None:
            continue
        counts.knowable += 1
        got = normal_lang(view_fences[found][0]) if found is not None else None
        if found is not None:
            matched.add(found)
        if got == lang or (lang == "python" and got == "pycon"):  # Sphinx picks pycon
            counts.kept += 1
        else:
            shown = "no matching fence" if found is None else f"fence says {got or 'nothing'!r}"
            finding.add(where, f"{lang} block: {shown}", lang)
    for i, (lang, _) in enumerate(view_fences):
        if i not in matched and lang:
            unmatched_view[normal_lang(lang)] += 1
    return unmatched_view


_SOURCE_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})[ \t]*\{?\.?([A-Za-z][\w+#.-]*)(?![\w+#.-]*=)")


# markdown-exec: a fence with exec="on" shows its output, not its code; `tree` fences
# become a file tree (highlighted as bash): neither is a block of that language.
_RENDERED_FENCE = re.compile(r"""\bexec\s*=\s*["']?(?:1|on|true|yes)""", re.IGNORECASE)
_RENDERED_LANGS = frozenset({"tree"})


def source_langs(markdown: str) -> Counter[str]:
    """Languages of the opening fences of a Markdown source (any nesting)."""
    found: Counter[str] = Counter()
    closing: str | None = None
    opened_at = 0
    for line in markdown.splitlines():
        stripped = line.lstrip(" \t>")
        indent = len(line) - len(stripped)
        if closing is not None:
            # a closing fence is indented at most 3 spaces more than its opening one
            if stripped.startswith(closing) and not stripped.strip().strip(closing[0]) \
                    and indent <= opened_at + 3:
                closing = None
            continue
        match = _SOURCE_FENCE.match(line)
        if match is not None:
            if not _RENDERED_FENCE.search(line) and match[2] not in _RENDERED_LANGS:
                found[normal_lang(match[2])] += 1
            closing, opened_at = match[1], indent
        elif stripped.startswith(("```", "~~~")):
            closing, opened_at = stripped[:3], indent
    for lang in _NO_LANG:
        found.pop(lang, None)
    return found


def source_of(post_url: str, base: str, docs_dir: Path) -> Path | None:
    """The MkDocs source of a page URL, by the usual layouts."""
    rel = unquote(post_url[len(base):]).split("#")[0]
    rel = rel.removesuffix("index.html").removesuffix(".html").rstrip("/")
    candidates = [f"{rel}/index.md", f"{rel}/README.md", f"{rel}.md"] if rel else [
        "index.md", "README.md"]
    for candidate in candidates:
        path = docs_dir / candidate
        if path.is_file():
            return path
    return None


# ---- hidden markers -----------------------------------------------------------------

def output_files(root: Path, site: Site) -> list[Path]:
    files = [post.view_path for post in site.posts if post.view_path.exists()]
    files += sorted(p for p in root.rglob("*.txt") if p.name in _LLMS_NAMES)
    if (root / "agentprose.json").exists():
        files.append(root / "agentprose.json")
    return files


def check_markers(site: Site) -> dict[str, object]:
    leaks: dict[str, list[str]] = {}
    visible_in: list[str] = []
    for path in output_files(site.root, site):
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = str(path.relative_to(site.root))
        for kind, marker in HIDDEN.items():
            if marker in text:
                leaks.setdefault(kind, []).append(rel)
        if VISIBLE in text:
            visible_in.append(rel)
    return {"leaks": leaks, "leaked_kinds": sorted(leaks), "visible_in": visible_in,
            "visible_found": bool(visible_in)}


# ---- determinism --------------------------------------------------------------------

def _agent_files(root: Path) -> dict[str, bytes]:
    found = {}
    for path in root.rglob("*"):
        if path.is_file() and (path.suffix == ".md" or path.name in _LLMS_NAMES
                               or path.name == "agentprose.json"):
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


def _html_differs(first: Path, second: Path) -> list[str]:
    """The HTML pages that differ between the builds: the site itself is not stable."""
    found = []
    for path in sorted(first.rglob("*.html")):
        other = second / path.relative_to(first)
        if not other.exists() or other.read_bytes() != path.read_bytes():
            found.append(str(path.relative_to(first)))
    return found


def compare_builds(first: Path, second: Path) -> dict[str, object]:
    a, b = _agent_files(first), _agent_files(second)
    differ = sorted(name for name in a.keys() & b.keys() if a[name] != b[name])
    only = sorted(a.keys() ^ b.keys())
    html = _html_differs(first, second)
    return {"files": len(a), "differing": len(differ) + len(only),
            "examples": (differ + only)[:EXAMPLES], "only_in_one": only[:EXAMPLES],
            "html_differing": len(html), "html_examples": html[:EXAMPLES]}
