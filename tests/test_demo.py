"""`make demo`'s script: the first command a new user runs."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).parent.parent / "examples" / "demo.py"


def test_a_taken_port_is_one_line_that_names_the_fix() -> None:
    # issue 40: port 8000 taken gave a 15-line traceback, and DEMO_PORT was undocumented
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = subprocess.run([sys.executable, str(DEMO)], capture_output=True, text=True,
                              check=False, env={"DEMO_PORT": port, "PATH": "/usr/bin:/bin"},
                              timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert f"port {port} is in use" in done.stderr
    assert "DEMO_PORT=" in done.stderr
    assert "Traceback" not in done.stderr
    readme = (DEMO.parent.parent / "README.md").read_text(encoding="utf-8")
    assert "DEMO_PORT=" in readme.split("## Use it")[0]  # on the first screen


def test_every_page_names_the_python_the_package_requires() -> None:
    # issue 40: docs/contributing.md said Python 3.10; pyproject requires 3.11
    import re

    root = DEMO.parent.parent
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    required = re.search(r'requires-python = ">=(3\.\d+)"', pyproject)
    assert required is not None
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        named = re.findall(r"Python (?:≥ )?(3\.\d+)(?: or later|\+)", text)
        assert all(version == required.group(1) for version in named), (page.name, named)
