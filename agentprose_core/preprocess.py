"""The ``preprocess`` escape hatch: a user's function that sees each page's content
element before conversion, to drop or rewrite what the built-in rules get wrong."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentprose_core.errors import ConfigError, InputError

if TYPE_CHECKING:
    from types import ModuleType

    from agentprose_core.convert.tree import Element

__all__ = ["Preprocess", "load_preprocess", "run_preprocess"]

# A string: the settings load hooks without loading lxml.
Preprocess = Callable[["Element", str], Any]


@lru_cache(maxsize=8)
def load_preprocess(path: str) -> Preprocess:
    """The function named by ``"package.module:function"`` or ``"file.py:function"``
    (a file path relative to the working directory of the build).

    Raises :class:`ConfigError` that says what is wrong with the path.
    """
    module_name, _, attribute = path.rpartition(":")
    if not module_name or not attribute:
        raise ConfigError(
            "agentprose option 'preprocess' must look like 'package.module:function' or "
            f"'hooks/agent.py:function', not {path!r}."
        )
    try:
        module = _module(module_name)
    except (ImportError, OSError) as error:
        raise ConfigError(
            f"agentprose option 'preprocess': cannot import {module_name!r} ({error}). Is it "
            "on the Python path of the build?"
        ) from error
    function = getattr(module, attribute, None)
    if not callable(function):
        raise ConfigError(
            f"agentprose option 'preprocess': {module_name!r} has no function {attribute!r}."
        )
    return function  # type: ignore[no-any-return]


def _module(name: str) -> ModuleType:
    if not name.endswith(".py"):
        return importlib.import_module(name)
    file = Path(name)
    spec = importlib.util.spec_from_file_location(f"agentprose_preprocess_{file.stem}", file)
    if spec is None or spec.loader is None or not file.is_file():
        raise ImportError(f"no such file: {file}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_preprocess(path: str, element: Element, url: str) -> None:
    """Call the user's function on one page's content; its failure names the page."""
    function = load_preprocess(path)
    try:
        function(element, url)
    except Exception as error:  # the user's code: report it with the page, not a traceback
        raise InputError(f"The preprocess function {path} failed on {url}: {error!r}") from error
