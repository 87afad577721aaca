"""A JSON Schema validator for the keywords our own schema uses, and no more.

``agentprose check`` must validate ``agentprose.json`` wherever agentprose is installed,
and ``jsonschema`` (with its own dependencies) is not one of ours. The shipped schema
needs a small subset of draft 2020-12, implemented here: ``type``, ``const``,
``required``, ``properties``, ``additionalProperties``, ``items``, ``minItems``,
``minLength``, ``pattern``, ``minimum``, ``maximum``, ``format`` (``uri`` and
``date-time``) and local ``$ref``. Any other keyword raises :class:`SchemaSubsetError`,
so a schema that outgrows the subset fails loudly (a test runs it on the shipped
schema), never by skipping a constraint. Tests also compare the verdicts with
``jsonschema`` on the same documents.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agentprose_core.errors import AgentproseError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["KEYWORDS", "SchemaSubsetError", "validate"]

_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})
KEYWORDS = frozenset({
    "type", "const", "required", "properties", "additionalProperties", "items",
    "minItems", "minLength", "pattern", "minimum", "maximum", "format", "$ref",
}) | _ANNOTATIONS

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


class SchemaSubsetError(AgentproseError):
    """The schema uses a keyword this validator does not implement."""


def validate(document: object, schema: dict[str, Any], *, limit: int = 50) -> list[str]:
    """Where ``document`` breaks ``schema``: ``"posts[2].modified: …"`` messages.

    Stops after ``limit`` messages. Returns ``[]`` for a valid document.
    """
    found: list[str] = []
    _Validator(schema, found, limit).check(document, schema, "")
    return found


class _Validator:
    def __init__(self, root: dict[str, Any], found: list[str], limit: int) -> None:
        self.root = root
        self.found = found
        self.limit = limit

    def fail(self, path: str, message: str) -> None:
        if len(self.found) < self.limit:
            self.found.append(f"{path or '(document)'}: {message}")

    def check(self, value: object, schema: dict[str, Any], path: str) -> None:
        unknown = set(schema) - KEYWORDS
        if unknown:
            raise SchemaSubsetError(f"Unsupported schema keywords: {sorted(unknown)}.")
        if "$ref" in schema:
            self.check(value, self.resolve(schema["$ref"]), path)
        if "type" in schema and not _is_type(value, schema["type"]):
            self.fail(path, f"expected {schema['type']}, got {_json_type(value)}")
            return
        if "const" in schema and not _same(value, schema["const"]):
            self.fail(path, f"must be {schema['const']!r}")
        if isinstance(value, dict):
            self.check_object(value, schema, path)
        elif isinstance(value, list):
            self.check_array(value, schema, path)
        elif isinstance(value, str):
            self.check_string(value, schema, path)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            self.check_number(value, schema, path)

    def resolve(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#/"):
            raise SchemaSubsetError(f"Only local $ref is supported, not {ref!r}.")
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        if not isinstance(node, dict):
            raise SchemaSubsetError(f"$ref {ref!r} does not name a schema.")
        return node

    def check_object(self, value: dict[str, Any], schema: dict[str, Any], path: str) -> None:
        properties: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                self.fail(path, f"missing required key {key!r}")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            where = f"{path}.{key}" if path else key
            if key in properties:
                self.check(item, properties[key], where)
            elif extra is False:
                self.fail(path, f"unexpected key {key!r}")
            elif isinstance(extra, dict):
                self.check(item, extra, where)

    def check_array(self, value: list[Any], schema: dict[str, Any], path: str) -> None:
        if len(value) < schema.get("minItems", 0):
            self.fail(path, f"needs at least {schema['minItems']} items")
        items = schema.get("items")
        if isinstance(items, dict):
            for number, item in enumerate(value):
                self.check(item, items, f"{path}[{number}]")

    def check_string(self, value: str, schema: dict[str, Any], path: str) -> None:
        if len(value) < schema.get("minLength", 0):
            self.fail(path, "must not be empty" if schema["minLength"] == 1
                      else f"needs at least {schema['minLength']} characters")
        pattern = schema.get("pattern")
        if pattern is not None and re.search(pattern, value) is None:
            self.fail(path, f"{_short(value)} does not match {pattern}")
        fmt = schema.get("format")
        if fmt is not None and not _format_check(fmt)(value):
            self.fail(path, f"{_short(value)} is not a valid {fmt}")

    def check_number(self, value: float, schema: dict[str, Any], path: str) -> None:
        if "minimum" in schema and value < schema["minimum"]:
            self.fail(path, f"{value} is less than {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            self.fail(path, f"{value} is more than {schema['maximum']}")


def _is_type(value: object, name: str) -> bool:
    if name not in _TYPES:
        raise SchemaSubsetError(f"Unsupported type {name!r}.")
    if isinstance(value, bool):
        return name == "boolean"
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[name])


def _same(value: object, expected: object) -> bool:
    """JSON equality: ``true`` is not ``1``."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return type(value) is type(expected) and value == expected
    return value == expected


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return next((name for name in _TYPES if _is_type(value, name)), type(value).__name__)


def _short(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


def _is_uri(value: str) -> bool:
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return bool(parts.scheme) and not any(ch.isspace() for ch in value)


def _is_date_time(value: str) -> bool:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return False
    return "T" in value.upper()


_FORMATS = {"uri": _is_uri, "date-time": _is_date_time}


def _format_check(name: str) -> Callable[[str], bool]:
    if name not in _FORMATS:
        raise SchemaSubsetError(f"Unsupported format {name!r}.")
    return _FORMATS[name]
