"""What each measured build turns on, per kind: bare, agentprose (both engines), rivals."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_KINDS", "KINDS", "Variant", "is_mkdocs", "variants_for"]

# sphinx-basic: the Sphinx site with Sphinx's basic theme, whose pages do not each hold
# the whole site's navigation as Furo's do, so that a 5,000-page build takes minutes,
# not hours: for how agentprose's own time grows with the page count.
# mkdocs-plain: the MkDocs site with a theme of the bench's own that writes the page's
# title and content only. Material renders the whole nav into every page (and with
# navigation.prune still walks it): a 3,000-page bare build took 174 s, a 10,000-page one
# was past 14 minutes when stopped.
KINDS = ("mkdocs", "sphinx", "sphinx-basic", "mkdocs-plain")
DEFAULT_KINDS = ("mkdocs", "sphinx")


def is_mkdocs(kind: str) -> bool:
    """A MkDocs kind (built by the serve driver), whatever its theme."""
    return kind.startswith("mkdocs")


@dataclass(frozen=True)
class Variant:
    name: str
    package: str  # the pip package it needs beyond the build tools ("" = none)
    mkdocs: tuple[str, ...] = ()  # plugins: entries after "- search"
    sphinx: str = ""  # conf.py lines after the shared ones
    expects: tuple[str, ...] = ()  # files the build must write at the site root
    note: str = ""
    optional: bool = False  # runs only when named in --variants

    @property
    def competitor(self) -> bool:
        """A rival plugin (its own pip package), not the bare build or agentprose."""
        return self.package not in {"", "agentprose"}


_VARIANTS = (
    Variant("bare", ""),
    Variant("agentprose", "agentprose",
            mkdocs=("- agentprose",),
            sphinx='extensions.append("sphinx_agentprose")\n',
            expects=("llms.txt", "llms-full.txt", "agentprose.json")),
    Variant("agentprose-markdownify", "agentprose",
            mkdocs=("- agentprose:", "    converter: markdownify"),
            sphinx='extensions.append("sphinx_agentprose")\n'
                   'agentprose_converter = "markdownify"\n',
            expects=("llms.txt", "llms-full.txt", "agentprose.json")),
    # The default engine converting in the build tool's own process, not in workers.
    Variant("agentprose-inprocess", "agentprose",
            mkdocs=("- agentprose:", "    workers: false"),
            sphinx='extensions.append("sphinx_agentprose")\nagentprose_workers = False\n',
            expects=("llms.txt", "llms-full.txt", "agentprose.json"),
            note="workers: false", optional=True),
    # Per-page Markdown for every page (one section whose glob takes all of them) and
    # llms-full.txt, as its README configures it (sections + full_output).
    Variant("mkdocs-llmstxt", "mkdocs-llmstxt",
            mkdocs=("- llmstxt:", "    full_output: llms-full.txt", "    sections:",
                    "      Docs:", '        - "*.md"'),
            expects=("llms.txt", "llms-full.txt")),
    # Its defaults: a second sphinx-build (markdown builder) started in the background
    # when the HTML build starts, merged into llms.txt / llms-full.txt at the end.
    Variant("sphinx-llm", "sphinx-llm",
            sphinx='extensions.append("sphinx_llm.txt")\nllms_txt_full_build = True\n',
            expects=("llms.txt", "llms-full.txt"),
            note="spawns a second sphinx-build (its default llms_txt_build_parallel)"),
)


def variants_for(kind: str, names: list[str] | None = None) -> list[Variant]:
    """The variants that apply to ``kind`` (``bare`` always first), filtered by name."""
    found = [v for v in _VARIANTS if v.name == "bare"
             or (v.mkdocs if is_mkdocs(kind) else v.sphinx)]
    if names:
        return [v for v in found if v.name == "bare" or v.name in names]
    return [v for v in found if not v.optional]
