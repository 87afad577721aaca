"""`make demo`: run `agentprose build` on the example site and show what agents get."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "examples" / "plain-site"
OUTPUT = ROOT / "build" / "demo" / "plain-site"
BASE_URL = "https://coast.example/"


def main() -> int:
    shutil.rmtree(OUTPUT, ignore_errors=True)
    shutil.copytree(SOURCE, OUTPUT, ignore=shutil.ignore_patterns("README.md"))
    command = [sys.executable, "-m", "agentprose_core.cli", "build", str(OUTPUT),
               "--base-url", BASE_URL]
    print("$", " ".join(command[2:]).replace(str(ROOT) + "/", ""))
    done = subprocess.run(command, check=False)
    if done.returncode:
        return done.returncode
    print(f"\nAgent outputs are in {OUTPUT.relative_to(ROOT)}/:")
    for path in sorted(OUTPUT.rglob("*")):
        if path.suffix in (".md", ".json", ".txt"):
            print(f"  {path.relative_to(OUTPUT)}  ({path.stat().st_size:,} bytes)")
    view = OUTPUT / "tide-pools.md"
    print(f"\n--- {view.relative_to(ROOT)} ---")
    print(view.read_text(encoding="utf-8"))
    print(f"--- {(OUTPUT / 'llms.txt').relative_to(ROOT)} ---")
    print((OUTPUT / "llms.txt").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
