"""Host configurations: the generated text, and real servers running it.

nginx, Apache and Caddy from Debian's packages are started on loopback with exactly the
text :mod:`agentprose_core.hosting` generates (inside the smallest wrapper each needs,
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agentprose_core import hosting, hosting_edge
from agentprose_core.errors import ConfigError, InputError
from agentprose_core.hosting_accept import ACCEPT_RULES, markdown_by_rules, pcre_patterns
from agentprose_core.negotiate import choose

from .http_cases import CASES, Case, build_fixture_site, cases_for, run_cases

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
                 for base, name in zip(BASES, ("root", "docs"))}
        _readable(top)
        yield built
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="agentprose-server-"))
    path.chmod(0o755)
    return path


@dataclass(frozen=True)
class Server:
    """How to start one kind of server on a site: a function yielding its base URL."""

    name: str
    start: Callable[[Path, str], contextmanager[str]]  # type: ignore[valid-type]


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
def _nginx(site: Path, base: str) -> Iterator[str]:
    binary = _binary("nginx")
    work, port = _workdir(), _free_port()
    try:
        conf = hosting.nginx_config(str(site), base_path=base, listen=f"127.0.0.1:{port}")
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
def _apache(site: Path, base: str) -> Iterator[str]:
    binary = _binary("apache2", "httpd")
    work, port = _workdir(), _free_port()
    try:
        (work / "agentprose.conf").write_text(hosting.apache_config(str(site), base_path=base),
                                              encoding="utf-8")
        (site / ".htaccess").write_text(hosting.host_files("apache", base_path=base)[".htaccess"],
                                        encoding="utf-8")
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
def _caddy(site: Path, base: str) -> Iterator[str]:
    binary = _binary("caddy")
    work, port = _workdir(), _free_port()
    try:
        block = hosting.caddy_config(str(site), base_path=base, address=f"http://127.0.0.1:{port}")
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


# --- the table, on each server ----------------------------------------------------------

def _split(cases: list[Case], server: str) -> tuple[list[Case], list[Case]]:
    limits = LIMITS[server]
    return ([c for c in cases if c.name not in limits], [c for c in cases if c.name in limits])


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_http_cases(sites: dict[str, Path], server: str, base: str) -> None:
    with SERVERS[server](sites[base], base) as url:
        cases, limited = _split(cases_for(url), server)
        assert run_cases(url, cases) == []
        for case in limited:  # still a limit: else drop it from LIMITS and docs/hosting.md
            assert run_cases(url, [case]), f"{server} now passes {case.name}"


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_markdown_content_type_is_exact(sites: dict[str, Path], server: str) -> None:
    with SERVERS[server](sites["/docs/"], "/docs/") as url:
        for path in ("tide-pools/", "tide-pools.md"):
            request = urllib.request.Request(url + path, headers={"Accept": "text/markdown"})
            with urllib.request.urlopen(request, timeout=5) as response:
                assert response.headers["Content-Type"].lower().replace(" ", "") == \
                    "text/markdown;charset=utf-8"


def test_limits_name_real_cases() -> None:
    names = {c.name for c in CASES}
    for limits in LIMITS.values():
        assert set(limits) <= names
