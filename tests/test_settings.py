"""One declaration of every option; bad values are clear errors."""

from __future__ import annotations

import dataclasses

import pytest

from agentprose_core.errors import ConfigError
from agentprose_core.settings import _KIND, Settings, options, settings_from_mapping


def test_every_option_has_help_and_a_type_check() -> None:
    names = [o.name for o in options()]
    assert names == [f.name for f in dataclasses.fields(Settings)]
    assert set(names) == set(_KIND)
    for option in options():
        assert option.help.strip().endswith("."), option.name


def test_defaults_are_valid_values() -> None:
    values = {o.name: o.default for o in options()}
    assert settings_from_mapping(values) == Settings()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"converter": "pandoc"}, "'converter' must be one of 'html-to-markdown', 'markdownify'"),
        ({"enabled": "yes"}, "'enabled' must be true or false"),
        ({"exclude": "drafts/*"}, "'exclude' must be a list of strings"),
        ({"exclude": [1]}, "'exclude' must be a list of strings"),
        ({"view_layout": "flat"}, "'view_layout' must be one of"),
        ({"bogus": 1}, "Unknown agentprose option(s): bogus"),
    ],
)
def test_bad_values_say_what_to_change(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        settings_from_mapping(values)
    assert message in str(info.value)


def test_exclude_becomes_a_tuple() -> None:
    assert settings_from_mapping({"exclude": ["a/*"]}).exclude == ("a/*",)


def test_configuration_reference_has_an_example_for_every_option() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "docs" / "hooks" / "options.py"
    spec = importlib.util.spec_from_file_location("docs_options", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module._EXAMPLES) == {o.name for o in options()}
    reference = module.options_table()
    for option in options():
        assert f"### `{option.name}`" in reference
        assert f"agentprose_{option.name} = " in reference
    settings_from_mapping({name: (tuple(v) if isinstance(v, list) else v)
                           for name, v in module._EXAMPLES.items()
                           if name != "preprocess"})
