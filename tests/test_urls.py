"""Page URLs, view URLs, origins and output paths."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentprose_core.errors import InputError
from agentprose_core.urls import (
    base_url_of,
    is_on_site,
    output_path,
    page_key,
    resolve,
    unsafe_scheme,
    view_url,
)

if TYPE_CHECKING:
    from collections.abc import Callable

ROOT = "https://coast.example/"
SUB = "https://coast.example/blog/"


@pytest.mark.parametrize(
    ("page", "base", "sibling", "directory", "index_html"),
    [
        ("https://coast.example/tide-pools/", ROOT, "/tide-pools.md", "/tide-pools/index.md",
         "/tide-pools/index.html.md"),
        ("https://coast.example/guide/install.html", ROOT, "/guide/install.md",
         "/guide/install.md", "/guide/install.html.md"),
        ("https://coast.example/", ROOT, "/index.md", "/index.md", "/index.html.md"),
        ("https://coast.example/blog/", SUB, "/blog/index.md", "/blog/index.md",
         "/blog/index.html.md"),
        ("https://coast.example/blog/index.html", SUB, "/blog/index.md", "/blog/index.md",
         "/blog/index.html.md"),
        ("https://coast.example/blog/a/index.html", SUB, "/blog/a/index.md", "/blog/a/index.md",
         "/blog/a/index.html.md"),  # a URL that names its file keeps the name (llms.txt v2)
        ("https://coast.example/blog/a/", SUB, "/blog/a.md", "/blog/a/index.md",
         "/blog/a/index.html.md"),
    ],
)
def test_view_layouts(page: str, base: str, sibling: str, directory: str, index_html: str) -> None:
    origin = "https://coast.example"
    assert view_url(page, base, "sibling") == origin + sibling
    assert view_url(page, base, "directory") == origin + directory
    assert view_url(page, base, "index-html") == origin + index_html


def test_base_url_is_checked_and_slashed() -> None:
    assert base_url_of("https://Coast.example/blog") == SUB
    for bad in ("coast.example", "/blog/", "ftp://x.org/", ""):
        with pytest.raises(InputError, match="absolute"):
            base_url_of(bad)


def test_page_key_ignores_index_fragment_query_and_encoding() -> None:
    assert page_key("https://x.org/a/index.html?q=1#f") == page_key("https://x.org/a/")
    assert page_key("https://x.org/caf%C3%A9/") == page_key("https://x.org/café/")


def _page_key_by_urlsplit(url: str) -> str:
    """page_key as it was before its fast path: urlsplit for every URL."""
    parts = urlsplit(url)
    path = quote(unquote(parts.path or "/"), safe="/:@!$&'()*+,;=-._~")
    for name in ("index.html", "index.htm"):
        if path.endswith("/" + name):
            path = path[: -len(name)]
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


def _view_url_by_urlsplit(page_url: str, base_url: str, layout: str) -> str:
    """view_url as it was before its fast path."""
    parts = urlsplit(page_url)
    path = parts.path or "/"
    root = _page_key_by_urlsplit(page_url) == _page_key_by_urlsplit(base_url)
    directory, name = (path, "") if path.endswith("/") else path.rsplit("/", 1)
    directory = directory if path.endswith("/") else directory + "/"
    stem = None if name in ("", "index.html", "index.htm") else name
    if layout == "sibling":
        new = (directory + "index.md" if root or name else directory.rstrip("/") + ".md") \
            if stem is None else directory + posixpath.splitext(stem)[0] + ".md"
    elif layout == "directory":
        new = directory + ("index.md" if stem is None else posixpath.splitext(stem)[0] + ".md")
    else:
        new = directory + ("index.html.md" if stem is None else stem + ".md")
    return urlunsplit((parts.scheme, parts.netloc, new, "", ""))


_URL_PART = st.lists(st.sampled_from(
    ["a", "Z", "0", "/", ".", "-_~", ":@", "!$&'()*+,;=", "%", "%C3%A9", "%2F", "é", " ",
     "\t", "\n", "?", "#", "[", "]", "\\", "index.html", "index.htm"]), max_size=6).map("".join)
_URLS = st.one_of(
    st.builds(lambda scheme, host, path, rest: f"{scheme}://{host}{path}{rest}",
              st.sampled_from(["https", "HTTP", "ftp", "a+b", "1x", ""]),
              st.sampled_from(["x.org", "X.Org:8080", "", "u@x.org", "[::1]", "xn--caf.org"]),
              st.builds(lambda a, b: a + b, st.sampled_from(["", "/", "/a/", "/a/index.html",
                                                             "/index.htm", "/b.html"]),
                        _URL_PART),
              _URL_PART),
    st.text(max_size=30),
)


def _same_as(expected: Callable[..., str], actual: Callable[..., str], *args: str) -> None:
    try:
        wanted = expected(*args)
    except ValueError:  # urlsplit refuses it ("[" unmatched): so must the fast path
        with pytest.raises(ValueError):  # noqa: PT011 - the error of the stdlib function compared
            actual(*args)
        return
    assert actual(*args) == wanted


@given(_URLS)
def test_page_key_is_what_urlsplit_gives(url: str) -> None:
    _same_as(_page_key_by_urlsplit, page_key, url)


@given(_URLS, st.sampled_from(["https://x.org/", "https://X.org/a/", "http://x.org:8080/"]),
       st.sampled_from(["sibling", "directory", "index-html"]))
def test_view_url_is_what_urlsplit_gives(url: str, base: str, layout: str) -> None:
    _same_as(_view_url_by_urlsplit, view_url, url, base, layout)


def test_same_origin_and_under_base() -> None:
    assert is_on_site("https://coast.example/blog/a/", SUB)
    assert not is_on_site("https://coast.example/other/", SUB)
    assert not is_on_site("https://coast.example/blogger/", SUB)
    assert not is_on_site("https://coast.example/blog/../x/", SUB)
    assert not is_on_site("http://coast.example/blog/", SUB)
    assert not is_on_site("https://evil.example/blog/", SUB)


def test_output_paths_stay_inside() -> None:
    assert output_path("https://coast.example/blog/a.md", SUB) == "a.md"
    assert output_path("https://coast.example/blog/", SUB) == "index.html"
    with pytest.raises(InputError):
        output_path("https://coast.example/x.md", SUB)
    with pytest.raises(InputError):
        output_path("https://coast.example/blog/%2e%2e/%2e%2e/etc/passwd", SUB)


@pytest.mark.parametrize("href", ["javascript:alert(1)", " JavaScript:x", "data:text/html,x",
                                  "vbscript:x", "java\tscript:x"])
def test_unsafe_schemes(href: str) -> None:
    assert unsafe_scheme(href)


def test_ordinary_links_have_no_unsafe_scheme() -> None:
    for href in ("https://x.org", "/a", "#f", "mailto:a@b", "a:b/c"):
        assert not unsafe_scheme(href)


_PATHS = st.text(alphabet="ab./-%~_", max_size=12)


@given(
    base=st.builds(lambda host, path, extra: f"https://{host}/{path}{extra}",
                   st.sampled_from(["x.org", "x.org:8080", "X.org"]), _PATHS,
                   st.sampled_from(["", "?q=1", "#top", ";p", "index.html"])),
    href=st.one_of(
        st.builds(lambda path, fragment: path + fragment,
                  st.text(alphabet="ab./-%#~_", max_size=16), st.sampled_from(["", "#x", "#"])),
        st.text(alphabet="ab./:?#;\\ \t", max_size=12),
        st.sampled_from(["//other.org/a", "mailto:a@b", "?x", "HTTPS://x.org/a/../b", " ../a "]),
    ),
)
def test_resolve_is_urljoin(base: str, href: str) -> None:
    """The fast path for plain relative links gives exactly what urljoin gives."""
    assert resolve(href, base) == urljoin(base, href.strip())


@given(
    page=st.builds(lambda path, extra: f"https://x.org/{path}{extra}", _PATHS,
                   st.sampled_from(["", "?q=1", "#top", ";p", "index.html"])),
    hrefs=st.lists(st.one_of(
        st.builds(lambda fragment, pad: pad + "#" + fragment + pad,
                  st.text(alphabet="ab#-% \t\\", max_size=6), st.sampled_from(["", " "])),
        st.text(alphabet="ab./:?#;\\ ", max_size=10),
    ), max_size=6),
    listed=st.booleans(),
)
def test_links_into_the_page_go_where_the_page_goes(page: str, hrefs: list[str],
                                                     listed: bool) -> None:
    """The shortcut for "#…" links gives what resolving each one gives, and looks up
    the same pages (a worker's conversion is kept or redone by them)."""
    from agentprose_core.convert.rules.links import _link_target, rewrite_links
    from agentprose_core.convert.tree import ElementIndex, new_element
    from agentprose_core.parallel.speculative import RecordingMap

    root = new_element("div")
    for href in hrefs:
        link = new_element("a", "text")
        link.set("href", href)
        root.append(link)
    site_map = {page_key(page): "https://x.org/view.md"} if listed else {}
    shortcut, each = RecordingMap(site_map), RecordingMap(site_map)
    rewrite_links(ElementIndex(root), page, shortcut)
    kept = [href for href in hrefs if not unsafe_scheme(href)]
    assert [link.get("href") for link in root.iter("a")] == [
        _link_target(href, page, each) for href in kept
    ]
    assert shortcut.asked == each.asked


@pytest.mark.parametrize("order", [1, -1])
def test_a_page_and_a_folder_of_one_name_get_views_of_their_own(order: int) -> None:
    from agentprose_core.urls import view_collisions, views_of

    base = "https://x.org/docs/"
    urls = [base + "changes.html", base + "changes/", base + "a/", base][::order]
    views = views_of(urls, base, "sibling")
    assert views[base + "changes.html"] == base + "changes.md"
    assert views[base + "changes/"] == base + "changes/index.md"
    assert views[base + "a/"] == base + "a.md"
    assert views[base] == base + "index.md"
    (message,) = view_collisions(urls, base, "sibling")
    assert message.startswith(f"The pages {base}changes/ and {base}changes.html")
    assert view_collisions(urls, base, "directory") == []
    # A folder page whose URL names its file (Sphinx's html builder) has a view of its own.
    named = [base + "changes.html", base + "changes/index.html"]
    assert views_of(named, base, "sibling") == {base + "changes.html": base + "changes.md",
                                                base + "changes/index.html":
                                                base + "changes/index.md"}
    assert view_collisions(named, base, "sibling") == []
