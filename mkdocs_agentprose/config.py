"""The plugin's options: the core ``options()``, in MkDocs' config types.

Names, defaults, kinds and choices come from the core; so do the help texts, in
docs/configuration.md. MkDocs' own option types check the values, so a mistake in
``mkdocs.yml`` reads as MkDocs' other config errors do; the core checks them again.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from agentprose_core.settings import Option, options

__all__ = ["AgentproseConfig"]


def _typed(kind: type, default: Any) -> base.BaseConfigOption[Any]:
    if kind is list:  # the core's lists hold strings (patterns, warning codes)
        return c.ListOfItems(c.Type(str), default=default)
    if kind is dict:  # and its mapping, section titles to lists of patterns
        return c.DictOfItems(c.ListOfItems(c.Type(str)), default=default)
    return c.Type(kind, default=default)


def _config_option(option: Option) -> base.BaseConfigOption[Any]:
    """The MkDocs config option that takes what the core option takes."""
    if option.name == "phrases":  # the one mapping of mappings: tags to phrases and text
        return c.DictOfItems(c.DictOfItems(c.Type(str)), default={})
    if option.name == "languages":  # tags with their URLs, or tags alone: the core checks
        return c.Type((dict, list), default={})
    if option.name == "page_action_links":  # names to URL templates
        return c.DictOfItems(c.Type(str), default=option.written_default)
    if option.choices:
        return c.Choice(option.choices, default=option.default)
    if option.default is None:  # unset unless given
        return c.Optional(_typed(option.kinds[0], None))
    return _typed(option.kinds[0], option.written_default)


# MkDocs' Config.__init_subclass__ is untyped: the one call mypy strict cannot check.
class _CoreOptions(base.Config):  # type: ignore[no-untyped-call]
    """Gives a subclass every core option it does not declare itself, in the core's
    order, before MkDocs' ``Config`` makes the schema from the class."""

    def __init_subclass__(cls) -> None:
        for option in options():
            if option.name not in vars(cls):
                setattr(cls, option.name, _config_option(option))
        super().__init_subclass__()  # type: ignore[no-untyped-call]


class AgentproseConfig(_CoreOptions):
    """``plugins: - agentprose:`` options: every field of the core ``Settings``."""

    enabled = c.Type(bool, default=True)  # typed here for the hooks' first check
    # The one mapping of mappings: language tags to phrase names and their text.
