"""One venv per site under ``<checkouts>/.venvs/<name>``: the site's doc requirements,
agentprose's runtime dependencies, and a shim that registers the MkDocs entry point.

agentprose itself is not installed: builds put the checkout being measured first on
``PYTHONPATH``, so one venv serves any checkout. The shim is a ``.dist-info`` folder
declaring ``mkdocs.plugins: agentprose = mkdocs_agentprose.plugin:AgentprosePlugin``.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from sites import Site

RUNTIME_DEPS = (
    "html-to-markdown>=3.19,<4", "lxml>=5", "cssselect>=1.2", "markdownify>=1.1",
    "beautifulsoup4>=4.12", "pyyaml>=6", "markdown-it-py>=3",
)
_SHIM = "agentprose_realworld_shim-0.dist-info"
_STAMP = ".realworld-installed"


def venv_dir(checkouts: Path, site: Site) -> Path:
    return checkouts / ".venvs" / site.name


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def _requirements(site: Site, checkout: Path) -> list[str]:
    return [part.replace("{checkout}", str(checkout)) for part in site.requirements]


def _digest(site: Site) -> str:
    text = "\n".join((*site.requirements, *RUNTIME_DEPS, _SHIM))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _site_packages(venv: Path) -> Path:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    found = sorted((venv / "lib").glob("python3*/site-packages"))
    return found[0] if found else venv / "lib" / version / "site-packages"


def _write_shim(venv: Path) -> None:
    shim = _site_packages(venv) / _SHIM
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "METADATA").write_text(
        # License and Classifier: sites' credits pages read them from every distribution
        "Metadata-Version: 2.1\nName: agentprose-realworld-shim\nVersion: 0\nLicense: MIT\n"
        "Classifier: License :: OSI Approved :: MIT License\n", encoding="utf-8")
    (shim / "entry_points.txt").write_text(
        "[mkdocs.plugins]\nagentprose = mkdocs_agentprose.plugin:AgentprosePlugin\n",
        encoding="utf-8")
    (shim / "RECORD").write_text("", encoding="utf-8")


def ensure_venv(checkouts: Path, site: Site, log: Path) -> Path:
    """Create (once) and return the site's venv; pip's output goes to ``log``."""
    venv = venv_dir(checkouts, site)
    stamp = venv / _STAMP
    if stamp.exists() and stamp.read_text(encoding="utf-8") == _digest(site):
        return venv
    checkout = checkouts / site.name
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8") as out:
        if not python_of(venv).exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, stdout=out,
                           stderr=subprocess.STDOUT)
        pip = [str(python_of(venv)), "-m", "pip", "install", "--quiet",
               "--disable-pip-version-check"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True, stdout=out,
                       stderr=subprocess.STDOUT)
        subprocess.run([*pip, *_requirements(site, checkout), *RUNTIME_DEPS], check=True,
                       stdout=out, stderr=subprocess.STDOUT, cwd=checkout)
    _write_shim(venv)
    stamp.write_text(_digest(site), encoding="utf-8")
    return venv
