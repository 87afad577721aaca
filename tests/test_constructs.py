"""Media, unknown constructs and the preprocess hook."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.errors import ConfigError, InputError
from agentprose_core.settings import Settings, settings_from_mapping

if TYPE_CHECKING:
    from pathlib import Path

PAGE = "https://docs.example.org/p/"


def convert(html: str, settings: Settings | None = None) -> tuple[str, list[str]]:
    result = convert_fragment(html, page_url=PAGE, site_map={}, settings=settings or Settings())
    return result.markdown, [d.code for d in result.diagnostics]


def test_media_become_links() -> None:
    markdown, notes = convert('<video src="demo.mp4" title="Demo"></video>'
                              '<iframe src="https://video.example/embed/1"></iframe>'
                              '<audio><source src="tide.ogg"></audio>')
    assert markdown == ("[Demo](https://docs.example.org/p/demo.mp4)\n\n"
                        "[iframe](https://video.example/embed/1)\n\n"
                        "[audio](https://docs.example.org/p/tide.ogg)\n")
    assert notes == []


def test_unknown_construct_keeps_text_and_warns_once_per_kind() -> None:
    markdown, notes = convert("<p>Before <tidechart>low at 6</tidechart> and "
                              "<tidechart>high at 12</tidechart>.</p>")
    assert markdown == "Before low at 6 and high at 12.\n"
    assert notes == ["unknown-construct"]


def test_an_empty_unknown_element_loses_nothing_and_says_nothing() -> None:
    # mkdocstrings' <backlinks> placeholder, with an autorefs too old to fill it in
    markdown, notes = convert('<p>Text.</p><backlinks identifier="pkg.X" handler="python">'
                              "</backlinks>")
    assert markdown == "Text.\n"
    assert notes == []


def test_custom_elements_and_tag_looking_text_are_noted_not_warned() -> None:
    from agentprose_core.convert.fragment import convert_fragment
    from agentprose_core.settings import Settings

    # PyScript's <py-script> (MyST's docs); an object repr mkautodoc left unescaped (httpx)
    result = convert_fragment("<p><py-script>print(1)</py-script> <httpx._client.usedefault "
                              "object>x</httpx._client.usedefault></p>",
                              page_url="https://x.example/", site_map={}, settings=Settings())
    assert [(d.code, d.severity) for d in result.diagnostics] == [
        ("unknown-construct", "info"), ("unknown-construct", "info")]


HOOK = '''
def drop_banners(element, url):
    for banner in element.findall(".//div[@class='banner']"):
        banner.getparent().remove(banner)
    element.set("data-seen", url)


def broken(element, url):
    raise RuntimeError("boom")
'''


@pytest.fixture
def hook_file(tmp_path: Path) -> Path:
    path = tmp_path / "agent_hooks.py"
    path.write_text(HOOK)
    return path


def test_preprocess_from_a_file(hook_file: Path) -> None:
    settings = settings_from_mapping({"preprocess": f"{hook_file}:drop_banners"})
    markdown, _ = convert('<div class="banner"><p>Sale!</p></div><p>Docs.</p>', settings)
    assert markdown == "Docs.\n"


def test_preprocess_failure_names_the_page(hook_file: Path) -> None:
    settings = settings_from_mapping({"preprocess": f"{hook_file}:broken"})
    with pytest.raises(InputError, match=r"failed on https://docs.example.org/p/: RuntimeError"):
        convert("<p>x</p>", settings)


@pytest.mark.parametrize(("path", "message"), [
    ("no_colon", "must look like 'package.module:function'"),
    ("not_a_module_anywhere:run", "cannot import 'not_a_module_anywhere'"),
    ("json:no_such_function", "'json' has no function 'no_such_function'"),
    ("missing/file.py:run", "no such file"),
])
def test_bad_preprocess_is_a_config_error(path: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        settings_from_mapping({"preprocess": path})


def test_ignore_markers() -> None:
    markdown, _ = convert('<p>Keep.</p><div data-ignore><p>Drop 1.</p></div>'
                          '<p class="agentprose-ignore">Drop 2.</p><p>Also keep.</p>')
    assert markdown == "Keep.\n\nAlso keep.\n"
