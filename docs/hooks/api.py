"""MkDocs hook: the reference of docs/python-api.md, generated from the facade
(``agentprose_core.__all__``): each name's signature and the first paragraph of its
docstring, so that the page lists exactly what the package exports."""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # MkDocs 1.5 does not
from generated import refreshed, write  # the sibling module

BLOCK = "agentprose-api"
PAGE = "python-api.md"
_ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc):`~?\.?([^`]+)`")


def _paragraph(thing: object) -> str:
    """The first paragraph of ``thing``'s own docstring, on one line, roles as code."""
    docstring = thing.__doc__ if isinstance(thing, type) or callable(thing) else None
    first = " ".join(inspect.cleandoc(docstring or "").split("\n\n", 1)[0].split())
    return _ROLE.sub(lambda found: f"`{found.group(1).rsplit('.', 1)[-1]}`",
                     first).replace("``", "`")


def _parameter(parameter: inspect.Parameter) -> str:
    text = parameter.name
    if parameter.kind is parameter.VAR_POSITIONAL:
        text = f"*{text}"
    elif parameter.kind is parameter.VAR_KEYWORD:
        text = f"**{text}"
    if parameter.annotation is not parameter.empty:
        text += f": {parameter.annotation}"
    if parameter.default is not parameter.empty:
        shown = repr(parameter.default)
        text += f" = {shown}" if len(shown) < 30 and not shown.startswith("<") else " = …"
    return text


def _signature(function: Any, *, drop_self: bool = False) -> str:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return "(…)"
    parts: list[str] = []
    keyword_only_marked = False
    for parameter in signature.parameters.values():
        if drop_self and parameter.name == "self":
            continue
        if parameter.kind is parameter.KEYWORD_ONLY and not keyword_only_marked:
            parts.append("*")
            keyword_only_marked = True
        parts.append(_parameter(parameter))
    returns = signature.return_annotation
    arrow = "" if returns in (signature.empty, None, "None") else f" -> {returns}"
    return f"({', '.join(parts)}){arrow}"


def _methods(cls: type) -> list[str]:
    lines = []
    for name, member in vars(cls).items():
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        lines.append(f"- `{name}{_signature(member, drop_self=True)}`: {_paragraph(member)}")
    return lines


def _entry(name: str, thing: object) -> list[str]:
    if isinstance(thing, str):  # __version__
        return [f"### `{name}`", "", "The installed version, as a string."]
    if isinstance(thing, type) and issubclass(thing, Exception):
        base = thing.__mro__[1].__name__
        return [f"### `{name}({base})`", "", _paragraph(thing)]
    if isinstance(thing, type):
        init = thing.__init__  # type: ignore[misc]
        lines = [f"### `{name}{_signature(init, drop_self=True)}`", "", _paragraph(thing)]
        methods = _methods(thing)
        return [*lines, "", *methods] if methods else lines
    return [f"### `{name}{_signature(thing)}`", "", _paragraph(thing)]


def api_reference() -> str:
    import agentprose_core

    lines: list[str] = []
    for name in sorted(agentprose_core.__all__, key=lambda n: (n.startswith("_"), n.lower())):
        lines += [*_entry(name, getattr(agentprose_core, name)), ""]
    return "\n".join(lines).rstrip()


def on_page_markdown(markdown: str, **_: Any) -> str:
    return refreshed(markdown, BLOCK, api_reference())


if __name__ == "__main__":
    changed = write(PAGE, BLOCK, api_reference())
    sys.stdout.write(f"docs/{PAGE}: {'written again' if changed else 'current'}\n")
