"""Where a site's MCP endpoint is, for agents (issue 44): with ``mcp_endpoint`` set the
build writes an MCP Server Card (at SEP-2127's path and SEP-1649's), an Agent Skills
index with the skill's ``SKILL.md`` (digests as the discovery RFC computes them) and a
line in the root ``llms.txt`` in the site's language; a site under a sub-path gets no
well-known file and a note that says why; without the setting, nothing of it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
import yaml
from llms_txt import parse_llms_file

from agentprose_core.check.checker import check_target
from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.phrases import phrases_for
from agentprose_core.render.discovery import (
    MCP_JSON_NAME,
    MCP_PROTOCOL_VERSIONS,
    SERVER_CARD_NAME,
    SKILLS_INDEX_NAME,
    discovery_files,
    tool_list,
)
from agentprose_core.render.index import check_pages
from agentprose_core.render.llmstxt import render_llms_txt
from agentprose_core.version import __version__

from .test_search_file import built  # noqa: F401  (the built sites, mcp_endpoint /mcp)

ROOT = Path(__file__).resolve().parent.parent
ENDPOINT = "https://docs.example/mcp"
SKILL_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9]|-(?!-)){0,62}[a-z0-9]$|^[a-z0-9]$")


def test_the_server_card(built: Path) -> None:  # noqa: F811
    card = json.loads((built / SERVER_CARD_NAME).read_text(encoding="utf-8"))
    assert (built / MCP_JSON_NAME).read_bytes() == (built / SERVER_CARD_NAME).read_bytes()
    assert card["remotes"] == [{"type": "streamable-http", "url": ENDPOINT,
                                "supportedProtocolVersions": list(MCP_PROTOCOL_VERSIONS)}]
    assert card["tools"] == tool_list()
    assert card["capabilities"] == {"tools": {"listChanged": False}}
    assert card["version"] == __version__
    assert re.fullmatch(r"example\.docs/[a-z0-9-]+", card["name"]), card["name"]
    assert card["websiteUrl"] == "https://docs.example/"
    assert len(card["description"]) <= 100
    index = json.loads((built / "agentprose.json").read_text(encoding="utf-8"))
    assert card["title"] == index["site"]["name"]


def test_the_agent_skill_and_its_digests(built: Path) -> None:  # noqa: F811
    index = json.loads((built / SKILLS_INDEX_NAME).read_text(encoding="utf-8"))
    assert index["version"] == "0.2.0"
    [skill] = index["skills"]
    assert SKILL_NAME.match(skill["name"]), skill["name"]
    folder = built / ".well-known" / "agent-skills" / skill["name"]
    assert sorted(p.name for p in folder.iterdir()) == ["SKILL.md"]
    data = (folder / "SKILL.md").read_bytes()
    hex_digest = hashlib.sha256(data).hexdigest()
    assert skill["files"] == [{"path": "SKILL.md", "digest": "sha256:" + hex_digest}]
    manifest = b"SKILL.md\0" + hex_digest.encode() + b"\n"
    assert skill["digest"] == "sha256:" + hashlib.sha256(manifest).hexdigest()
    text = data.decode("utf-8")
    front = yaml.safe_load(text.split("---\n")[1])
    assert front == {"name": skill["name"], "description": skill["description"]}
    assert len(front["description"]) <= 1024
    assert f"`{ENDPOINT}`" in text
    assert "`https://docs.example/llms.txt`" in text
    for tool in tool_list():
        assert f"- `{tool['name']}`: " in text
    posts = json.loads((built / "agentprose.json").read_text(encoding="utf-8"))["posts"]
    assert f"`{posts[1]['url']}` has `{posts[1]['markdown_url']}`" in text


def test_llms_txt_names_the_endpoint_and_still_parses(built: Path) -> None:  # noqa: F811
    text = (built / "llms.txt").read_text(encoding="utf-8")
    line = f"{phrases_for('en').llms_mcp} {ENDPOINT}"
    assert f"\n\n{line}\n" in text
    parsed = parse_llms_file(text)
    assert line in parsed.info
    assert all(link["url"] != ENDPOINT for links in parsed.sections.values()
               for link in links)


def test_the_checker_passes_the_site(built: Path) -> None:  # noqa: F811
    report = check_target(str(built), base_url="https://docs.example/")
    assert report.ok, report.to_text()


def _site(url: str, lang: str = "en") -> tuple[SiteRecord, list[PageRecord]]:
    site = SiteRecord(name="Shore notes", url=url, lang=lang)
    page = PageRecord(url=url, markdown_url=url + "index.md", title="Shore notes",
                      markdown="# Shore notes\n\nTides.\n", modified="2026-03-14T10:30:00Z")
    kept, _ = check_pages(site, [page])
    return site, kept


def test_a_site_under_a_sub_path_gets_a_note_instead() -> None:
    site, _ = _site("https://coast.example/docs/")
    found, notes = discovery_files(site, [], "https://coast.example/docs/mcp", version="1")
    assert found == {}
    [note] = notes
    assert (note.code, note.severity) == ("mcp-discovery", "info")
    assert "https://coast.example/docs/mcp" in note.message


@pytest.mark.parametrize("lang", ["fr", "ja", "de"])
def test_the_llms_txt_line_is_in_the_sites_language(lang: str) -> None:
    site, pages = _site("https://coast.example/", lang)
    words = phrases_for(lang)
    text = render_llms_txt(site, pages, phrases=words, mcp_endpoint=ENDPOINT)
    assert f"{words.llms_mcp} {ENDPOINT}\n" in text
    assert words.llms_mcp != phrases_for("en").llms_mcp
    assert render_llms_txt(site, pages, phrases=words) == text.replace(
        f"\n\n{words.llms_mcp} {ENDPOINT}", "")


def test_the_endpoints_speak_the_versions_the_card_names() -> None:
    source = (ROOT / "agentprose_core" / "mcp" / "static" / "endpoint.mjs").read_text(
        encoding="utf-8")
    found = re.search(r"const VERSIONS = (\[[^\]]*\]);", source)
    assert found is not None
    assert tuple(json.loads(found[1])) == MCP_PROTOCOL_VERSIONS


def test_without_an_endpoint_no_discovery(tmp_path: Path) -> None:
    from agentprose_core.output.publish import publish
    from agentprose_core.settings import settings_from_mapping

    site, pages = _site("https://coast.example/")
    plain = publish(tmp_path / "plain", site, pages, settings=settings_from_mapping({}),
                    generator="test")
    assert not (tmp_path / "plain" / ".well-known").exists()
    assert not any("mcp" in name or "well-known" in name for name in plain.files)
    served = publish(tmp_path / "served", site, pages, generator="test",
                     settings=settings_from_mapping({"mcp_endpoint": "/mcp"}))
    assert set(served.files) - set(plain.files) == {
        "agentprose-search.json", SERVER_CARD_NAME, MCP_JSON_NAME, SKILLS_INDEX_NAME,
        ".well-known/agent-skills/shore-notes-docs/SKILL.md"}
    for name in plain.files:
        if name != "llms.txt":
            assert (tmp_path / "plain" / name).read_bytes() == \
                (tmp_path / "served" / name).read_bytes(), name
