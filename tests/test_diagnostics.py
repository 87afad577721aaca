"""The diagnostic codes: every code the source can report is declared in ``CODES``, every
declared code is reported somewhere, and the plugins log each warning with its code.

The codes are found by reading the source (``ast``), not by running it: a code that only
a rare error path reports is checked all the same.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from agentprose_core.diagnostics import CODES, Diagnostic
from agentprose_core.model import Conversion
from agentprose_core.parallel.cache import ConversionCache

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType

ROOT = Path(__file__).parent.parent
PACKAGES = ("agentprose_core", "mkdocs_agentprose", "sphinx_agentprose")
# Diagnostic(**d): diagnostics read back from the conversion cache, made from data.
FROM_DATA = {"agentprose_core/parallel/cache.py"}


@dataclass(frozen=True)
class Use:
    """A code the source reports: where, and at which level (None: decided at run time)."""

    code: str
    where: str
    severity: str | None


class _Module:
    """One source file: its tree, each node's parent, and its functions by name."""

    def __init__(self, path: Path) -> None:
        self.name = path.relative_to(ROOT).as_posix()
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.parents = {child: node for node in ast.walk(self.tree)
                        for child in ast.iter_child_nodes(node)}
        self.calls = [node for node in ast.walk(self.tree) if isinstance(node, ast.Call)]

    def where(self, node: ast.AST) -> str:
        return f"{self.name}:{getattr(node, 'lineno', '?')}"

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return None

    def defines(self, name: str) -> bool:
        return any(isinstance(node, ast.FunctionDef) and node.name == name
                   for node in ast.walk(self.tree))

    def calls_to(self, name: str) -> list[ast.Call]:
        return [call for call in self.calls if _called(call) == name]


def _called(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    found = [k.value for k in call.keywords if k.arg == keyword]
    if found:
        return found[0]
    plain = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
    return plain[position] if position < len(plain) else None


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


@functools.cache
def _modules() -> list[_Module]:
    return [_Module(path) for package in PACKAGES
            for path in sorted((ROOT / package).rglob("*.py"))]


def _codes_given(module: _Module, call: ast.Call, position: int, keyword: str,
                 severity: str | None, seen: frozenset[str] = frozenset()) -> Iterator[Use]:
    """The codes ``call`` gives as its argument ``position``/``keyword``: a literal, or
    a parameter of a helper of the same module, followed to the helper's callers."""
    value = _argument(call, position, keyword)
    text = _literal(value)
    if text is not None:
        yield Use(text, module.where(call), severity)
        return
    helper = module.function_of(call)
    params = [a.arg for a in helper.args.args] if helper else []
    if not (helper and isinstance(value, ast.Name) and value.id in params
            and helper.name not in seen):
        raise AssertionError(f"{module.where(call)}: a code that is neither a literal nor "
                             "a helper's parameter; give a literal code")
    index = params.index(value.id) - (params[:1] in (["self"], ["cls"]))
    # The helper's callers, in its module or another (a method of a class made in one
    # module and called in another: extract's MetaSources.warn).
    callers = [(module, caller) for caller in module.calls_to(helper.name)] + [
        (other, caller) for other in _modules() if not other.defines(helper.name)
        for caller in other.calls_to(helper.name)]
    assert callers, f"{module.where(helper)}: {helper.name}() passes a code on, never called"
    for other, caller in callers:
        yield from _codes_given(other, caller, index, value.id, severity,
                                seen | {helper.name})


def _diagnostic_uses(module: _Module) -> Iterator[Use]:
    for call in module.calls_to("Diagnostic"):
        if not call.args and not any(k.arg == "code" for k in call.keywords):
            assert module.name in FROM_DATA, f"{module.where(call)}: Diagnostic without a code"
            continue
        level = _argument(call, 3, "severity")
        severity = "warning" if level is None else _literal(level)
        yield from _codes_given(module, call, 0, "code", severity)


def _logged_uses(module: _Module) -> Iterator[Use]:
    """Sphinx: the subtypes logged with ``type="agentprose"``."""
    for call in module.calls:
        for subtype in (k.value for k in call.keywords if k.arg == "subtype"):
            if isinstance(subtype, ast.Attribute) and subtype.attr == "code":
                continue  # a Diagnostic's code, declared where the Diagnostic is made
            text = _literal(subtype)
            assert text is not None, f"{module.where(call)}: give a literal subtype"
            yield Use(text, module.where(call), _called(call))


@pytest.fixture(scope="module")
def uses() -> list[Use]:
    found = [use for module in _modules()
             for use in [*_diagnostic_uses(module), *_logged_uses(module)]]
    assert len(found) > len(CODES)  # the scan finds the calls at all
    return found


def test_every_code_reported_is_declared(uses: list[Use]) -> None:
    unknown = [f"{use.where}: {use.code}" for use in uses if use.code not in CODES]
    assert not unknown, "declare these codes in agentprose_core.diagnostics.CODES"


def test_every_declared_code_is_reported(uses: list[Use]) -> None:
    assert set(CODES) - {use.code for use in uses} == set(), "dead entries in CODES"


def test_a_code_is_declared_at_a_level_it_is_reported_at(uses: list[Use]) -> None:
    for name, code in CODES.items():
        levels = {use.severity for use in uses if use.code == name}
        assert code.severity in levels or None in levels, (name, levels)


def test_the_codes_are_listed_in_order_with_a_meaning() -> None:
    assert list(CODES) == sorted(CODES)
    for name, code in CODES.items():
        assert code.name == name
        assert code.meaning.endswith(".")
        assert "\n" not in code.meaning


def test_a_diagnostic_needs_a_declared_code() -> None:
    assert str(Diagnostic("no-git", "No git.", "docs")) == "docs: No git. [no-git]"
    with pytest.raises(ValueError, match="'no-such-code'"):
        Diagnostic("no-such-code", "Nothing.")


def test_a_cached_diagnostic_with_an_unknown_code_is_a_cache_miss(tmp_path: Path) -> None:
    cache = ConversionCache(tmp_path)
    key = "ab" + "0" * 62
    cache.put(key, Conversion(markdown="# A\n", headings=(),
                              diagnostics=(Diagnostic("deep-nesting", "Deep."),)))
    assert cache.get(key) is not None
    entry = tmp_path / "ab" / f"{key}.json"
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["diagnostics"][0]["code"] = "renamed-since"
    entry.write_text(json.dumps(data), encoding="utf-8")
    assert cache.get(key) is None  # converted again, not a crash


def _logger_calls(package: str) -> list[tuple[_Module, ast.Call]]:
    """The calls of ``package`` that log a warning or an error: ``log.warning(…)``,
    ``logger.error(…)``, ``logging.getLogger(…).warning(…)``."""
    found = []
    for module in _modules():
        if not module.name.startswith(package + "/"):
            continue
        for call in module.calls:
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr in ("warning", "error")):
                continue
            receiver = func.value
            if (isinstance(receiver, ast.Name) and receiver.id in ("log", "logger")) or (
                    isinstance(receiver, ast.Call) and _called(receiver) == "getLogger"):
                found.append((module, call))
    return found


def test_sphinx_warnings_have_the_agentprose_type_and_a_subtype() -> None:
    calls = _logger_calls("sphinx_agentprose")
    assert len(calls) >= 3  # the extension's, the config's warning and error
    for module, call in calls:
        kinds = {k.arg: k.value for k in call.keywords}
        assert _literal(kinds.get("type")) == "agentprose", module.where(call)
        assert "subtype" in kinds, module.where(call)


def test_mkdocs_warnings_are_diagnostics_that_end_in_their_code() -> None:
    calls = _logger_calls("mkdocs_agentprose")
    assert calls
    for module, call in calls:  # log.warning(str(diagnostic)): "... [code]"
        (message,) = call.args
        assert isinstance(message, ast.Call), module.where(call)
        assert _called(message) == "str", module.where(call)


def test_quiet_silences_a_sphinx_config_warning(make_app: Any, tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx_agentprose']\nhtml_baseurl = 'https://example.com/'\n"
        "agentprose_exlcude = ['x']\n", encoding="utf-8")
    (tmp_path / "index.rst").write_text("Home\n====\n", encoding="utf-8")
    loud = make_app("html", srcdir=tmp_path)
    assert "agentprose_exlcude" in loud._warning.getvalue()
    quiet = make_app("html", srcdir=tmp_path, confoverrides={"agentprose_quiet": ["config"]})
    assert "agentprose_exlcude" not in quiet._warning.getvalue()


def _hook() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "diagnostics.py"
    spec = importlib.util.spec_from_file_location("docs_diagnostics", path)
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_list_every_code_with_how_to_silence_it() -> None:
    hook = _hook()
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert f"<!-- {hook.BLOCK}" in page
    assert f"<!-- /{hook.BLOCK} -->" in page
    assert hook.on_page_markdown(page) == page  # the copy in the repository is current
    rows = [line for line in page.splitlines()
            if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(CODES)
    for row, code in zip(rows, CODES.values(), strict=True):
        assert row.count(" | ") == 4, row  # no "|" in a meaning breaks the table
        assert f"`quiet: [{code.name}]`" in row
        assert f'agentprose_quiet = ["{code.name}"]' in row
    mkdocs_yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\n  - docs/hooks/diagnostics.py\n" in mkdocs_yml
    assert ": diagnostics.md\n" in mkdocs_yml  # in the nav
