"""The Markdown table of a run: one row per site."""

from __future__ import annotations

from typing import Any

COLUMNS = (
    "site", "tool/theme", "pages", "views", "bare s", "agentprose s", "exit codes",
    "round-trip pages/mismatches", "unbalanced fences", "bad tags", "unresolved fragments",
    "languages kept/knowable", "hidden leaks", "nondeterministic files",
    "dates not commits", "checker findings", "mcp sections missing/asked, title top 3",
)


def _get(data: dict[str, Any], *keys: str, default: Any = "") -> Any:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


def _tags(checks: dict[str, Any]) -> str:
    count = _get(checks, "bad_tags", "count", default=0)
    by = _get(checks, "bad_tags", "by", default={})
    if not count:
        return "0"
    top = ", ".join(f"{name} {n}" for name, n in list(by.items())[:3])
    return f"{count} ({top})"


def _roundtrip(roundtrip: dict[str, Any]) -> str:
    shown = f"{roundtrip['pages']}/{roundtrip['count']}"
    hidden = (roundtrip.get("by") or {}).get("theme shows no content", 0)
    return f"{shown} (+{hidden} the theme shows no content)" if hidden else shown


def _fragments(checks: dict[str, Any]) -> str:
    lost = checks["fragments"]["count"]
    broken = _get(checks, "fragments_broken_in_site", "count", default=0)
    return f"{lost} (+{broken} broken in the site)" if broken else str(lost)


def _determinism(checks: dict[str, Any]) -> str:
    differing = _get(checks, "determinism", "differing", default="-")
    html = _get(checks, "determinism", "html_differing", default=0)
    return f"{differing} (HTML: {html})" if html else str(differing)


def _dates(checks: dict[str, Any]) -> str:
    count = _get(checks, "dates", "count", default="-")
    clock = _get(checks, "dates", "by", "after HEAD (a clock)", default=0)
    return f"{count} ({clock} after HEAD)" if clock else str(count)


def _langs(checks: dict[str, Any]) -> str:
    kept = _get(checks, "languages", "kept", default=0)
    knowable = _get(checks, "languages", "knowable", default=0)
    if not knowable:
        return "0/0"
    return f"{kept}/{knowable} ({100 * kept / knowable:.0f}%)"


def _leaks(checks: dict[str, Any]) -> str:
    markers = _get(checks, "markers", default={})
    if not markers:
        return ""
    kinds = markers.get("leaked_kinds", [])
    visible = "" if markers.get("visible_found") else "; visible marker MISSING"
    return (", ".join(kinds) if kinds else "0") + visible


def _checker(checks: dict[str, Any]) -> str:
    checker = _get(checks, "checker", default={})
    if "crash" in checker:
        return "crash"
    by = checker.get("by_rule", {})
    if not by:
        return "0"
    return f"{checker.get('total')}: " + ", ".join(f"{rule} {n}" for rule, n in by.items())


def _mcp(checks: dict[str, Any]) -> str:
    mcp = _get(checks, "mcp", default={})
    if not mcp:
        return ""
    if "crash" in mcp:
        return "crash"
    pages = mcp["pages_differing"]["count"]
    return (f"{mcp['sections_missing']['count']}/{mcp['sections_asked']}, "
            f"{mcp['title_top3']}/{mcp['posts']}" + (f", {pages} pages differ" if pages else ""))


def _row(entry: dict[str, Any]) -> list[str]:
    built = entry.get("builds", {})
    checks = entry.get("checks", {})
    codes = "/".join(str(_get(built, v, "exit_code", default="-"))
                     for v in ("bare", "agentprose", "agentprose2"))
    if "error" in entry or "error" in checks:
        message = entry.get("error") or checks.get("error")
        return [entry["site"], f"{entry['tool']}/{entry['theme']}", "", "",
                str(_get(built, "bare", "seconds")), str(_get(built, "agentprose", "seconds")),
                codes, f"ERROR: {message}", *[""] * 9]
    roundtrip = checks["roundtrip"]
    return [
        entry["site"], f"{entry['tool']}/{entry['theme']}", str(checks["pages"]),
        str(checks["views"]), f"{built['bare']['seconds']:.1f}",
        f"{built['agentprose']['seconds']:.1f}", codes,
        _roundtrip(roundtrip),
        str(checks["unbalanced_fences"]["count"]), _tags(checks),
        _fragments(checks), _langs(checks), _leaks(checks),
        _determinism(checks), _dates(checks), _checker(checks), _mcp(checks),
    ]


def print_table(entries: list[dict[str, Any]]) -> None:
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "|".join("---" for _ in COLUMNS) + "|")
    for entry in entries:
        cells = [cell.replace("|", "\\|") for cell in _row(entry)]
        print("| " + " | ".join(cells) + " |")
