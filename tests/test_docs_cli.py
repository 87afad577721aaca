"""docs/cli.md documents the real command line: every argument and option of every
subcommand of the parser `agentprose` runs, with its default, required flag and choices,
and no option that does not exist."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

# The parser `agentprose` runs; its module moves with the core's layout: change it here.
from agentprose_core.cli import _parser as make_parser

CLI_PAGE = Path(__file__).parent.parent / "docs" / "cli.md"
TEXT = CLI_PAGE.read_text(encoding="utf-8")
GLOBAL_OPTIONS = {"--help", "--version"}
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
_ROW_NAME = re.compile(r"^\| `(?P<name>--?[\w-]+|[A-Z_]+)[ `]")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = make_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def arguments(command: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in command._actions if not isinstance(a, argparse._HelpAction)]


def name_of(action: argparse.Action) -> str:
    """How the page names an argument: its long option, or its positional in capitals."""
    if action.option_strings:
        return max(action.option_strings, key=len)
    return str(action.metavar or action.dest).upper()


def section(command: str) -> str:
    parts = TEXT.split(f"\n## `agentprose {command}`\n", 1)
    assert len(parts) == 2, f"docs/cli.md has no section for agentprose {command}"
    return parts[1].split("\n## ", 1)[0]


def documented_rows(command: str) -> dict[str, str]:
    """Argument name -> its row in the section's table."""
    rows = {}
    for line in section(command).splitlines():
        match = _ROW_NAME.match(line)
        if match:
            assert match["name"] not in rows, f"{match['name']} is documented twice"
            rows[match["name"]] = line
    return rows


COMMANDS = sorted(subcommands())


def test_every_subcommand_has_a_section() -> None:
    assert COMMANDS == ["build", "check", "config", "mcp", "mcp-function", "serve", "versions"]
    for command in COMMANDS:
        assert f"[`agentprose {command}`](#agentprose-{command})" in TEXT
        section(command)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_argument_is_documented_and_nothing_else(command: str) -> None:
    real = {name_of(action) for action in arguments(subcommands()[command])}
    assert set(documented_rows(command)) == real


@pytest.mark.parametrize("command", COMMANDS)
def test_defaults_required_and_choices_are_the_parser_s(command: str) -> None:
    rows = documented_rows(command)
    for action in arguments(subcommands()[command]):
        row = rows[name_of(action)]
        if action.required and action.option_strings:
            assert "| required |" in row, row
        if action.default not in (None, False, [], argparse.SUPPRESS):
            assert f"| `{action.default}` |" in row, row
        for choice in action.choices or ():
            assert f"`{choice}`" in row, row


@pytest.mark.parametrize("command", COMMANDS)
def test_a_section_names_only_its_own_options(command: str) -> None:
    own = {s for a in subcommands()[command]._actions for s in a.option_strings}
    assert set(_OPTION.findall(section(command))) - own - GLOBAL_OPTIONS == set()


def test_the_page_names_no_option_that_does_not_exist() -> None:
    every = {s for c in subcommands().values() for a in c._actions for s in a.option_strings}
    assert set(_OPTION.findall(TEXT)) - every - GLOBAL_OPTIONS == set()
    assert "--version" in {s for a in make_parser()._actions for s in a.option_strings}
