"""Reading order and sections from the toctree, as Sphinx's environment holds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sphinx import addnodes

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

__all__ = ["ReadingOrder", "reading_order"]


@dataclass
class ReadingOrder:
    """Documents in toctree order, each with its section path; orphans last."""

    docs: list[str] = field(default_factory=list)
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    in_toctree: set[str] = field(default_factory=set)


def _title(env: BuildEnvironment, docname: str) -> str:
    title = env.titles.get(docname)
    return title.astext().strip() if title is not None else docname


def _root_entries(env: BuildEnvironment, root: str) -> list[tuple[str, tuple[str, ...]]]:
    """The root document's toctree entries, with the toctree's caption as their section."""
    try:
        doctree = env.get_doctree(root)
    except (FileNotFoundError, OSError):
        return [(child, ()) for child in env.toctree_includes.get(root, [])]
    entries: list[tuple[str, tuple[str, ...]]] = []
    for toctree in doctree.findall(addnodes.toctree):
        caption = str(toctree.get("caption") or "").strip()
        listed: list[tuple[str | None, str]] = toctree.get("entries", [])
        for _, ref in listed:
            if ref in env.found_docs:
                entries.append((ref, (caption,) if caption else ()))
    return entries


def reading_order(env: BuildEnvironment, root: str) -> ReadingOrder:
    """Depth-first toctree order from ``root``; documents outside it come last, sorted."""
    order = ReadingOrder()

    def visit(docname: str, section: tuple[str, ...]) -> None:
        if docname in order.sections or docname not in env.found_docs:
            return
        order.docs.append(docname)
        order.sections[docname] = section
        order.in_toctree.add(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child, (*section, _title(env, docname)))

    if root in env.found_docs:
        order.docs.append(root)
        order.sections[root] = ()
        order.in_toctree.add(root)
        for child, section in _root_entries(env, root):
            visit(child, section)
    for docname in sorted(env.found_docs - set(order.sections)):
        order.docs.append(docname)
        order.sections[docname] = ()
    return order
