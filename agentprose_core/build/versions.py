"""``agentprose versions``: the agent surface of a site deployed one folder per version
(mike's ``gh-pages`` tree), written at its root after every deploy.

Each version's own build wrote its complete outputs in its folder. The root gets the
default version's map — its ``agentprose.json`` (the same posts, under the root's
site URL), ``llms.txt`` and ``llms-full.txt`` — and the root ``llms.txt`` ends with a
``## Versions`` section that links every version's ``llms.txt``, aliases named. Every
view of another version that the default version also has gains ``latest:``, the URL
of that page in the default version. Running it again gives the same files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from agentprose_core.errors import InputError
from agentprose_core.files import update_in_place, write_atomic
from agentprose_core.model import INDEX_NAME, LLMS_FULL_NAME, LLMS_NAME, VERSIONS_SECTION
from agentprose_core.phrases import Phrases, phrases_for
from agentprose_core.render.jsontext import dumps_indented
from agentprose_core.render.view import quote
from agentprose_core.urls import base_url_of, output_path
from agentprose_core.viewsize import view_size

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Version", "VersionsWritten", "read_versions", "write_versions"]

VERSIONS_FILE = "versions.json"


@dataclass(frozen=True)
class Version:
    """One deployed version: its folder's name, its title and its aliases."""

    name: str
    title: str
    aliases: tuple[str, ...] = ()


@dataclass
class VersionsWritten:
    """What :func:`write_versions` wrote, and the version it took as the default."""

    default: str
    files: list[str] = field(default_factory=list)
    views_dated: int = 0  # views of other versions that now name their latest page


def read_versions(root: Path) -> list[Version]:
    """The versions mike lists in ``versions.json`` at ``root``, newest first. Raises
    :class:`InputError` when there is none or it is not mike's list."""
    path = root / VERSIONS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{root} has no {VERSIONS_FILE}: give the root of a tree that "
                         "mike deployed (a checkout of its gh-pages branch).") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path} cannot be read as mike's list of versions: {error}") from None
    if not isinstance(data, list) or not all(isinstance(item, dict) and
                                             isinstance(item.get("version"), str)
                                             for item in data):
        raise InputError(f"{path} is not mike's list of versions.")
    return [Version(str(item["version"]), str(item.get("title") or item["version"]),
                    tuple(str(alias) for alias in item.get("aliases") or ()))
            for item in data]


_REDIRECT = re.compile(r"""url=([^"'>\s]+)""")


def _default_of(root: Path, versions: list[Version]) -> str:
    """The version the root redirects to (``mike set-default``), else the newest."""
    try:
        found = _REDIRECT.search((root / "index.html").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        found = None
    target = found.group(1).strip("./") if found else ""
    for version in versions:
        if target in (version.name, *version.aliases):
            return version.name
    return versions[0].name


def write_versions(root: Path, *, default: str | None = None) -> VersionsWritten:
    """Write the root's agent files for the versions deployed under ``root`` and the
    ``latest`` field of the other versions' views. Raises :class:`InputError` when the
    default version has no agent outputs (a version built without agentprose)."""
    versions = read_versions(root)
    chosen = default or _default_of(root, versions)
    if chosen not in {version.name for version in versions}:
        raise InputError(f"{chosen!r} is not a version in {root / VERSIONS_FILE}.")
    index = _index(root / chosen)
    version_base = base_url_of(str(index["site"]["url"]))
    if not version_base.endswith(f"/{chosen}/"):
        raise InputError(f"{root / chosen / INDEX_NAME} names the site {version_base}, "
                         f"not a folder named {chosen}: build it with mike deploy.")
    base = version_base[: -len(chosen) - 1]
    written = VersionsWritten(chosen)
    site = {**index["site"], "url": base}
    root_index = {**index, "site": site}
    _emit(root, INDEX_NAME, dumps_indented(root_index) + "\n", written)
    llms = (root / chosen / LLMS_NAME).read_text(encoding="utf-8")
    words = phrases_for(site.get("lang") if isinstance(site.get("lang"), str) else None)
    _emit(root, LLMS_NAME,
          llms.rstrip("\n") + "\n" + _versions_section(versions, chosen, base, words), written)
    full = root / chosen / LLMS_FULL_NAME
    if full.is_file():
        _emit(root, LLMS_FULL_NAME, full.read_text(encoding="utf-8"), written)
    views = _views(root / chosen, version_base)
    for version in versions:
        if (root / version.name / INDEX_NAME).is_file():  # the default's: none (it moved)
            written.views_dated += _date_views(root / version.name, f"{base}{version.name}/",
                                               views if version.name != chosen else {})
    return written


def _index(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{folder} has no readable {INDEX_NAME} ({error}): build the "
                         "version with agentprose in its plugins.") from None
    if not isinstance(data, dict) or not isinstance(data.get("site"), dict) \
            or not isinstance(data.get("posts"), list):
        raise InputError(f"{folder / INDEX_NAME} is not an agentprose index.")
    return data


def _versions_section(versions: list[Version], default: str, base: str,
                      words: Phrases) -> str:
    lines = ["", f"## {VERSIONS_SECTION}", ""]
    for version in versions:
        named = ", ".join(version.aliases)
        title = version.title + (f" ({named})" if named else "")
        note = f": {words.versions_default}" if version.name == default else ""
        lines.append(f"- [{title}]({base}{version.name}/{LLMS_NAME}){note}")
    return "\n".join(lines) + "\n"


def _emit(root: Path, name: str, text: str, written: VersionsWritten) -> None:
    write_atomic(root / name, text)
    written.files.append(name)


def _views(folder: Path, base: str) -> dict[str, str]:
    """The default version's pages by their path under its folder: page URL."""
    posts = _index(folder)["posts"]
    return {post["url"][len(base):]: post["url"] for post in posts
            if isinstance(post, dict) and isinstance(post.get("url"), str)
            and post["url"].startswith(base)}


def _date_views(folder: Path, base: str, latest: dict[str, str]) -> int:
    """Name, in each view of the version in ``folder``, the same page in the default
    version (``latest:``) where it has one; the number of views it names one in."""
    dated, index = 0, _index(folder)
    resized = False
    for post in index["posts"]:
        url, view = post.get("url"), post.get("markdown_url")
        if not (isinstance(url, str) and isinstance(view, str) and url.startswith(base)):
            continue
        target = latest.get(url[len(base):])
        path = folder / output_path(view, base)
        if path.is_file():
            update_in_place(path, partial(_with_latest, target=target))
            dated += target is not None
            resized |= _resize(post, path)
    if resized:  # the index gives each view's size: the view's, with its latest: line
        write_atomic(folder / INDEX_NAME, dumps_indented(index) + "\n")
    return dated


def _resize(post: dict[str, Any], view: Path) -> bool:
    """Set the post's ``size`` to its view's (if it gives one); True when it changed."""
    if not isinstance(post.get("size"), dict):
        return False
    size = view_size(view.read_text(encoding="utf-8"))
    given = {"characters": size.characters, "tokens": size.tokens}
    changed: bool = post["size"] != given
    post["size"] = given
    return changed


_BEFORE_LATEST = ("title:", "canonical:", "modified:", "published:", "author:", "  - \"",
                  "lang:", "version:")


def _with_latest(document: bytes, *, target: str | None) -> bytes | None:
    """A view with its ``latest:`` line set to ``target`` (removed when None), in the
    front matter's key order; None when it has no front matter to change."""
    text = document.decode("utf-8")
    if not text.startswith("---\n"):
        return None
    head, closed, body = text[4:].partition("\n---\n")
    if not closed:
        return None
    lines = [line for line in head.split("\n") if not line.startswith("latest:")]
    if target is not None:
        at = max((number + 1 for number, line in enumerate(lines)
                  if line.startswith(_BEFORE_LATEST)), default=len(lines))
        lines.insert(at, f"latest: {quote(target)}")
    changed = "---\n" + "\n".join(lines) + closed + body
    return None if changed == text else changed.encode("utf-8")
