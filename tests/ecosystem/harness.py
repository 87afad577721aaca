"""Build a small site beside a neighbour (a MkDocs plugin, a Sphinx extension) bare and
with agentprose, then hold the agentprose build to what every build must give:

- the agent outputs check clean (tests/outputs.py: views, index, llms.txt, discovery);
- no internal placeholder in any output, every link between views to a view, every
  fragment it links present in the target view;
- ``modified`` a commit time of the site's history;
- no agentprose warning, and a strict build (``--strict``, ``-W``) that passes where
  the bare one does;
- the same bytes from a second build.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import yaml

from agentprose_core.convert.slugs import view_targets
from agentprose_core.urls import page_key

from ..outputs import SiteOutputs, check_site
from ..sites import commit_all, git, snapshot, write_tree

if TYPE_CHECKING:
    from collections.abc import Sequence

FIRST, SECOND = "2024-01-02T03:04:05+00:00", "2025-03-04T05:06:07+00:00"
COMMIT_TIMES = {"2024-01-02T03:04:05Z", "2025-03-04T05:06:07Z"}


@dataclass
class Build:
    """One build's exit code and log."""

    returncode: int
    log: str

    def agentprose_lines(self) -> list[str]:
        return [line for line in self.log.splitlines() if "agentprose" in line.lower()
                and ("WARNING" in line or "ERROR" in line or "warning" in line)]


def run(command: Sequence[str], cwd: Path) -> Build:
    done = subprocess.run([sys.executable, "-m", *command], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=600)
    return Build(done.returncode, done.stdout + done.stderr)


def make_repo(root: Path, files: dict[str, str], later: dict[str, str]) -> None:
    """The site's files in two commits: ``later`` changes some in the second."""
    write_tree(root, files)
    commit_all(root, "first", FIRST)
    write_tree(root, later)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "second", when=SECOND)


_LINK = re.compile(r"\]\((<[^>\n]*>|[^)\s]+)\)|href=\"([^\"]*)\"")


def check_invariants(site: Path, base: str, *, expect_pages: int | None = None) -> SiteOutputs:
    """The outputs' checks, the placeholders, links and fragments, and the dates."""
    outputs = check_site(site, base, expect_pages=expect_pages)
    for name, data in snapshot(site).items():
        assert b"AgPr" not in data, f"an internal placeholder in {name}"
    bodies = {base + path: body for path, (_, body) in outputs.views.items()}
    with_views = {page_key(str(post["url"])) for post in outputs.index["posts"]}  # type: ignore[union-attr]
    for path, (front, body) in outputs.views.items():
        assert front["modified"] in COMMIT_TIMES, (path, front["modified"])
        for match in _LINK.finditer(body):
            url = (match.group(1) or match.group(2) or "").strip("<>")
            if not url.startswith(base):
                continue
            address, _, fragment = url.partition("#")
            if address.endswith(".md"):
                assert address in bodies, f"{path} links {url}: no such view"
                if fragment:
                    targets = view_targets(bodies[address])
                    assert unquote(fragment) in targets, f"{path} links {url}: no such anchor"
            else:  # a file, or a page without a view (viewcode's, an index)
                assert page_key(address) not in with_views, \
                    f"{path} links the page {url}, not its view"
    return outputs


def same_bytes_again(site: Path, build: callable) -> None:  # type: ignore[valid-type]
    """A second build into a fresh folder gives the same agent outputs."""
    first = snapshot(site)
    shutil.rmtree(site)
    again = build()
    assert again.returncode == 0, again.log
    second = snapshot(site)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"different bytes on a second build: {differ}"


def docs_recipe(page: str, marker: str) -> dict[str, object]:
    """The YAML block of ``docs/<page>`` that holds ``marker``, loaded: a recipe the docs
    show, for a test to build as written."""
    text = (Path(__file__).parents[2] / "docs" / page).read_text(encoding="utf-8")
    block = next(found for found in re.findall(r"```yaml\n(.*?)```", text, re.S)
                 if marker in found)
    loaded: dict[str, object] = yaml.safe_load(block)
    return loaded
