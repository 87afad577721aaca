"""What ``agentprose check`` finds: the rules, each problem, and the report.

Every rule is declared once in :data:`RULES` with its level. An *error* breaks the
contract of ``docs/formats.md``: a file we promise is missing or malformed, a URL leaves
the site, or a server that does negotiate Markdown gets it wrong. A *warning* is
something the contract prefers but static hosts such as GitHub Pages or Read the Docs
cannot do (answer ``Accept: text/markdown`` on the page's URL, serve ``.md`` as
``text/markdown``, revalidate with ``304``): agents still find every view through the
discovery links and ``llms.txt``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["RULES", "Level", "Problem", "Report", "Rule"]

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    """One check: a stable id, its level and what it asks of the site."""

    id: str
    level: Level
    summary: str


def _rules(*rows: tuple[str, Level, str]) -> dict[str, Rule]:
    return {rule_id: Rule(rule_id, level, summary) for rule_id, level, summary in rows}


RULES: dict[str, Rule] = _rules(
    # agentprose.json
    ("index-missing", "error", "agentprose.json exists at the site root"),
    ("index-json", "error", "agentprose.json is UTF-8 JSON"),
    ("index-schema", "error", "agentprose.json validates against the shipped JSON Schema"),
    ("index-base", "error", "site.url is the site's base URL, on the checked origin"),
    ("index-duplicate", "error", "no two posts share a URL"),
    ("post-off-site", "error", "every URL of a post or view is on the site's origin and base"),
    # agent views
    ("view-missing", "error", "every post's markdown_url serves its agent view"),
    ("front-matter", "error", "a view starts with a closed YAML front matter mapping"),
    ("front-matter-order", "error", "front matter keys are known and in the documented order"),
    ("front-matter-values", "error", "title, canonical, modified are set; nothing written empty"),
    ("front-matter-time", "error", "times are quoted UTC like 2026-03-14T10:30:00Z"),
    ("front-matter-yaml", "error", "every value is a double-quoted string (YAML 1.1 = 1.2)"),
    ("view-index", "error", "a view says what its agentprose.json post says, and is its size"),
    ("view-whitespace", "error", "no doubled blank lines or trailing spaces outside code"),
    ("view-fence", "error", "every fenced code block of a view is closed"),
    ("view-roundtrip", "warning", "a view renders back to its page's blocks, in order"),
    ("view-directive", "warning", "a view's first line links the site's llms.txt and index"),
    ("view-translation", "error", "every translation a view names is a page of the site"),
    # llms.txt and llms-full.txt
    ("llms-missing", "error", "llms.txt exists at the site root"),
    ("llms-format", "error", "llms.txt: '# title', '> summary', sections of link lines only"),
    ("llms-link", "error", "every llms.txt link is an absolute URL that serves a view"),
    ("llms-coverage", "error", "llms.txt lists every post's view"),
    ("llms-reference", "error", "the reference parser (llms_txt) reads llms.txt intact"),
    ("llms-section", "error", "each section llms.txt the root links lists its folder's views"),
    ("llms-full-missing", "error", "llms-full.txt exists at the site root"),
    ("llms-full-post", "error", "llms-full.txt introduces every post by its URL"),
    # discovery links
    ("page-missing", "error", "every post's url serves its HTML page"),
    ("discovery-missing", "error", "a page with a view links it with rel=alternate"),
    ("discovery-duplicate", "error", "a page has one text/markdown alternate link"),
    ("discovery-href", "error", "the alternate link points at the page's own view"),
    ("discovery-index", "error", "a page has one rel=agentprose-index link to the index"),
    ("discovery-unlisted", "error", "pages without a view carry no discovery links"),
    ("discovery-describedby", "error", "a page names the llms.txt that covers it (describedby)"),
    ("discovery-hint", "warning", "the top of a page's body links its view"),
    # over HTTP
    ("http-error", "error", "every request gets an answer (no timeout, no network error)"),
    ("http-status", "error", "every URL the site lists answers 200"),
    ("http-off-origin", "error", "no URL to fetch (or redirect) leaves the checked origin"),
    ("view-content-type", "error", "a .md view is served as text/markdown or text/plain"),
    ("view-content-type-plain", "warning", "a .md view is served as text/markdown"),
    ("view-validator", "warning", "a .md view carries an ETag or Last-Modified"),
    ("view-revalidate", "warning", "a conditional request for an unchanged view gets 304"),
    ("negotiation-unsupported", "warning", "a page URL answers Accept: text/markdown"),
    ("negotiation-content-type", "error", "negotiated Markdown is text/markdown; charset=utf-8"),
    ("negotiation-vary", "error", "both negotiated representations send Vary: Accept"),
    ("negotiation-validator", "error", "negotiated Markdown carries an ETag or Last-Modified"),
    ("negotiation-revalidate", "error", "a conditional request for negotiated Markdown gets 304"),
    ("negotiation-body", "error", "negotiated Markdown is the page's agent view"),
    ("negotiation-browser", "error", "a browser's Accept header still gets HTML"),
    ("negotiation-tie", "error", "text/markdown and text/html at equal weight get Markdown"),
    ("http-link", "warning", "a page URL sends its view and llms.txt as Link headers"),
    # an MCP endpoint the site advertises
    ("mcp-files", "error", "the MCP server card and skill are well formed, as llms.txt says"),
    ("mcp-endpoint", "error", "an advertised MCP endpoint initializes, lists, searches, reads"),
)


@dataclass(frozen=True)
class Problem:
    """One broken rule: which, where (a URL or a file, maybe with a line), and why."""

    rule: str
    where: str
    message: str

    @property
    def level(self) -> Level:
        """The rule's level in :data:`RULES`."""
        return RULES[self.rule].level

    def to_dict(self) -> dict[str, str]:
        """The problem as JSON (``--json``)."""
        return {"rule": self.rule, "level": self.level, "where": self.where,
                "message": self.message}


@dataclass
class Report:
    """Everything one ``agentprose check`` found, with what it looked at.

    ``notes`` say what was not (or could not be) checked, such as pages past
    ``max_pages``; they are not problems.
    """

    target: str
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pages_checked: int = 0
    files_read: int = 0
    requests: int = 0

    def add(self, rule: str, where: str, message: str) -> None:
        """Record a problem; ``rule`` must be one of :data:`RULES`."""
        if rule not in RULES:
            raise KeyError(f"Unknown check rule {rule!r}.")
        self.problems.append(Problem(rule, where, message))

    @property
    def errors(self) -> list[Problem]:
        """The problems that fail the check."""
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The problems that do not fail the check."""
        return [p for p in self.problems if p.level == "warning"]

    @property
    def ok(self) -> bool:
        """True when no error-level problem was found (warnings allowed)."""
        return not self.errors

    def rules_broken(self) -> set[str]:
        """The rules at least one problem broke."""
        return {p.rule for p in self.problems}

    def to_dict(self) -> dict[str, object]:
        """The report as JSON (``--json``)."""
        return {
            "target": self.target,
            "ok": self.ok,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "pages_checked": self.pages_checked,
            "files_read": self.files_read,
            "requests": self.requests,
            "problems": [p.to_dict() for p in self.problems],
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        """The report as deterministic JSON (``--json``)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"

    def summary(self) -> str:
        """One line: what was checked, how much was read, and the verdict."""
        read = f"{self.requests} requests" if self.requests else f"{self.files_read} files"
        verdict = "ok" if self.ok else "FAILED"
        return (f"agentprose check: {self.target}: {self.pages_checked} pages, {read}: "
                f"{_count(len(self.errors), 'error')}, "
                f"{_count(len(self.warnings), 'warning')} ({verdict})")

    def to_text(self) -> str:
        """One ``RULE  WHERE  message`` line per problem, the notes, then a summary line.

        Warnings carry ``warning:`` before their message.
        """
        lines = [f"{p.rule}  {p.where}  {_tagged(p)}" for p in self.problems]
        lines += [f"note: {note}" for note in self.notes]
        lines.append(self.summary())
        return "\n".join(lines) + "\n"


def _tagged(problem: Problem) -> str:
    return problem.message if problem.level == "error" else "warning: " + problem.message


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
