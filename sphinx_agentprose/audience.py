"""``.. agent-only::`` and ``.. human-only::``: blocks for one audience.

A block for agents only is written into the HTML page hidden (``<div class="agent-only"
hidden>``), so people never see it while agentprose puts it in the page's view; every
other builder (LaTeX, EPUB, man, text) leaves it out, since people read those. A block
for people only is an ordinary container with the class ``human-only``, which every
builder shows and agentprose leaves out of every agent output. MyST takes both as
```` ```{agent-only} ```` fences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from agentprose_core.audience import AGENT_ONLY, HUMAN_ONLY

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

__all__ = ["add_audience_directives"]


class agent_only(nodes.General, nodes.Element):
    """A block for agents only."""


def _visit_agent_only(translator: HTML5Translator, _node: agent_only) -> None:
    translator.body.append(f'<div class="{AGENT_ONLY}" hidden>\n')


def _depart_agent_only(translator: HTML5Translator, _node: agent_only) -> None:
    translator.body.append("</div>\n")


class _AudienceDirective(SphinxDirective):
    """A directive whose content is parsed into one node for its audience."""

    has_content = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]] | None] = {}

    def block(self) -> nodes.Element:
        """The node that holds the parsed content."""
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        """Parse the content into the audience's node."""
        node = self.block()
        self.set_source_info(node)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [self.wrapped(node)]

    def wrapped(self, node: nodes.Element) -> nodes.Node:
        """What the document holds: the block itself."""
        return node


class AgentOnly(_AudienceDirective):
    """``.. agent-only::``: in the view, hidden on the page, left out of other builds."""

    def block(self) -> nodes.Element:
        """An :class:`agent_only` node."""
        return agent_only()

    def wrapped(self, node: nodes.Element) -> nodes.Node:
        """The block inside ``.. only:: html``: LaTeX, man, text and the other formats
        people read leave it out (Sphinx's own test of the builder's tags)."""
        only = addnodes.only(expr="html")
        self.set_source_info(only)
        only += node
        return only


class HumanOnly(_AudienceDirective):
    """``.. human-only::``: on the page, left out of every agent output."""

    def block(self) -> nodes.Element:
        """A container with the class ``human-only``."""
        return nodes.container(classes=[HUMAN_ONLY])


def add_audience_directives(app: Sphinx) -> None:
    """Register the two directives and how each builder writes a block for agents."""
    # override: a second Sphinx in one process (sphinx-autobuild, tests) registers them again
    app.add_node(agent_only, override=True, html=(_visit_agent_only, _depart_agent_only))
    app.add_directive(AGENT_ONLY, AgentOnly, override=True)
    app.add_directive(HUMAN_ONLY, HumanOnly, override=True)
