"""Plausible code blocks in several languages, 4-24 lines, from a seeded ``Random``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

__all__ = ["code_block"]

_NAMES = ("cache", "config", "client", "session", "record", "worker", "queue", "token",
          "result", "options", "handler", "stream", "batch", "index", "shard", "policy")


def _n(rng: random.Random) -> str:
    return f"{rng.choice(_NAMES)}_{rng.choice(_NAMES)}"


def _python(rng: random.Random) -> list[str]:
    cls = rng.choice(_NAMES).capitalize()
    signature = (f"def {_n(rng)}({_n(rng)}: int = {rng.randint(1, 99)}, "
                 f"*, strict: bool = False) -> {cls}:")
    lines = [f"from bench.{rng.choice(_NAMES)} import {cls}", "", signature,
             f'    """Return a {cls} for the {rng.choice(_NAMES)}."""']
    lines.extend(rng.choice((
        f"    {_n(rng)} = {cls}({_n(rng)}={rng.randint(0, 9)})",
        f"    if {_n(rng)} > {rng.randint(1, 50)}:\n        raise ValueError('{_n(rng)}')",
        f"    for item in {_n(rng)}.items():\n        print(item)",
        f"    {_n(rng)}.update({{'{rng.choice(_NAMES)}': {rng.random():.3f}}})",
    )) for _ in range(rng.randint(2, 8)))
    lines.append(f"    return {cls}()")
    return lines


def _bash(rng: random.Random) -> list[str]:
    tools = ("bench", "pip install", "git", "docker run --rm", "curl -fsSL", "make")
    return [f"{rng.choice(tools)} {rng.choice(_NAMES)} --{rng.choice(_NAMES)}="
            f"{rng.randint(1, 500)} ./{_n(rng)}" for _ in range(rng.randint(3, 10))]


def _console(rng: random.Random) -> list[str]:
    lines = []
    for _ in range(rng.randint(2, 5)):
        lines += [f"$ bench {rng.choice(_NAMES)} {_n(rng)}",
                  f"{rng.choice(_NAMES)}: {rng.randint(1, 9999)} items in {rng.random():.2f}s"]
    return lines


def _yaml(rng: random.Random) -> list[str]:
    lines = [f"{rng.choice(_NAMES)}:"]
    lines.extend(rng.choice((f"  {_n(rng)}: {rng.randint(0, 999)}",
                             f"  {_n(rng)}: {rng.choice(('true', 'false', 'null'))}",
                             f"  {_n(rng)}:\n    - {_n(rng)}\n    - {_n(rng)}"))
                 for _ in range(rng.randint(3, 10)))
    return lines


def _json(rng: random.Random) -> list[str]:
    items = [f'  "{_n(rng)}": {rng.randint(0, 999)}' for _ in range(rng.randint(3, 10))]
    return ["{", ",\n".join(items), "}"]


def _javascript(rng: random.Random) -> list[str]:
    fn = _n(rng).replace("_", "")
    lines = [f"import {{ {fn} }} from './{rng.choice(_NAMES)}.js';", "",
             f"export async function load{fn.capitalize()}(options = {{}}) {{"]
    lines += [f"  const {_n(rng).replace('_', '')} = await {fn}(options.{rng.choice(_NAMES)});"
              for _ in range(rng.randint(2, 7))]
    return [*lines, "  return null;", "}"]


def _toml(rng: random.Random) -> list[str]:
    lines = [f"[tool.{rng.choice(_NAMES)}]"]
    lines += [f'{_n(rng)} = "{rng.choice(_NAMES)}"' for _ in range(rng.randint(2, 8))]
    return lines


def _go(rng: random.Random) -> list[str]:
    name = _n(rng).title().replace("_", "")
    lines = ["package main", "", f"func {name}(ctx context.Context) error {{"]
    lines += [f"\tif err := {rng.choice(_NAMES)}.Do(ctx, {rng.randint(1, 9)}); err != nil {{\n"
              "\t\treturn err\n\t}" for _ in range(rng.randint(1, 5))]
    return [*lines, "\treturn nil", "}"]


def _rust(rng: random.Random) -> list[str]:
    lines = [f"pub fn {_n(rng)}(input: &str) -> Result<usize, Error> {{"]
    lines += [f"    let {_n(rng)} = input.len() * {rng.randint(2, 64)};"
              for _ in range(rng.randint(2, 6))]
    return [*lines, "    Ok(0)", "}"]


def _sql(rng: random.Random) -> list[str]:
    table = rng.choice(_NAMES)
    return [f"SELECT {', '.join(_n(rng) for _ in range(rng.randint(2, 5)))}",
            f"FROM {table}", f"WHERE {_n(rng)} > {rng.randint(1, 99)}",
            f"ORDER BY {_n(rng)} DESC", f"LIMIT {rng.randint(10, 500)};"]


_LANGS: dict[str, Callable[[random.Random], list[str]]] = {
    "python": _python, "bash": _bash, "console": _console, "yaml": _yaml, "json": _json,
    "javascript": _javascript, "toml": _toml, "go": _go, "rust": _rust, "sql": _sql,
}


def code_block(rng: random.Random, lang: str) -> tuple[str, str]:
    """``(lang, text)``: a code block's language and its text, no trailing newline."""
    return lang, "\n".join(_LANGS[lang](rng))
