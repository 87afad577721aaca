"""Language tags in BCP 47 form, for metadata from any build tool."""

from __future__ import annotations

import re

__all__ = ["normalize_lang"]

_LANG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")


def normalize_lang(value: str) -> str | None:
    """A language tag in BCP 47 form (``pt_BR`` -> ``pt-BR``), None when it is not one."""
    tag = value.strip().replace("_", "-")
    if not _LANG.match(tag):
        return None
    parts = tag.split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 2 and part.isalpha():
            out.append(part.upper())
        elif len(part) == 4 and part.isalpha():
            out.append(part.title())
        else:
            out.append(part.lower())
    return "-".join(out)
