"""Code languages: their names, and where a theme that drops them still tells.

A fence carries a language whenever one is knowable: from the block's classes, from
the page's Markdown source, from the file a block shows (``title="x.py"``, a
``Source code in x.py`` summary, a Sphinx caption naming a file), or from the build
tool's default (Sphinx writes ``highlight-default`` for a project that leaves
``highlight_language`` as it is, and Python is what it then highlights; a project
that sets it gets its language written in the class). A fence carries a language or
nothing: never an info string made of attributes.
"""

from __future__ import annotations

import re

__all__ = ["clean_language", "language_of_file"]

_NO_LANGUAGE = frozenset({"none", "text", "plain", "plaintext", "nohighlight", "default",
                          "txt"})
_ALIASES = {
    "python3": "python", "py": "python", "py3": "python", "sh": "bash", "shell": "bash",
    "ipython3": "ipython", "yml": "yaml", "js": "javascript", "ts": "typescript",
    "shell-session": "console",
}
_NAME = re.compile(r"[a-z0-9][\w+#.-]*")

_EXTENSIONS = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript",
    "ts": "typescript", "tsx": "tsx", "jsx": "jsx", "sh": "bash", "bash": "bash",
    "zsh": "zsh", "yml": "yaml", "yaml": "yaml", "toml": "toml", "json": "json",
    "html": "html", "htm": "html", "css": "css", "scss": "scss", "md": "markdown",
    "rst": "rst", "ini": "ini", "cfg": "ini", "rs": "rust", "go": "go", "java": "java",
    "kt": "kotlin", "c": "c", "h": "c", "cpp": "cpp", "cc": "cpp", "hpp": "cpp",
    "rb": "ruby", "php": "php", "sql": "sql", "xml": "xml", "svg": "xml", "lua": "lua",
    "r": "r", "jl": "julia", "swift": "swift", "cs": "csharp", "ps1": "powershell",
    "proto": "protobuf", "graphql": "graphql", "tf": "hcl", "vue": "vue", "j2": "jinja",
    "jinja": "jinja", "jinja2": "jinja",
}
_FILE_NAMES = {"dockerfile": "dockerfile", "makefile": "makefile", "justfile": "just",
               "conf.py": "python", "mkdocs.yml": "yaml", "pyproject.toml": "toml"}
_FILE = re.compile(r"(?:^|[\s/\\(\"'`])([\w.-]+)(?=$|[\s)\"'`:,])")


def clean_language(name: str | None) -> str | None:
    """A language name as fences carry it (``py`` -> ``python``), or None for none or for
    text that is not a language name (``title="x"``, ``{.python}``)."""
    if not name:
        return None
    name = name.strip().lower()
    if name in _NO_LANGUAGE or not _NAME.fullmatch(name):
        return None
    return _ALIASES.get(name, name)


def language_of_file(text: str) -> str | None:
    """The language of the file a caption or title names (``src/app.py``), if any."""
    for match in _FILE.finditer(text.strip()):
        name = match.group(1).lower()
        if name in _FILE_NAMES:
            return _FILE_NAMES[name]
        stem, dot, extension = name.rpartition(".")
        if dot and stem and extension in _EXTENSIONS:
            return _EXTENSIONS[extension]
    return None
