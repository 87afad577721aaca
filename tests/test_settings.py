"""One declaration of every option, and the MkDocs config and the Sphinx values made
from it; bad values are clear errors."""

from __future__ import annotations

import dataclasses
import inspect
from types import NoneType
from typing import Any

import pytest
from sphinx.application import Sphinx

from agentprose_core.errors import ConfigError
from agentprose_core.settings import Option, Settings, options, settings_from_mapping
from mkdocs_agentprose.config import AgentproseConfig
from sphinx_agentprose.config import PREFIX, add_config_values

KINDS = {bool, str, int, list, tuple, dict, NoneType}


def test_every_option_has_help_and_kinds() -> None:
    names = [o.name for o in options()]
    assert names == [f.name for f in dataclasses.fields(Settings)]
    for option in options():
        assert option.help.strip().endswith("."), option.name
        assert option.kinds, option.name
        assert set(option.kinds) <= KINDS, option.name
        assert (option.default is None) == (NoneType in option.kinds), option.name
        assert all(isinstance(choice, str) for choice in option.choices), option.name


def test_mkdocs_config_is_the_core_options() -> None:
    schema = dict(AgentproseConfig._schema)
    assert list(schema) == [o.name for o in options()]
    for option in options():
        assert schema[option.name].default == option.written_default, option.name
        assert tuple(getattr(schema[option.name], "choices", ())) == option.choices, option.name


def _taken(name: str, value: Any) -> tuple[Any, ...]:
    try:
        return (getattr(settings_from_mapping({name: value}), name),)
    except ConfigError:
        return ()


@pytest.mark.parametrize("option", options(), ids=lambda o: o.name)
def test_mkdocs_config_takes_what_the_core_takes(option: Option) -> None:
    """What YAML can spell: MkDocs' check, then the core's (the plugin's on_config),
    end as the core alone does. MkDocs reads null as the default."""
    values = [True, "x", 5, 0, ["a/*"], [1], {"Guide": ["guide/*"]}, {"A": "b"}, None]
    for value in [*values, *option.choices]:
        if value is None and option.default is not None:
            continue
        config = AgentproseConfig()
        config.load_dict({option.name: value})
        errors, _ = config.validate()
        through_mkdocs = () if errors else _taken(option.name, config[option.name])
        assert through_mkdocs == _taken(option.name, value), (option.name, value)


class _Sphinx74:
    """``app.add_config_value`` as Sphinx 7.4 and later have it, recorded."""

    def __init__(self) -> None:
        self.values: dict[str, tuple[Any, ...]] = {}

    def add_config_value(self, name: str, default: Any, rebuild: str,
                         types: Any = (), description: str = "") -> None:
        self.values[name] = (default, rebuild, types, description)


class _Sphinx7(_Sphinx74):
    """And as Sphinx 7.0 to 7.3 have it: no description."""

    def add_config_value(self, name: str, default: Any, rebuild: str,  # type: ignore[override]
                         types: Any = ()) -> None:
        super().add_config_value(name, default, rebuild, types, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("app", [_Sphinx74(), _Sphinx7()], ids=["sphinx>=7.4", "sphinx<7.4"])
def test_sphinx_values_are_the_core_options(app: _Sphinx74) -> None:
    add_config_values(app)  # type: ignore[arg-type]
    assert list(app.values) == [PREFIX + o.name for o in options()] + [PREFIX + "base_url"]
    described = not isinstance(app, _Sphinx7)
    for option in options():
        default, rebuild, types, description = app.values[PREFIX + option.name]
        assert default == option.written_default, option.name
        assert types == option.kinds, option.name
        assert rebuild == ("" if option.name in {"workers", "cache"} else "html"), option.name
        assert description == (option.help if described else None), option.name


def test_the_recorders_have_sphinx_own_signature() -> None:
    theirs = list(inspect.signature(Sphinx.add_config_value).parameters)
    assert theirs in [list(inspect.signature(recorder.add_config_value).parameters)
                      for recorder in (_Sphinx74, _Sphinx7)]


def _docs_hook() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "docs" / "hooks" / "options.py"
    spec = importlib.util.spec_from_file_location("docs_options_hook", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("option", options(), ids=lambda o: o.name)
def test_every_documented_example_is_taken_by_mkdocs_sphinx_and_the_core(
    option: Option, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 40: docs/configuration.md showed `section_llms_txt: None`, which aborts MkDocs
    import yaml

    monkeypatch.chdir(tmp_path)  # where the preprocess example's file is
    (tmp_path / "agent_hooks.py").write_text("def tidy(element, url):\n    pass\n")

    hook = _docs_hook()
    value = hook.example(option)
    page = hook.options_table()
    mkdocs_line = f"- MkDocs: `{option.name}: "
    written = page.split(mkdocs_line, 1)[1].split("` under", 1)[0]
    assert yaml.safe_load(f"{option.name}: {written}") == {option.name: value}  # as shown
    config = AgentproseConfig()
    config.load_dict({option.name: value})
    errors, warnings = config.validate()
    assert (errors, warnings) == ([], []), (option.name, value)
    settings_from_mapping({option.name: value})
    sphinx_line = f"- Sphinx: `agentprose_{option.name} = {value!r}` in `conf.py`"
    assert sphinx_line in page
    assert isinstance(value, option.kinds), (option.name, value)


def test_the_generated_docs_in_the_repository_are_current() -> None:
    # issue 40: configuration.md and diagnostics.md showed only a placeholder on GitHub
    from pathlib import Path

    docs = Path(__file__).parent.parent / "docs"
    hook = _docs_hook()
    options_page = (docs / "configuration.md").read_text(encoding="utf-8")
    assert hook.refreshed(options_page, hook.BLOCK, hook.options_table()) == options_page, \
        "run: python docs/hooks/options.py"
    assert "### `section_llms_txt`" in options_page
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_diagnostics_hook",
                                                  docs / "hooks" / "diagnostics.py")
    assert spec is not None
    assert spec.loader is not None
    diagnostics = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(diagnostics)
    page = (docs / "diagnostics.md").read_text(encoding="utf-8")
    assert diagnostics.refreshed(page, diagnostics.BLOCK, diagnostics.diagnostics_table()) == \
        page, "run: python docs/hooks/diagnostics.py"
    assert "| `placeholder-leak` |" in page
