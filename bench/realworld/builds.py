"""Build one site bare, with agentprose, and with agentprose again, out of tree.

Nothing of the checkout is edited: MkDocs builds read a generated config next to the
original (``INHERIT``), Sphinx builds a wrapper conf dir (``-c``) that executes the
original ``conf.py``. The hidden-marker page is a temporary file in the docs dir, there
only during the agentprose builds. Generated files are removed in ``finally`` blocks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from markers import marker_page

if TYPE_CHECKING:
    from sites import Site

HERE = Path(__file__).resolve().parent
VARIANTS = ("bare", "agentprose", "agentprose2")
_MARKER_STEM = "zz-hidden-markers"
_BUILD_PATH = re.compile(r"\S*\.builds/\S*")


@dataclass
class BuildResult:
    variant: str
    out_dir: str
    seconds: float
    exit_code: int
    log: str
    cpu_seconds: float = 0.0
    peak_rss_mib: float = 0.0
    agentprose_lines: list[str] = field(default_factory=list)
    warnings: int = 0
    tail: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


VARIANT_SETTINGS: dict[str, dict[str, object]] = {"menu": {"page_actions": True},
                                                  "mcp": {"mcp_endpoint": "/mcp"}}
"""agentprose's settings of the variants that set any (``menu.py``'s look at the page
menu on real sites, ``mcp_parity.py``'s search index); the other variants take the
defaults."""


def uses_agentprose(variant: str) -> bool:
    """``bare`` and ``timing-bare`` build without agentprose, the others with it."""
    return not variant.endswith("bare")


def base_url(site: Site) -> str:
    return f"https://realworld.example/{site.name}/"


def scratch_of(checkouts: Path, site: Site) -> Path:
    return checkouts / ".builds" / site.name


def out_dir(checkouts: Path, site: Site, variant: str) -> Path:
    return scratch_of(checkouts, site) / variant


def _env(site: Site, agentprose_checkout: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(site.env)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONPATH", None)
    if agentprose_checkout is not None:
        env["PYTHONPATH"] = str(agentprose_checkout)
    return env


@dataclass(frozen=True)
class Usage:
    """What one build process (and every process it waited for) used."""

    exit_code: int
    seconds: float
    cpu_seconds: float
    """User and system time, children included."""
    peak_rss_mib: float
    """The largest resident set of any one process of the build."""


def _run(command: list[str], *, cwd: Path, env: dict[str, str], log: Path,
         timeout: int) -> Usage:
    """Run ``command``; its wall time, and its CPU and peak memory from ``wait4``. The
    venv's ``bin`` (its python's folder) is first on PATH, as when it is activated: pages
    that run installed commands (markdown-exec's console blocks) find them."""
    python = next((part for part in command if Path(part).name.startswith("python")), None)
    if python is not None:
        env = {**env, "PATH": f"{Path(python).parent}{os.pathsep}{env.get('PATH', '')}"}
    started = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        process.returncode = code
        if code == -signal.SIGKILL:
            out.write(f"\nrealworld: killed after {timeout}s\n")
            code = -9
    # ru_maxrss is in KiB on Linux.
    return Usage(code, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def _summarize(result: BuildResult) -> BuildResult:
    lines = Path(result.log).read_text(encoding="utf-8", errors="replace").splitlines()
    result.agentprose_lines = [line for line in lines
                               if "agentprose" in _BUILD_PATH.sub("", line).lower()][:50]
    result.warnings = sum("WARNING" in line or "warning:" in line.lower() for line in lines)
    if result.exit_code != 0:
        result.tail = lines[-25:]
    return result


def _fresh(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def resummarize(saved: dict[str, object]) -> dict[str, object]:
    """A saved build's record with its log read again (when the log is still there)."""
    result = BuildResult(**saved)  # type: ignore[arg-type]
    return _summarize(result).to_dict() if Path(result.log).exists() else saved


# ---- Zensical ---------------------------------------------------------------------------

_YAML_KEY = "^{key}:.*$"


def _with_key(text: str, key: str, value: str) -> str:
    """A Zensical config's text with one top-level key set (``site_url``, ``site_dir``)."""
    line = f"{key}: {json.dumps(value)}"
    pattern = re.compile(_YAML_KEY.format(key=re.escape(key)), re.MULTILINE)
    return pattern.sub(line, text, count=1) if pattern.search(text) else f"{text}\n{line}\n"


def _zensical_build(site: Site, checkout: Path, python: Path, variant: str, out: Path,
                    log: Path, agentprose_checkout: Path, *, prefix: tuple[str, ...] = (),
                    timeout: int | None = None) -> Usage:
    """Zensical runs no third-party plugins: the site is built, then ``agentprose
    build`` writes the agent outputs into it (``--source`` the docs folder), as a
    Zensical user runs it. Usage is of both commands; the log holds both."""
    original = checkout / site.config
    generated = original.with_name(f"zensical.realworld-{variant}{original.suffix}")
    inside = f".realworld-site-{variant}"  # Zensical writes only inside the project
    text = original.read_text(encoding="utf-8")
    generated.write_text(_with_key(_with_key(text, "site_url", base_url(site)),
                                   "site_dir", inside), encoding="utf-8")
    env = _env(site, agentprose_checkout if uses_agentprose(variant) else None)
    try:
        built = _run([*prefix, str(python), "-m", "zensical", "build", "-f", str(generated)],
                     cwd=original.parent, env=env, log=log, timeout=timeout or site.timeout)
        if (original.parent / inside).is_dir():
            shutil.move(str(original.parent / inside), str(out))
    finally:
        generated.unlink(missing_ok=True)
        shutil.rmtree(original.parent / inside, ignore_errors=True)
    if built.exit_code != 0 or not uses_agentprose(variant):
        return built
    second = log.with_name(f"{log.stem}-agentprose.log")
    flags = [part for name, value in VARIANT_SETTINGS.get(variant, {}).items()
             for part in ([f"--{name.replace('_', '-')}"] if value is True
                          else [f"--{name.replace('_', '-')}", str(value)])]
    ours = _run([*prefix, str(python), "-m", "agentprose_core.cli", "build", str(out),
                 "--base-url", base_url(site), "--source", str(checkout / site.docs_dir),
                 *flags],
                cwd=original.parent, env=env, log=second, timeout=timeout or site.timeout)
    with log.open("a", encoding="utf-8") as whole:
        whole.write(second.read_text(encoding="utf-8", errors="replace"))
    second.unlink(missing_ok=True)
    return Usage(ours.exit_code, built.seconds + ours.seconds,
                 built.cpu_seconds + ours.cpu_seconds,
                 max(built.peak_rss_mib, ours.peak_rss_mib))


# ---- MkDocs ---------------------------------------------------------------------------

def _mkdocs_build(site: Site, checkout: Path, python: Path, variant: str, out: Path,
                  log: Path, agentprose_checkout: Path, *, prefix: tuple[str, ...] = (),
                  timeout: int | None = None) -> Usage:
    original = checkout / site.config
    generated = original.with_name(f"mkdocs.realworld-{variant}.yml")
    options = {"site_url": base_url(site), "agentprose": uses_agentprose(variant),
               "drop": list(site.drop_plugins), "overrides": site.overrides,
               "settings": VARIANT_SETTINGS.get(variant, {})}
    env = _env(site, agentprose_checkout if uses_agentprose(variant) else None)
    try:
        subprocess.run([str(python), str(HERE / "mkdocs_config.py"), str(original),
                        str(generated), json.dumps(options)], check=True, env=env)
        command = [*prefix, str(python), "-m", "mkdocs", "build", "--clean", "-f",
                   str(generated), "-d", str(out)]
        return _run(command, cwd=original.parent, env=env, log=log,
                    timeout=timeout or site.timeout)
    finally:
        generated.unlink(missing_ok=True)


# ---- Sphinx ---------------------------------------------------------------------------

_WRAPPER = '''\
# Generated by bench/realworld: executes the site's own conf.py, then adjusts it.
import json as _json
import os as _os

_SETTINGS = _json.loads({settings!r})
_ORIGINAL_DIR = _SETTINGS["conf_dir"]
__file__ = _os.path.join(_ORIGINAL_DIR, "conf.py")
_here = _os.getcwd()
_os.chdir(_ORIGINAL_DIR)
try:
    with open(__file__, encoding="utf-8") as _stream:
        exec(compile(_stream.read(), __file__, "exec"))
finally:
    _os.chdir(_here)


def _absolute(value):
    if isinstance(value, str) and value and "://" not in value and not _os.path.isabs(value):
        return _os.path.join(_ORIGINAL_DIR, value)
    return value


for _key in ("templates_path", "html_static_path", "html_extra_path", "locale_dirs",
             "html_theme_path"):
    if _key in globals():
        globals()[_key] = [_absolute(_value) for _value in globals()[_key]]
for _key in ("html_logo", "html_favicon"):
    if isinstance(globals().get(_key), str) and _os.path.exists(_absolute(globals()[_key])):
        globals()[_key] = _absolute(globals()[_key])

html_baseurl = _SETTINGS["base_url"]
if _SETTINGS["agentprose"]:
    extensions = [*extensions, "sphinx_agentprose"]
    agentprose_cache = _SETTINGS["cache"]
    for _key, _value in _SETTINGS["settings"].items():
        globals()["agentprose_" + _key] = _value
for _key, _value in _SETTINGS["overrides"].items():
    globals()[_key] = _value
with open(_SETTINGS["info"], "w", encoding="utf-8") as _stream:
    _json.dump({{"highlight_language": globals().get("highlight_language", "default")}},
               _stream)
'''


def _sphinx_build(site: Site, checkout: Path, python: Path, variant: str, out: Path,
                  log: Path, agentprose_checkout: Path, *, again: bool = False,
                  prefix: tuple[str, ...] = (), timeout: int | None = None) -> Usage:
    """A cold build; ``again``: with agentprose's cache, the doctrees kept, and when
    they hold the last build's, an incremental build (Sphinx writes what changed)."""
    scratch = scratch_of(checkout.parent, site)
    conf_dir = scratch / f"conf-{variant}"
    settings = {"conf_dir": str(checkout / site.config), "base_url": base_url(site),
                "agentprose": uses_agentprose(variant), "overrides": site.overrides,
                "info": str(scratch / f"conf-{variant}.json"), "cache": again,
                "settings": VARIANT_SETTINGS.get(variant, {})}
    conf = _WRAPPER.format(settings=json.dumps(settings))
    conf_file = conf_dir / "conf.py"
    if not (again and conf_file.exists() and conf_file.read_text(encoding="utf-8") == conf):
        _fresh(conf_dir)
        conf_file.write_text(conf, encoding="utf-8")
    doctrees = scratch / f"doctrees-{variant}"
    if not (again and doctrees.exists()):
        _fresh(doctrees)
    command = [*prefix, str(python), "-m", "sphinx", "-b", site.builder, "-c",
               str(conf_dir), "-d", str(doctrees), str(checkout / site.docs_dir), str(out)]
    env = _env(site, agentprose_checkout if uses_agentprose(variant) else None)
    try:
        return _run(command, cwd=checkout / site.docs_dir, env=env, log=log,
                    timeout=timeout or site.timeout)
    finally:
        if not again:
            shutil.rmtree(doctrees, ignore_errors=True)


def marker_path(checkout: Path, site: Site) -> Path:
    suffix = ".md" if site.tool != "sphinx" or site.markers == "md" else ".rst"
    return checkout / site.docs_dir / f"{_MARKER_STEM}{suffix}"


def marker_url(site: Site) -> str:
    if site.tool != "sphinx" or site.builder == "dirhtml":
        return base_url(site) + _MARKER_STEM + "/"
    return base_url(site) + _MARKER_STEM + ".html"


def _empty_output(checkouts: Path, site: Site, variant: str) -> tuple[Path, Path]:
    """The variant's output folder, emptied, and its log file."""
    out = out_dir(checkouts, site, variant)
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return out, out.parent / f"{variant}.log"


def build(site: Site, checkouts: Path, python: Path, variant: str,
          agentprose_checkout: Path, *, markers: bool = True, prefix: tuple[str, ...] = (),
          timeout: int | None = None) -> BuildResult:
    """One cold build of ``site``; the marker page is present in the agentprose variants
    unless ``markers`` is false (timing compares the same pages). ``prefix`` runs the
    build under another command (valgrind, for instruction counts), with ``timeout``
    instead of the site's."""
    checkout = checkouts / site.name
    out, log = _empty_output(checkouts, site, variant)
    marker = marker_path(checkout, site) if uses_agentprose(variant) and markers else None
    builder = {"mkdocs": _mkdocs_build, "zensical": _zensical_build}.get(site.tool,
                                                                        _sphinx_build)
    try:
        if marker is not None:
            marker.write_text(marker_page(marker.suffix), encoding="utf-8")
        usage = builder(site, checkout, python, variant, out, log, agentprose_checkout,
                        prefix=prefix, timeout=timeout)
    finally:
        if marker is not None:
            marker.unlink(missing_ok=True)
    return _summarize(BuildResult(variant, str(out), round(usage.seconds, 2),
                                  usage.exit_code, str(log), round(usage.cpu_seconds, 2),
                                  round(usage.peak_rss_mib, 1)))


def rebuild(site: Site, checkouts: Path, python: Path, variant: str,
            agentprose_checkout: Path, *, prefix: tuple[str, ...] = (),
            timeout: int | None = None) -> BuildResult:
    """A one-page rebuild, measured: ``site.rebuild_page`` gets one more paragraph and
    the site is built again as a writer rebuilds it, agentprose with its cache: Sphinx
    incremental, after a full build that is not measured; MkDocs as ``mkdocs serve``
    reloads (:func:`_mkdocs_reload`). The page, the doctrees and agentprose's MkDocs
    cache folder are put back as they were. ``prefix`` (Sphinx only) runs the measured
    build under another command (valgrind), with ``timeout`` instead of the site's."""
    checkout = checkouts / site.name
    out, log = _empty_output(checkouts, site, variant)
    page = checkout / site.rebuild_page
    original = page.read_bytes()
    cache = (checkout / site.config).parent / ".cache"
    had_cache = cache.exists()
    if site.tool == "mkdocs":
        if prefix:
            raise ValueError("a MkDocs reload runs in the first build's process: no prefix")
        try:
            return _mkdocs_reload(site, checkout, python, variant, out, log,
                                  agentprose_checkout)
        finally:
            page.write_bytes(original)
            shutil.rmtree(cache / "agentprose", ignore_errors=True)
            if not had_cache and cache.exists() and not any(cache.iterdir()):
                cache.rmdir()
    try:
        first = _sphinx_build(site, checkout, python, variant, out, log, agentprose_checkout,
                              again=True)
        if first.exit_code != 0:
            return _summarize(BuildResult(variant, str(out), 0, first.exit_code, str(log)))
        page.write_bytes(original + b"\n\nA paragraph added for the rebuild.\n")
        usage = _sphinx_build(site, checkout, python, variant, out, log, agentprose_checkout,
                              again=True, prefix=prefix, timeout=timeout)
    finally:
        page.write_bytes(original)
        shutil.rmtree(scratch_of(checkouts, site) / f"doctrees-{variant}", ignore_errors=True)
    return _summarize(BuildResult(variant, str(out), round(usage.seconds, 2),
                                  usage.exit_code, str(log), round(usage.cpu_seconds, 2),
                                  round(usage.peak_rss_mib, 1)))


def _mkdocs_reload(site: Site, checkout: Path, python: Path, variant: str, out: Path,
                   log: Path, agentprose_checkout: Path) -> BuildResult:
    """What ``mkdocs serve`` does on a change, measured by bench/perf/mkdocs_driver.py in
    the site's venv: a first build, the page edited, the config loaded again and the
    site built again in the same process (MkDocs' own incremental build). The reload's
    wall and CPU (the workers' included), and the process's peak memory until then."""
    original = checkout / site.config
    generated = original.with_name(f"mkdocs.realworld-{variant}.yml")
    options = {"site_url": base_url(site), "agentprose": uses_agentprose(variant),
               "drop": list(site.drop_plugins), "overrides": site.overrides, "cache": True}
    env = _env(site, agentprose_checkout if uses_agentprose(variant) else None)
    driver = HERE.parent / "perf" / "mkdocs_driver.py"
    try:
        subprocess.run([str(python), str(HERE / "mkdocs_config.py"), str(original),
                        str(generated), json.dumps(options)], check=True, env=env)
        command = [str(python), str(driver), str(generated), str(out),
                   str(checkout / site.rebuild_page)]
        usage = _run(command, cwd=original.parent, env=env, log=log, timeout=site.timeout)
    finally:
        generated.unlink(missing_ok=True)
    lines = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    if usage.exit_code != 0 or not lines:
        return _summarize(BuildResult(variant, str(out), 0, usage.exit_code or 1, str(log)))
    reload = json.loads(lines[-1])["reload"]
    return _summarize(BuildResult(variant, str(out), round(reload["wall"], 2), 0, str(log),
                                  round(reload["cpu"], 2), round(reload["rss"] / 1024, 1)))
