"""`make demo`: build this project's docs with the MkDocs plugin, an example Sphinx
project with the extension and an example static site with `agentprose build`, then
show what agents get."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "demo"
PLAIN_SOURCE = ROOT / "examples" / "plain-site"


PORT = os.environ.get("DEMO_PORT", "8000")
SERVE = os.environ.get("DEMO_SERVE", "1") != "0"


def run(*command: str) -> None:
    print("$", " ".join(command))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if SERVE:  # canonical URLs on the local server, so `agentprose check` can follow them
        env["AGENTPROSE_SITE_URL"] = f"http://127.0.0.1:{PORT}/"
    subprocess.run([sys.executable, "-m", *command], cwd=ROOT, env=env, check=True)


def show_outputs(site: Path) -> None:
    print(f"\nAgent outputs in {site.relative_to(ROOT)}/:")
    for path in sorted(site.rglob("*")):
        parts = path.relative_to(site).parts
        hidden = any(part.startswith((".", "_")) for part in parts) or parts[0] == "search"
        if path.suffix in (".md", ".json", ".txt") and not hidden:
            print(f"  {path.relative_to(site)}  ({path.stat().st_size:,} bytes)")


def port_taken(port: str) -> bool:
    """True when something listens on the port already (asked before building: the
    views' canonical URLs name it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", int(port)))
        except OSError:
            return True
    return False


def main() -> int:
    if SERVE and port_taken(PORT):
        print(f"make demo: port {PORT} is in use. Run `DEMO_PORT=8001 make demo` (any free "
              "port), or `DEMO_SERVE=0 make demo` to build without serving.", file=sys.stderr)
        return 1
    shutil.rmtree(OUT, ignore_errors=True)
    docs_site = OUT / "docs-site"
    run("mkdocs", "build", "-q", "-f", "mkdocs.yml", "-d", str(docs_site))
    show_outputs(docs_site)

    sphinx_site = OUT / "sphinx-site"
    print()
    run("sphinx.cmd.build", "-q", "-b", "html", "examples/sphinx-site", str(sphinx_site))
    show_outputs(sphinx_site)

    plain_site = OUT / "plain-site"
    shutil.copytree(PLAIN_SOURCE, plain_site, ignore=shutil.ignore_patterns("README.md"))
    print()
    run("agentprose_core.cli", "build", str(plain_site.relative_to(ROOT)),
        "--base-url", "https://coast.example/")
    show_outputs(plain_site)

    view = docs_site / "mkdocs.md"
    print(f"\n--- {view.relative_to(ROOT)} (first lines) ---")
    print("\n".join(view.read_text(encoding="utf-8").splitlines()[:16]))
    print(f"\n--- {(docs_site / 'llms.txt').relative_to(ROOT)} ---")
    print((docs_site / "llms.txt").read_text(encoding="utf-8"))
    if not SERVE:
        return 0
    url = f"http://127.0.0.1:{PORT}"
    print("Serving the docs site. In another terminal, try:\n")
    print(f"  curl -H 'Accept: text/markdown' {url}/mkdocs/")
    print(f"  curl -i {url}/mkdocs.md")
    print(f"  .venv/bin/agentprose check {url}/\n")
    print("Stop with Ctrl+C.")
    with contextlib.suppress(KeyboardInterrupt):
        run("agentprose_core.cli", "serve", str(docs_site), "--port", PORT, "--quiet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
