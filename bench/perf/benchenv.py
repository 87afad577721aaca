"""The venv every measured build runs in: the build tools, agentprose, the competitors.

Kept out of the repository's venv so the competitors never land there. Made once and
reused while ``requirements.txt`` and ``competitors.txt`` are unchanged (a stamp file
holds their hash); a change of ``pyproject.toml`` only reinstalls agentprose. The
competitors are installed under a ``pip freeze`` of the rest, so none can change a
version the others are measured with. agentprose is installed editable, and every
build gets the checkout the bench runs from first on ``PYTHONPATH``: the editable
install points at the checkout that made the venv, and a fresh clone must measure its
own code. Don't run two benches at once: a remake clears it.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["REPO", "BenchEnv", "child_env", "current_env", "ensure_env"]

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DEFAULT_VENV = Path(os.environ.get("AGENTPROSE_BENCH_VENV", "/tmp/agentprose-bench-venv"))
REQUIREMENTS = HERE / "requirements.txt"
COMPETITORS = HERE / "competitors.txt"


@dataclass
class BenchEnv:
    python: Path
    bin: Path
    competitors: dict[str, str] = field(default_factory=dict)  # name -> "" or why not
    note: str = ""

    def installed(self, package: str) -> bool:
        return self.competitors.get(package) == ""


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()
            and not line.lstrip().startswith("#")]


def _hash(*paths: Path) -> str:
    digest = hashlib.sha256(sys.version.encode())
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _pip(python: Path, *args: str) -> str:
    """``""`` when pip succeeds, else its last error line."""
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                             "--disable-pip-version-check", *args],
                            capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return ""
    lines = [line for line in result.stderr.splitlines()
             if line.strip() and "is ignored" not in line]
    errors = [line for line in lines if "ERROR" in line] or lines or ["pip failed"]
    return errors[-1].strip()[:160]


def _package(requirement: str) -> str:
    return requirement.split("==", 1)[0].split(">=", 1)[0].strip()


def _install_repo(python: Path) -> None:
    error = _pip(python, "-e", str(REPO))
    if error:
        raise RuntimeError(f"pip install -e {REPO}: {error}")


def _create(venv: Path, say: Callable[[str], None]) -> dict[str, str]:
    """Tools, then agentprose, then each competitor, none allowed to change a version."""
    say(f"creating {venv} (build tools, agentprose -e, competitors); once")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    python = venv / "bin" / "python"
    error = _pip(python, "-r", str(REQUIREMENTS))
    if error:
        raise RuntimeError(f"pip install -r {REQUIREMENTS.name}: {error}")
    _install_repo(python)
    frozen = subprocess.run([str(python), "-m", "pip", "freeze", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout
    constraints = venv / "constraints.txt"
    constraints.write_text(frozen, encoding="utf-8")
    competitors = {}
    for requirement in _lines(COMPETITORS):
        error = _pip(python, "-c", str(constraints), requirement)
        competitors[_package(requirement)] = error
        say(f"  {requirement}: {'installed' if not error else 'not installed: ' + error}")
    return competitors


def ensure_env(say: Callable[[str], None], venv: Path = DEFAULT_VENV) -> BenchEnv:
    """The bench venv: made when the tools or competitors changed, agentprose's
    dependencies brought up to date when ``pyproject.toml`` changed."""
    stamp_file = venv / "agentprose-bench.json"
    tools, project = _hash(REQUIREMENTS, COMPETITORS), _hash(REPO / "pyproject.toml")
    try:
        saved = json.loads(stamp_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    python = venv / "bin" / "python"
    if saved.get("tools") != tools or not python.exists():
        saved = {"tools": tools, "project": project, "competitors": _create(venv, say)}
    elif saved.get("project") != project:
        say("pyproject.toml changed: pip install -e again")
        _install_repo(python)
        saved["project"] = project
    stamp_file.write_text(json.dumps(saved), encoding="utf-8")
    return BenchEnv(python, venv / "bin", saved["competitors"], note=str(venv))


def current_env() -> BenchEnv:
    """This interpreter, no competitors (``--no-venv``, or when the venv can't be made)."""
    python = Path(sys.executable)
    why = "not installed: --no-venv (the bench venv is not used)"
    return BenchEnv(python, python.parent,
                    {_package(r): why for r in _lines(COMPETITORS)}, note=str(python))


def child_env() -> dict[str, str]:
    """The environment every measured build runs in: hashing fixed, bytecode written,
    this checkout's agentprose imported (ahead of the editable install's finder)."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0", PYTHONPATH=path)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env
