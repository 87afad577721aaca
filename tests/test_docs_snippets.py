"""Every setup snippet in docs/ runs: mkdocs.yml blocks build a site, conf.py blocks build
a Sphinx project, `agentprose build` commands run, and each result passes the checks."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from agentprose_core.cli import main

from .outputs import check_site
from .sites import write_tree

DOCS = Path(__file__).parent.parent / "docs"
FENCE = re.compile(r"^( *)```(yaml|python|sh)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)
PAGES = {"docs/index.md": "# Home\n\nHello.\n", "docs/guide.md": "# Guide\n\nSteps.\n",
         "docs/drafts/wip.md": "# WIP\n\nNot yet.\n"}


def _snippets(kind: str, needle: str) -> list[tuple[str, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            body = textwrap.dedent("\n".join(
                line[len(match.group(1)):] for line in match.group(3).splitlines()))
            if match.group(2) == kind and needle in body:
                line = text[: match.start()].count("\n") + 1
                found.append((f"{page.name}:{line}", body))
    return found


def _hook_source() -> str:
    return next(body for _, body in _snippets("python", "def drop_banners"))


# Recipes with plugins of the ecosystem matrix (mkdocs-static-i18n) are built by
# tests/ecosystem/, where they are installed.
YAML = [s for s in _snippets("yaml", "plugins:")
        if "- i18n:" not in s[1] and "- mike" not in s[1]]
API = _snippets("python", "from agentprose_core import")
PYTHON = [s for s in _snippets("python", "") if ("extensions" in s[1] or "agentprose_" in s[1])
          and s not in API]
SHELL = _snippets("sh", "agentprose build")


@pytest.mark.parametrize("snippet", [b for _, b in YAML], ids=[i for i, _ in YAML])
def test_mkdocs_snippet_builds(tmp_path: Path, snippet: str) -> None:
    config = {"site_name": "Snippet", "site_url": "https://example.com/docs/"}
    config.update(yaml.safe_load(snippet))
    write_tree(tmp_path, {**PAGES, "mkdocs.yml": yaml.safe_dump(config),
                          "agent_hooks.py": _hook_source()})
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    site_url = str(config["site_url"]).rstrip("/") + "/"
    served = _language_url(config) or site_url  # the languages option says where
    check_site(tmp_path / "site", served, canonical_base=site_url if served != site_url else None)


def _language_url(config: dict[str, object]) -> str | None:
    """The URL a recipe's ``languages`` mapping gives the build's language (English)."""
    for plugin in config.get("plugins", []):  # type: ignore[attr-defined]
        languages = plugin.get("agentprose", {}).get("languages") \
            if isinstance(plugin, dict) else None
        if isinstance(languages, dict):
            return str(languages["en"])
    return None


@pytest.mark.parametrize("snippet", [b for _, b in PYTHON], ids=[i for i, _ in PYTHON])
def test_sphinx_snippet_builds(tmp_path: Path, snippet: str) -> None:
    conf = "project = 'Snippet'\n" + snippet
    if "extensions" not in snippet:
        conf += "\nextensions = ['sphinx_agentprose']\n"
    if "html_baseurl" not in snippet:
        conf += "\nhtml_baseurl = 'https://example.com/docs/'\n"
    write_tree(tmp_path, {"conf.py": conf, "index.rst": "Home\n====\n\n.. toctree::\n\n   guide\n",
                          "guide.rst": "Guide\n=====\n\nSteps.\n"})
    env, served = dict(os.environ), "https://example.com/docs/"
    if "on Read the Docs" in snippet:  # a recipe for Read the Docs: built in its environment
        served = "https://example.readthedocs.io/en/latest/"
        env.update(READTHEDOCS="True", READTHEDOCS_CANONICAL_URL=served,
                   READTHEDOCS_LANGUAGE="en", READTHEDOCS_VERSION_NAME="latest")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", ".", "_build"],
                          cwd=tmp_path, capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    canonical = "https://example.com/docs/" if served != "https://example.com/docs/" else None
    check_site(tmp_path / "_build", served, canonical_base=canonical)


@pytest.mark.parametrize("snippet", [b for _, b in SHELL], ids=[i for i, _ in SHELL])
def test_cli_snippet_runs(tmp_path: Path, snippet: str, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"  # a recipe may name a folder beside the project: in tmp_path
    (work / "docs").mkdir(parents=True)
    monkeypatch.chdir(work)
    built = []
    for line in snippet.replace("\\\n", " ").splitlines():
        if line.startswith("agentprose build"):
            args = shlex.split(line)[1:]
            site = work / args[1]
            if not site.exists():  # the site the recipe's build tool made
                shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", site)
            assert main(args) == 0
            built.append((site, args[args.index("--base-url") + 1]))
    assert built
    for site, base in built:
        check_site(site, base)


@pytest.mark.parametrize("snippet", [b for _, b in API], ids=[i for i, _ in API])
def test_python_api_snippet_runs(tmp_path: Path, snippet: str,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", tmp_path / "site")
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "python-api.md", "exec"), {})  # our own docs: the code they show
    check_site(tmp_path / "site", "https://example.com/docs/")


def test_every_setup_page_has_snippets() -> None:
    assert len(YAML) >= 4
    assert len(PYTHON) >= 2
    assert len(SHELL) >= 2
    assert len(API) >= 1
