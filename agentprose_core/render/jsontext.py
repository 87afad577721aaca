"""JSON text laid out exactly as ``json.dumps(value, ensure_ascii=False, indent=2)``.

The standard library encodes indented JSON in pure Python, through a generator per
nested value; on the 1,000 posts of a documentation site that was half the time of
writing every site file. This encoder makes the same text by joining strings, with the
standard library's own (C) string escaping.
"""

from __future__ import annotations

from json.encoder import encode_basestring

__all__ = ["dumps_indented"]

_STEP = "  "


def dumps_indented(value: object, level: int = 0) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, nested ``level`` steps deep.

    At ``level`` n every line after the first is indented by n more steps, as a value n
    containers down in a larger document is. Takes the types JSON has (``dict`` with
    ``str`` keys, ``list``, ``tuple``, ``str``, ``int``, ``bool``, ``None``); floats and
    anything else raise :class:`TypeError`, as no caller has them to write.
    """
    parts: list[str] = []
    _write(value, "\n" + _STEP * level, parts)
    return "".join(parts)


def _write(value: object, newline: str, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, dict):
        _write_object(value, newline, parts)
    elif isinstance(value, (list, tuple)):
        _write_array(value, newline, parts)
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not written as JSON here")


def _write_object(value: dict[object, object], newline: str, parts: list[str]) -> None:
    if not value:
        parts.append("{}")
        return
    inner = newline + _STEP
    separator = "{" + inner
    for key, item in value.items():
        if not isinstance(key, str):
            raise TypeError(f"keys must be str here, not {type(key).__name__}")
        parts.append(separator + encode_basestring(key) + ": ")
        _write(item, inner, parts)
        separator = "," + inner
    parts.append(newline + "}")


def _write_array(value: list[object] | tuple[object, ...], newline: str,
                 parts: list[str]) -> None:
    if not value:
        parts.append("[]")
        return
    inner = newline + _STEP
    separator = "[" + inner
    for item in value:
        parts.append(separator)
        _write(item, inner, parts)
        separator = "," + inner
    parts.append(newline + "]")
