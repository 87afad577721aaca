"""Write a MkDocs config that ``INHERIT``s a site's own and swaps its plugins list.

Runs inside the site's venv (it needs MkDocs' YAML loader for ``!ENV``, ``!relative``
and ``INHERIT`` in the original)::

    python mkdocs_config.py ORIGINAL OUT OPTIONS_JSON

OPTIONS_JSON: ``{"site_url": …, "agentprose": bool, "drop": [names], "overrides": {…},
"cache": bool, "settings": {…}}`` (``cache``: agentprose's cache, off unless given;
``settings``: more of agentprose's options).
The new file sits next to the original, so relative paths in it keep their meaning.
Lists are replaced, not merged, by ``INHERIT``: the plugins list is written whole.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml
from mkdocs.utils.yaml import get_yaml_loader, yaml_load


def _loader() -> type:
    """MkDocs' loader; ``!relative`` kept as its text (only plugins are read from it)."""

    class Loader(get_yaml_loader()):  # type: ignore[misc]
        pass

    Loader.add_constructor("!relative", lambda loader, node: str(node.value))
    return Loader


def _plugin_name(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and len(entry) == 1:
        return str(next(iter(entry)))
    raise SystemExit(f"Unexpected plugins entry: {entry!r}")


def _plugins(raw: dict[str, Any]) -> list[Any]:
    plugins = raw.get("plugins", ["search"])
    if isinstance(plugins, dict):
        return [{name: config} if config else name for name, config in plugins.items()]
    return list(plugins or [])


def _dropped(name: str, drop: list[str]) -> bool:
    return name in drop or name.rsplit("/", maxsplit=1)[-1] in drop


def _offline(entry: Any) -> Any:
    """mkdocstrings without the inventories of other sites: there is no network here."""
    if not (isinstance(entry, dict) and isinstance(entry.get("mkdocstrings"), dict)):
        return entry
    handlers = entry["mkdocstrings"].get("handlers") or {}
    for handler in handlers.values():
        if isinstance(handler, dict):
            handler.pop("inventories", None)
            handler.pop("import", None)
    return entry


def main(argv: list[str]) -> int:
    original, out, options_text = Path(argv[0]), Path(argv[1]), argv[2]
    options = json.loads(options_text)
    with original.open(encoding="utf-8") as stream:
        raw = yaml_load(stream, loader=_loader()) or {}
    plugins = [_offline(entry) for entry in _plugins(raw)
               if not _dropped(_plugin_name(entry), options.get("drop", []))]
    if options.get("agentprose"):
        plugins.append({"agentprose": {"cache": bool(options.get("cache")),
                                       **options.get("settings", {})}})
    config: dict[str, Any] = {"INHERIT": original.name, "site_url": options["site_url"],
                              "plugins": plugins}
    config.update(options.get("overrides", {}))
    out.write_text(yaml.dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
