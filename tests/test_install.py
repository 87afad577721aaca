"""The README's install and quick start, word for word, in a clean venv: what a new
user types first (issue 40: `pip install agentprose` failed, the package is not
published)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent
FENCE = re.compile(r"^```(sh|yaml|python)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _use_it() -> list[tuple[str, str]]:
    """The fenced blocks of the README's "Use it" section, in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use it", 1)[1].split("\n## ", 1)[0]
    return [(match.group(1), match.group(2)) for match in FENCE.finditer(section)]


def _run(command: str, cwd: Path, venv: Path) -> None:
    words = shlex.split(command.split("#", 1)[0])
    words[0] = str(venv / "bin" / words[0])  # the venv's own pip, mkdocs, agentprose
    done = subprocess.run(words, cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=900)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"


def test_the_readme_install_and_quick_start_work_as_written(tmp_path: Path) -> None:
    blocks = _use_it()
    install, mkdocs_yml, conf_py, build = (body for _, body in blocks[:4])
    assert [kind for kind, _ in blocks[:4]] == ["sh", "yaml", "python", "sh"]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    clone = tmp_path / "agentprose"  # a clone: the tracked files only
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    for line in install.strip().splitlines():
        _run(line, clone, venv)
    _run("pip install --quiet mkdocs sphinx", tmp_path, venv)  # the user's own tools

    project = tmp_path / "mkdocs-project"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text("# Tide pools\n\nWater between rocks.\n")
    config = {"site_name": "Shore", "site_url": "https://example.com/docs/",
              **yaml.safe_load(mkdocs_yml)}
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config))
    _run("mkdocs build -q", project, venv)
    assert "# Tide pools" in (project / "site" / "index.md").read_text(encoding="utf-8")

    sphinx = tmp_path / "sphinx-project"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text(f"project = 'Shore'\n{conf_py}\n"
                                    "html_baseurl = 'https://example.com/docs/'\n")
    (sphinx / "index.rst").write_text("Tide pools\n==========\n\nWater between rocks.\n")
    _run("sphinx-build -q -b html . _build", sphinx, venv)
    assert (sphinx / "_build" / "llms.txt").is_file()

    built = tmp_path / "plain"
    (built / "site").mkdir(parents=True)
    (built / "site" / "index.html").write_text(
        "<html><head><title>Shore</title></head><body><main><h1>Tide pools</h1>"
        "<p>Water between rocks.</p></main></body></html>")
    for line in build.strip().splitlines():
        _run(line, built, venv)
    assert (built / "site" / "agentprose.json").is_file()


def test_no_page_installs_a_package_that_is_not_published() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        found = re.findall(r"pip install ['\"]?agentprose\b", text)
        assert not found, f"{page.name}: install from a clone until agentprose is on PyPI"
