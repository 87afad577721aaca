"""The pure, string-level checks of ``agentprose check``: no files, no network.

Each function takes the text of one output and returns what is wrong with it as
``(rule, line, message)`` findings (``line`` is 0 when the finding is not about one
line), or parses it for the site-level checks in :mod:`.rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = [
    "DIRECTIVE_PREFIX", "FRONT_MATTER_KEYS", "Finding", "View", "is_directive", "parse_view",
]

FRONT_MATTER_KEYS = (
    "title", "canonical", "modified", "published", "author", "lang", "version", "latest",
    "translations", "prev", "next",
)
REQUIRED_KEYS = ("title", "canonical", "modified")
TIME_KEYS = ("modified", "published")

Finding = tuple[str, int, str]

_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_LANG = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")
# A double-quoted scalar using only the escapes YAML 1.1 and 1.2 read alike.
_QUOTED = r'"(?:[^"\\\x00-\x1f\x7f]|\\(?:[\\"0abefvnrt]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}))*"'
_KEY_LINE = re.compile(rf"(?P<key>[A-Za-z_][\w-]*):(?: (?P<value>{_QUOTED}))?")
# A list item: an author, or a translation's two keys (``  - lang: "fr"``, ``    url: …``).
_ITEM_LINE = re.compile(rf"  - {_QUOTED}|  - lang: {_QUOTED}|    url: {_QUOTED}")
_FENCE = re.compile(r"(?P<fence>`{3,}|~{3,})")
# Quote markers and list indentation before a fence (a fence in a nested list item).
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*")


# -- the agent view -----------------------------------------------------------------


@dataclass
class View:
    """An agent view split into its front matter and body, with what is wrong."""

    front: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    directive: str = ""
    """The site-index line after the front matter (``> Site index: …``), if any."""
    findings: list[Finding] = field(default_factory=list)


def parse_view(text: str) -> View:
    """Check a view's front matter and body; ``front`` is ``{}`` when it cannot load."""
    view = View()
    if not text.startswith("---\n"):
        view.findings.append(("front-matter", 1, "the view does not start with '---'"))
        return view
    head, closed, body = text[4:].partition("\n---\n")
    if not closed:
        if not text.endswith("\n---"):
            view.findings.append(("front-matter", 1, "the front matter is never closed"))
            return view
        head, body = text[4:-4], ""
    view.findings += _lexical(head)
    view.front = _load(head, view.findings)
    if view.front:
        view.findings += _front_matter_findings(view.front)
    first_body_line = head.count("\n") + 4
    view.directive, body, skipped = _directive(body)
    view.findings += _body_findings(body, first_body_line + skipped)
    view.body = body.strip("\n")
    return view


DIRECTIVE_PREFIX = "> Site index: "
"""How the site-index line starts in English."""

# The site-index line by its shape, in any language: a quote whose label (no brackets)
# is followed by a link to the site's llms.txt or agentprose.json.
_DIRECTIVE = re.compile(r"> [^\[\]\n]{1,80} \[(?:llms\.txt|agentprose\.json)\]\(\S")


def is_directive(line: str) -> bool:
    """Whether ``line`` is a view's site-index line, in whatever language."""
    return _DIRECTIVE.match(line) is not None


def _directive(body: str) -> tuple[str, str, int]:
    """The directive line that opens ``body`` (``""`` if none), the body after it, and
    how many lines that removed."""
    stripped = body.lstrip("\n")
    line, newline, rest = stripped.partition("\n")
    if not is_directive(line):
        return "", body, 0
    return line, rest, len(body) - len(stripped) + len(newline)


def _lexical(head: str) -> list[Finding]:
    """Lines that are not ``key: "string"``, ``key:``, ``  - "string"`` or a
    translation's ``  - lang: "…"`` and ``    url: "…"``."""
    found = []
    for number, line in enumerate(head.split("\n"), 2):
        match = _KEY_LINE.fullmatch(line)
        if match is None and _ITEM_LINE.fullmatch(line) is None:
            message = (f"{line[:60]!r} is not a double-quoted string: YAML 1.1 and 1.2 "
                       "loaders may read it differently")
            found.append(("front-matter-yaml", number, message))
    return found


def _load(head: str, findings: list[Finding]) -> dict[str, Any]:
    try:
        data = yaml.safe_load(head)
    except yaml.YAMLError as error:
        findings.append(("front-matter", 2, f"the front matter is not YAML: {_first_line(error)}"))
        return {}
    if not isinstance(data, dict) or not data:
        findings.append(("front-matter", 2, "the front matter is not a YAML mapping"))
        return {}
    return {str(key): value for key, value in data.items()}


def _first_line(error: Exception) -> str:
    return str(error).strip().split("\n", 1)[0]


def _front_matter_findings(front: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    unknown = [key for key in front if key not in FRONT_MATTER_KEYS]
    if unknown:
        found.append(("front-matter-order", 0, f"unknown keys {unknown}"))
    known = [key for key in front if key in FRONT_MATTER_KEYS]
    expected = [key for key in FRONT_MATTER_KEYS if key in front]
    if known != expected:
        found.append(("front-matter-order", 0, f"keys {known}; the order is {expected}"))
    found += _value_findings(front)
    for key in TIME_KEYS:
        value = front.get(key)
        if isinstance(value, str) and value and not _TIME.fullmatch(value):
            found.append(("front-matter-time", 0,
                          f"{key} {value!r} is not a UTC time like 2026-03-14T10:30:00Z"))
    return found


def _value_findings(front: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = [
        ("front-matter-values", 0, f"required key {key!r} is missing")
        for key in REQUIRED_KEYS if key not in front
    ]
    for key, value in front.items():
        problem = _value_problem(key, value)
        if problem:
            found.append(("front-matter-values", 0, f"{key}: {problem}"))
    return found


def _value_problem(key: str, value: object) -> str | None:
    if key == "translations":
        return _translations_problem(value)
    if key == "author" and isinstance(value, list):
        if not value or not all(isinstance(name, str) and name.strip() for name in value):
            return "a list of authors must hold non-empty names"
        return None
    if not isinstance(value, str):
        return f"must be a string, not {type(value).__name__}"
    if not value.strip():
        return "is written empty (leave an absent value out)"
    if key == "lang" and not _LANG.fullmatch(value):
        return f"{value!r} is not a BCP 47 tag (pt-BR, not pt_BR)"
    return None


def _translations_problem(value: object) -> str | None:
    """What is wrong with a ``translations`` value: a list of ``{lang, url}``."""
    if not isinstance(value, list) or not value:
        return "must be a non-empty list of {lang, url}"
    for item in value:
        if not isinstance(item, dict) or list(item) != ["lang", "url"]:
            return "each translation is a mapping of 'lang' then 'url'"
        lang, url = item["lang"], item["url"]
        if not (isinstance(lang, str) and _LANG.fullmatch(lang)):
            return f"{lang!r} is not a BCP 47 tag"
        if not (isinstance(url, str) and url.startswith(("http://", "https://"))):
            return f"{url!r} is not an absolute URL"
    return None


def _body_findings(body: str, first_line: int) -> list[Finding]:
    """Blank-line and trailing-space rules on the body, outside fenced code."""
    if not body:
        return []
    found: list[Finding] = []
    if not body.startswith("\n") or body.startswith("\n\n"):
        found.append(("view-whitespace", first_line,
                      "exactly one blank line must follow the front matter"))
    if not body.endswith("\n") or body.endswith("\n\n"):
        found.append(("view-whitespace", 0, "the view must end with exactly one newline"))
    lines = body.strip("\n").split("\n")
    start = first_line + len(body) - len(body.lstrip("\n"))
    blank = 0
    marked, opened = _with_fences(lines)
    if opened is not None:
        found.append(("view-fence", start + opened, ("this fenced code block is never closed: "
                      "the rest of the view reads as code")))
    for number, (line, in_code) in enumerate(marked, start):
        if in_code:
            blank = 0
            continue
        blank = blank + 1 if not line.strip() else 0
        if blank == 2:
            found.append(("view-whitespace", number, "doubled blank line"))
        if line != line.rstrip():
            found.append(("view-whitespace", number, "trailing whitespace"))
    return found


def _with_fences(lines: list[str]) -> tuple[list[tuple[str, bool]], int | None]:
    """Each line with whether it is inside a fenced code block (fence lines included),
    and the index of the line that opens a fence never closed, if one is."""
    marked = []
    fence = ""
    opened: int | None = None
    for position, line in enumerate(lines):
        prefix = _QUOTE_PREFIX.match(line)
        text = line[prefix.end():] if prefix else line
        opener = _FENCE.match(text)
        if not fence and opener:
            fence, opened = opener.group("fence"), position
            marked.append((line, True))
        elif fence:
            closes = text.strip().startswith(fence) and set(text.strip()) == {fence[0]}
            marked.append((line, True))
            fence = "" if closes else fence
        else:
            marked.append((line, False))
    return marked, (opened if fence else None)
