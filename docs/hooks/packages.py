"""MkDocs hook: the package map of docs/contributing.md, generated from the first
sentence of each module's and package's docstring, so that it lists what is there."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # MkDocs 1.5 does not
from generated import DOCS, refreshed, write  # the sibling module

BLOCK = "agentprose-packages"
PAGE = "contributing.md"
ROOT = DOCS.parent
_ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc):`~?\.?([^`]+)`")
_SENTENCE_END = re.compile(r"(?<=[.:!?])\s")


def _summary(path: Path) -> str:
    """The first sentence of the module's docstring, as plain text on one line."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraph = " ".join(docstring.split("\n\n", 1)[0].split())
    paragraph = _ROLE.sub(r"\1", paragraph).replace("``", "`")
    return _SENTENCE_END.split(paragraph, 1)[0] if ". " in paragraph else paragraph


def _entry(name: str, path: Path, width: int, indent: str = "  ") -> str:
    return f"{indent}{name:<{width}} {_summary(path)}"


def package_map() -> str:
    core = ROOT / "agentprose_core"
    lines = ["```text", "agentprose_core/"]
    lines += [_entry(path.name, path, 15) for path in sorted(core.glob("*.py"))]
    lines += [_entry(f"{folder.name}/", folder / "__init__.py", 15)
              for folder in sorted(core.iterdir()) if (folder / "__init__.py").is_file()]
    lines += [_entry(f"{name}/", ROOT / name / "__init__.py", 20, indent="")
              for name in ("mkdocs_agentprose", "sphinx_agentprose")]
    return "\n".join([*lines, "```"])


def on_page_markdown(markdown: str, **_: Any) -> str:
    return refreshed(markdown, BLOCK, package_map())


if __name__ == "__main__":
    changed = write(PAGE, BLOCK, package_map())
    sys.stdout.write(f"docs/{PAGE}: {'written again' if changed else 'current'}\n")
