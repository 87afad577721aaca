"""MkDocs hook: the options reference of docs/configuration.md, generated from the core
``Settings`` so that it cannot drift from the code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from agentprose_core.settings import Option, options

sys.path.insert(0, str(Path(__file__).resolve().parent))  # MkDocs 1.5 does not
from generated import refreshed, write  # the sibling module

BLOCK = "agentprose-options"
PAGE = "configuration.md"
_EXAMPLES: dict[str, Any] = {
    "enabled": False, "converter": "markdownify", "view_layout": "directory",
    "content_selector": "main .content", "exclude": ["drafts/*"], "cache": False, "workers": False,
    "index": True, "index_markdown": False, "index_max_bytes": 20_000_000, "llms_txt": True,
    "llms_full_txt": True, "llms_full_max_bytes": 5_000_000, "discovery_links": True,
    "json_ld": False, "article_type": "Article", "host": "netlify",
    "site_description": "Guides for the Coast API.", "preprocess": "agent_hooks.py:tidy",
    "sections": {"Guides": ["guide/*.md"]},
    "languages": {"en": "https://docs.example.com/en/", "fr": "https://docs.example.com/fr/"},
    "mcp_endpoint": "/mcp",
    "phrases": {"fi": {"site_index": "Sivuston hakemisto:"}},
    "page_action_links": {"Perplexity": "https://www.perplexity.ai/search?q={prompt}"},
    "quiet": ["no-git"],
}


def _type(option: Option) -> str:
    if option.choices:
        return " \\| ".join(f"`{choice}`" for choice in option.choices)
    return f"`{option.type}`".replace("|", "\\|")


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    if isinstance(value, str) and (value.endswith(":") or ": " in value
                                   or any(mark in value for mark in "{}[],?#")):
        return "'" + value.replace("'", "''") + "'"  # or YAML reads a mapping or a list
    return str(value)


def _default(value: Any) -> str:
    if value in ((), None):
        return "—"
    return f"`{_yaml(value)}`"


def example(option: Option) -> Any:
    """The value the docs show for ``option``: the table's above, else, for a switch,
    the other position. Every option has one (a test builds them all)."""
    if option.name in _EXAMPLES:
        return _EXAMPLES[option.name]
    if isinstance(option.default, bool):
        return not option.default
    raise KeyError(f"docs/hooks/options.py: give the option {option.name!r} an example")


def _section(option: Option) -> str:
    value = example(option)
    return "\n".join([
        f"### `{option.name}`",
        "",
        option.help,
        "",
        f"- type: {_type(option)}; default: {_default(option.default)}",
        f"- MkDocs: `{option.name}: {_yaml(value)}` under `plugins: - agentprose:`",
        f"- Sphinx: `agentprose_{option.name} = {value!r}` in `conf.py`",
        "",
    ])


def options_table() -> str:
    rows = ["| option | default | what it does |", "|---|---|---|"]
    rows += [f"| `{o.name}` | {_default(o.default)} | {o.help} |" for o in options()]
    return "\n".join(rows) + "\n\n" + "\n".join(_section(o) for o in options())


def on_page_markdown(markdown: str, **_: Any) -> str:
    return refreshed(markdown, BLOCK, options_table())


def on_post_build(config: Any, **_: Any) -> None:
    """Publish the index's JSON Schema at the stable URL its ``$id`` names."""
    from pathlib import Path

    from agentprose_core.render.index import SCHEMA_NAME, schema_path

    target = Path(config["site_dir"]) / "schema" / SCHEMA_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(schema_path().read_bytes())


if __name__ == "__main__":
    changed = write(PAGE, BLOCK, options_table())
    sys.stdout.write(f"docs/{PAGE}: {'written again' if changed else 'current'}\n")
