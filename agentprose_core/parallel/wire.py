"""Text sent to the worker processes as UTF-8 bytes rather than as ``str``.

Pickling a ``str`` that is not all ASCII makes CPython keep a UTF-8 copy inside the
string for as long as the string lives. The build tool holds each page's content and
source for the whole build, so pickled as they are they would take up to three times
their size in its process (Material for MkDocs' docs: +3.5 MiB at the peak). Encoded
here, the copy is a ``bytes`` object that goes once it is sent."""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["WiredTexts", "from_wire", "to_wire"]


def to_wire(text: str) -> str | bytes:
    """``text`` as it can be pickled without growing: itself when ASCII, else UTF-8."""
    return text if text.isascii() else text.encode("utf-8", "surrogatepass")


def from_wire(value: str | bytes) -> str:
    """The text :func:`to_wire` was given."""
    return value if isinstance(value, str) else value.decode("utf-8", "surrogatepass")


class WiredTexts:
    """For the frozen dataclasses sent to workers: the fields named in ``wired`` are
    pickled through :func:`to_wire` and read back through :func:`from_wire`."""

    wired: ClassVar[tuple[str, ...]] = ()

    def __getstate__(self) -> dict[str, Any]:
        return {name: to_wire(value) if name in self.wired else value
                for name, value in vars(self).items()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update({name: from_wire(value) if name in self.wired else value
                           for name, value in state.items()})
