"""Host configurations: the generated text, and real servers running it.

nginx, Apache and Caddy from Debian's packages are started on loopback with exactly the
text :mod:`agentprose_core.hosting.servers` generates (inside the smallest wrapper each needs,
written out below), serve a site built by agentprose, and answer the same table of
requests as ``agentprose serve`` (``tests/http_cases.py``). A server whose binary is
missing skips, except under ``CI=true`` where it fails: ``.ci/run`` installs them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agentprose_core.agents import VARY_AGENTS
from agentprose_core.errors import ConfigError, InputError
from agentprose_core.hosting import edge as hosting_edge
from agentprose_core.hosting import servers as hosting
from agentprose_core.hosting import vercel as hosting_vercel
from agentprose_core.hosting.accept import ACCEPT_RULES, markdown_by_rules

from .http_cases import (
    CASES,
    LLMS_SCOPES,
    MARKDOWN,
    Case,
    agent_cases,
    build_fixture_site,
    cases_for,
    run_cases,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

DOCS = Path(__file__).parent.parent / "docs" / "hosting.md"
BASES = ("/", "/docs/")

# What each server cannot do that ``agentprose serve`` does: case name -> why. The tests
# check that these cases still fail, so the list (and docs/hosting.md) stays true.
LIMITS: dict[str, dict[str, str]] = {
    "nginx": {
        "if-none-match-wins-over-old-date": "nginx answers 304 only when every conditional "
        "header passes; RFC 9110 says If-None-Match decides alone",
    },
    "apache": {
        "if-none-match-wins-over-old-date": "Apache, like nginx, also checks "
        "If-Modified-Since when If-None-Match matches",
    },
    "caddy": {
        "symlink-out": "Caddy follows symbolic links and has no setting to refuse them",
    },
}


# --- finding and running servers --------------------------------------------------------

def _binary(*names: str) -> str:
    """The first of ``names`` on PATH or in /usr/sbin; skip (fail under CI) when none is."""
    for name in names:
        found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
        if found:
            return found
    message = f"{' or '.join(names)} is not installed (.ci/run installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"the server did not listen on port {port}:\n{log.read_text()}")


@contextmanager
def _running(args: list[str], port: int, workdir: Path,
             env: dict[str, str] | None = None) -> Iterator[None]:
    """Run a server in the foreground until the block ends; always stopped."""
    log = workdir / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=workdir,
                                   env=env, stdin=subprocess.DEVNULL)
    try:
        _wait_for(port, process, log)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _readable(tree: Path) -> None:
    """World-readable, for servers whose workers drop root (Apache as ``nobody``)."""
    tree.chmod(0o755)
    for path in tree.rglob("*"):
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, Path]]:
    """The example site built for ``/`` and for ``/docs/``, outside pytest's private tmp."""
    top = Path(tempfile.mkdtemp(prefix="agentprose-hosting-"))
    try:
        built = {base: build_fixture_site(top / name / "site", "https://coast.example" + base)
                 for base, name in zip(BASES, ("root", "docs"), strict=True)}
        _readable(top)
        yield built
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="agentprose-server-"))
    path.chmod(0o755)
    return path


# --- nginx ------------------------------------------------------------------------------

NGINX_WRAPPER = """\
# Test wrapper: the main context nginx.conf would have, around the generated file.
{user}pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{}}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    include {work}/agentprose.conf;
}}
"""


@contextmanager
def _nginx(site: Path, base: str, layout: str = "sibling", detect: bool = False,
           scopes: tuple[str, ...] = LLMS_SCOPES, index: bool = True) -> Iterator[str]:
    binary = _binary("nginx")
    work, port = _workdir(), _free_port()
    try:
        conf = hosting.nginx_config(str(site), base_path=base, listen=f"127.0.0.1:{port}",
                                    view_layout=layout, llms_scopes=scopes, index=index,
                                    detect_agents=detect)
        (work / "agentprose.conf").write_text(conf, encoding="utf-8")
        user = "user root;\n" if os.geteuid() == 0 else ""
        main = work / "nginx.conf"
        main.write_text(NGINX_WRAPPER.format(user=user, work=work), encoding="utf-8")
        args = [binary, "-p", str(work), "-c", str(main), "-e", str(work / "error.log"),
                "-g", "daemon off;"]
        with _running(args, port, work):
            yield f"http://127.0.0.1:{port}{base}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- Apache -----------------------------------------------------------------------------

APACHE_MODULES = ("mpm_event", "authz_core", "mime", "dir", "alias", "rewrite", "headers")
APACHE_WRAPPER = """\
# Test wrapper: what apache2.conf would hold, around the generated lines.
ServerRoot {work}
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile {work}/httpd.pid
DefaultRuntimeDir {work}
ErrorLog {work}/error.log
{user}{modules}
TypesConfig /etc/mime.types
<Directory />
    AllowOverride None
    Require all denied
</Directory>
{document_root}Include {work}/agentprose.conf
"""


def _apache_modules() -> str:
    folder = Path("/usr/lib/apache2/modules")
    return "\n".join(f"LoadModule {name}_module {folder}/mod_{name}.so"
                     for name in APACHE_MODULES)


def _apache_empty_root(work: Path, base: str) -> str:
    """Under a sub-path, the rest of the server: an empty document root."""
    if base == "/":
        return ""
    (work / "htdocs").mkdir()
    return (f"DocumentRoot {work}/htdocs\n"
            f"<Directory {work}/htdocs>\n    Require all granted\n</Directory>\n")


@contextmanager
def _apache(site: Path, base: str, layout: str = "sibling", detect: bool = False,
           scopes: tuple[str, ...] = LLMS_SCOPES, index: bool = True) -> Iterator[str]:
    binary = _binary("apache2", "httpd")
    work, port = _workdir(), _free_port()
    try:
        (work / "agentprose.conf").write_text(hosting.apache_config(str(site), base_path=base),
                                              encoding="utf-8")
        files = hosting.host_files("apache", base_path=base, view_layout=layout,
                                   llms_scopes=scopes, index=index,
                                   detect_agents=detect)
        (site / ".htaccess").write_text(files[".htaccess"], encoding="utf-8")
        user = "User nobody\nGroup nogroup\n" if os.geteuid() == 0 else ""
        main = work / "httpd.conf"
        main.write_text(APACHE_WRAPPER.format(work=work, port=port, user=user,
                                              modules=_apache_modules(),
                                              document_root=_apache_empty_root(work, base)),
                        encoding="utf-8")
        args = [binary, "-d", str(work), "-f", str(main), "-DFOREGROUND"]
        with _running(args, port, work, env={"PATH": os.environ.get("PATH", ""),
                                             "LANG": "C"}):
            yield f"http://127.0.0.1:{port}{base}"
    finally:
        (site / ".htaccess").unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


# --- Caddy ------------------------------------------------------------------------------

CADDY_WRAPPER = """\
# Test wrapper: global options, then the generated site block.
{
	admin off
	auto_https off
}
"""


@contextmanager
def _caddy(site: Path, base: str, layout: str = "sibling", detect: bool = False,
           scopes: tuple[str, ...] = LLMS_SCOPES, index: bool = True) -> Iterator[str]:
    binary = _binary("caddy")
    work, port = _workdir(), _free_port()
    try:
        block = hosting.caddy_config(str(site), base_path=base, view_layout=layout,
                                     address=f"http://127.0.0.1:{port}",
                                     llms_scopes=scopes, index=index,
                                     detect_agents=detect)
        caddyfile = work / "Caddyfile"
        caddyfile.write_text(CADDY_WRAPPER + block, encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work),
               "XDG_CONFIG_HOME": str(work / "config"), "XDG_DATA_HOME": str(work / "data")}
        args = [binary, "run", "--config", str(caddyfile), "--adapter", "caddyfile"]
        with _running(args, port, work, env=env):
            yield f"http://127.0.0.1:{port}{base}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


SERVERS = {"nginx": _nginx, "apache": _apache, "caddy": _caddy}
NO_MARKDOWN_404 = {"apache": "ErrorDocument sends a file or a one-line message as HTML"}
"""Servers that answer a missing page with the site's 404.html whatever the client asked."""


# --- the table, on each server ----------------------------------------------------------

def _limited(case: Case, server: str) -> bool:
    return case.name in LIMITS[server] or (case.markdown_404 and server in NO_MARKDOWN_404)


def _split(cases: list[Case], server: str) -> tuple[list[Case], list[Case]]:
    return ([c for c in cases if not _limited(c, server)],
            [c for c in cases if _limited(c, server)])


def _holds(url: str, cases: list[Case], server: str) -> None:
    """The table passes, but for the server's limits, which must still fail."""
    passing, limited = _split(cases, server)
    assert run_cases(url, passing) == []
    for case in limited:  # still a limit: else drop it from LIMITS and docs/hosting.md
        assert run_cases(url, [case]), f"{server} now passes {case.name}"


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_http_cases(sites: dict[str, Path], server: str, base: str) -> None:
    with SERVERS[server](sites[base], base) as url:
        _holds(url, cases_for(url), server)


@pytest.mark.parametrize("detect", [False, True], ids=["detection-off", "detection-on"])
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_each_server_answers_agents_and_browsers_as_the_table_says(
        sites: dict[str, Path], server: str, detect: bool) -> None:
    base = "/docs/" if detect else "/"
    with SERVERS[server](sites[base], base, detect=detect) as url:
        _holds(url, agent_cases(detect), server)
        if detect:  # and the rest of the table holds
            _holds(url, cases_for(url), server)


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_links_without_a_root_llms_txt(sites: dict[str, Path], server: str) -> None:
    """A site whose only llms.txt is a section's, without an index: nothing is linked in
    vain, and no empty ``Link`` is sent."""
    with SERVERS[server](sites["/"], "/", scopes=("tide-pools/",), index=False) as url:
        for path, accept in (("rock-pools.html", MARKDOWN), ("", MARKDOWN),
                             ("rock-pools.html", "text/html")):
            request = urllib.request.Request(url + path, headers={"Accept": accept})
            with urllib.request.urlopen(request, timeout=5) as response:
                link = response.headers.get("Link")
            assert link is None or ("llms.txt" not in link and "agentprose.json" not in link)
            assert link != "", (path, accept)
        section = Case("section", "tide-pools/", headers={"Accept": MARKDOWN},
                       header_contains=(("Link", '</tide-pools/llms.txt>; rel="describedby"'),),
                       header_lacks=(("Link", "agentprose.json"),))
        assert run_cases(url, [section]) == []


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_markdown_content_type_is_exact(sites: dict[str, Path], server: str) -> None:
    with SERVERS[server](sites["/docs/"], "/docs/") as url:
        for path in ("tide-pools/", "tide-pools.md"):
            request = urllib.request.Request(url + path, headers={"Accept": "text/markdown"})
            with urllib.request.urlopen(request, timeout=5) as response:
                assert response.headers["Content-Type"].lower().replace(" ", "") == \
                    "text/markdown;charset=utf-8"


def test_a_missing_server_skips_or_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        _binary("agentprose-no-such-server")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="not installed"):
        _binary("agentprose-no-such-server")


def test_limits_name_real_cases() -> None:
    names = {c.name for c in CASES}
    for limits in LIMITS.values():
        assert set(limits) <= names


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_server_applies_the_accept_rules(sites: dict[str, Path], server: str) -> None:
    """Each server's rendering of the rules (PCRE map, RewriteCond, CEL on RE2) agrees."""
    from .test_hosting_edge import CORPUS, _random_accepts

    accepts = [*CORPUS, *_random_accepts(300, odd=True)]
    with SERVERS[server](sites["/"], "/") as url:
        got = []
        for accept in accepts:
            request = urllib.request.Request(url + "tide-pools/", headers={"Accept": accept})
            with urllib.request.urlopen(request, timeout=5) as response:
                got.append(response.headers["Content-Type"].startswith("text/markdown"))
    assert [a for a, md in zip(accepts, got, strict=True)
            if md != markdown_by_rules(a)] == []


@pytest.fixture(scope="module")
def layouts() -> Iterator[dict[str, Path]]:
    """The example site built with the other two view layouts."""
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    from .http_cases import EXAMPLE, EXCLUDED

    top = Path(tempfile.mkdtemp(prefix="agentprose-layouts-"))
    try:
        built = {}
        for layout in ("directory", "index-html"):
            site = top / layout
            shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("README.md"))
            build_site(site, base_url="https://coast.example/",
                       settings=Settings(exclude=(EXCLUDED,), view_layout=layout))
            built[layout] = site
        _readable(top)
        yield built
    finally:
        shutil.rmtree(top, ignore_errors=True)


LAYOUT_VIEWS = {
    "directory": {"": "index.md", "tide-pools/": "tide-pools/index.md",
                  "rock-pools.html": "rock-pools.md"},
    "index-html": {"": "index.html.md", "tide-pools/": "tide-pools/index.html.md",
                   "rock-pools.html": "rock-pools.html.md"},
}


@pytest.mark.parametrize("layout", sorted(LAYOUT_VIEWS))
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_other_view_layouts(layouts: dict[str, Path], server: str, layout: str) -> None:
    site = layouts[layout]
    with SERVERS[server](site, "/", layout) as url:
        for page, view in LAYOUT_VIEWS[layout].items():
            assert (site / view).is_file()
            markdown = Case("md", page, headers={"Accept": "text/markdown"},
                            content_type="text/markdown", vary_accept=True,
                            body_contains=((site / view).read_text(encoding="utf-8")[:80],))
            html = Case("html", page, headers={"Accept": "text/html"}, content_type="text/html",
                        vary_accept=True, header_contains=(("Link", "/" + view),))
            assert run_cases(url, [markdown, html]) == []


# --- the text itself --------------------------------------------------------------------

def test_each_host_gets_its_own_configuration_files() -> None:
    assert set(hosting.host_files("netlify", views=("a.md",))) == {"_headers"}
    assert "/a.md\n  Content-Type: text/markdown; charset=utf-8" in \
        hosting.host_files("netlify", views=("a.md",))["_headers"]
    assert "/a.md\n  Content-Type: text/markdown; charset=utf-8\n  x-markdown-tokens: 12\n" in \
        hosting.host_files("netlify", views=("a.md", "b.md"), tokens={"a.md": 12})["_headers"]
    assert hosting.host_files("cloudflare", base_path="/docs/")["_headers"].splitlines()[1:3] \
        == ["/docs/*.md", "  Content-Type: text/markdown; charset=utf-8"]
    htaccess = hosting.host_files("apache", base_path="docs")[".htaccess"]
    assert "RewriteBase /docs/\n" in htaccess
    assert "ErrorDocument 404 /docs/404.html\n" in htaccess
    assert hosting.host_files("none") == {}
    assert set(hosting.HOSTS) == {"netlify", "cloudflare", "apache", "none"}
    with pytest.raises(ConfigError, match="host must be one of"):
        hosting.host_files("github-pages")


@pytest.mark.parametrize("root", ['/srv/a"b', "/srv/$site", "/srv/a;b", "", "/srv/a\nb",
                                  "/srv/{x}"])
def test_unquotable_paths_are_refused(root: str) -> None:
    with pytest.raises(InputError):
        hosting.nginx_config(root)
    with pytest.raises(InputError):
        hosting.caddy_config(root)
    with pytest.raises(InputError):
        hosting.apache_config(root)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(InputError):
        hosting.nginx_config("/srv/site", base_path="/../x/")
    with pytest.raises(ConfigError, match="view_layout"):
        hosting.caddy_config("/srv/site", view_layout="flat")
    with pytest.raises(ConfigError, match="view_layout"):
        hosting_edge.vercel_json(view_layout="flat")


def test_spaces_are_quoted_or_refused() -> None:
    caddy = hosting.caddy_config("/srv/my site", base_path="/my docs/")
    assert 'root * "/srv/my site"' in caddy
    assert 'handle_path "/my docs/*" {' in caddy
    with pytest.raises(InputError, match="space"):
        hosting.apache_htaccess(base_path="/my docs/")
    assert 'DocumentRoot "/"' in hosting.apache_config("/")


def test_sub_path_with_regex_characters_is_escaped() -> None:
    text = hosting.nginx_config("/srv/site", base_path="/v1.2 (beta)/")
    assert r'location ~ "^/v1\.2 \(beta\)/(?:index\.html?)?$"' in text
    assert 'location ^~ "/v1.2 (beta)/" {' in text


def test_agent_detection_comes_from_the_one_list() -> None:
    """Off: no trace of it. On: each text holds the patterns of agentprose_core.agents."""
    from agentprose_core.agents import agent_pattern, crawler_pattern, signature_pattern

    def texts(detect: bool) -> dict[str, str]:
        return {
            "nginx": hosting.nginx_config("/srv/site", detect_agents=detect),
            "apache": hosting.apache_htaccess(detect_agents=detect),
            "caddy": hosting.caddy_config("/srv/site", detect_agents=detect),
            "function": hosting_edge.cloudflare_function(detect_agents=detect),
            "vercel": hosting_edge.vercel_json(detect_agents=detect),
        }

    for name, text in texts(False).items():
        assert "claude" not in text.lower(), name
        if name == "function":  # the same code, with nothing to detect
            assert "const AGENTS = null;" in text
        else:
            assert "user-agent" not in text.lower(), name
    for name, text in texts(True).items():
        if name == "vercel":  # the patterns as JSON strings
            wanted = [hosting_vercel._caseless(p) for p in
                      (agent_pattern(), crawler_pattern(), signature_pattern())]
            assert all(json.dumps(w)[1:-1] in text for w in wanted), name
        elif name == "function":
            assert all(json.dumps(p) in text for p in
                       (agent_pattern(), crawler_pattern(), signature_pattern())), name
        else:
            assert agent_pattern() in text, name
            assert crawler_pattern() in text, name
        assert VARY_AGENTS in text or "Vary Signature-Agent" in text, name


def test_llms_scopes_are_normalized_or_refused() -> None:
    from agentprose_core.hosting.links import link_rules, normalize_scopes

    assert normalize_scopes(["", "/guide", "api/", "guide/", "guide/api"]) == \
        ("guide/api/", "guide/", "api/", "")
    rules = link_rules("/docs/", ["", "a b/"], index=False)
    assert [(r.prefix, r.describedby) for r in rules] == [
        ("/docs/a b/", "/docs/a%20b/llms.txt"), ("/docs/", "/docs/llms.txt"), (None, None)]
    assert rules[-1].links == ""
    assert "llms.txt" not in rules[-1].not_found
    for bad in ("../x/", "a/./b", 'a"b/', "a$b", "a{b}/"):
        with pytest.raises(InputError):
            normalize_scopes([bad])
    with pytest.raises(InputError):
        hosting.nginx_config("/srv/site", llms_scopes=["a;b/"])


def test_without_a_root_llms_txt_nothing_is_linked_in_vain() -> None:
    nginx = hosting.nginx_config("/srv/site", llms_scopes=("guide/",), index=False)
    assert 'set $agentprose_links "";' in nginx  # the pages outside guide/ link nothing
    assert "</llms.txt>" not in nginx
    cloudflare = hosting_edge.cloudflare_headers(llms_scopes=(), index=False)
    assert "Link" not in cloudflare


def test_the_map_is_valid_json_free_text() -> None:
    """One map line per rule, each a quoted case-insensitive regex."""
    text = hosting.nginx_config("/srv/site")
    lines = [line for line in text.splitlines() if line.startswith('    "~*')]
    assert len(lines) == len(ACCEPT_RULES)
    assert all(line.endswith('" 1;') for line in lines)


# --- docs/hosting.md holds only generated snippets --------------------------------------

EXAMPLE_ROOT = "/srv/coast-guide/site"
SNIPPETS: dict[str, Callable[[], str]] = {
    "nginx": lambda: hosting.nginx_config(EXAMPLE_ROOT, server_name="coast.example",
                                          listen="80"),
    "apache-config": lambda: hosting.apache_config(EXAMPLE_ROOT),
    "apache-htaccess": hosting.apache_htaccess,
    "caddy": lambda: hosting.caddy_config(EXAMPLE_ROOT, address="coast.example"),
    "netlify-headers": lambda: hosting_edge.netlify_headers(
        ("index.md", "tide-pools.md"), tokens={"index.md": 412, "tide-pools.md": 1730}),
    "netlify-function": hosting_edge.netlify_edge_function,
    "cloudflare-headers": hosting_edge.cloudflare_headers,
    "cloudflare-function": hosting_edge.cloudflare_function,
    "vercel": hosting_edge.vercel_json,
}
_BLOCK = re.compile(r"(?:<!-- snippet: ([\w-]+) -->\n)?(`{3,})(\w*)\n(.*?)\n\2\n", re.DOTALL)


def test_docs_snippets_are_the_generated_text() -> None:
    text = DOCS.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for match in _BLOCK.finditer(text):
        name, _, language, body = match.groups()
        if language == "sh":  # commands to type, not configuration
            continue
        assert name, f"a {language or 'plain'} block without a snippet marker: {body[:60]!r}"
        found[name] = body + "\n"
    assert set(found) == set(SNIPPETS)
    for name, make in SNIPPETS.items():
        assert found[name] == make(), f"docs/hosting.md: the {name} block is out of date"


def test_docs_name_every_limit() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for server, limits in LIMITS.items():
        for case in limits:
            assert f"`{case}`" in text, f"docs/hosting.md does not mention {server}'s {case}"
    for server in NO_MARKDOWN_404:  # said in the server's own section
        section = text.split(f"\n## {server.capitalize()}\n", 1)[1].split("\n## ", 1)[0]
        assert "No Markdown `404`" in section, f"docs/hosting.md: {server}'s Markdown 404"
    assert json.loads(SNIPPETS["vercel"]())["routes"]
