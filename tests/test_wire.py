"""What goes to a worker leaves the build tool's strings as they were."""

from __future__ import annotations

import dataclasses
import pickle
import sys

from agentprose_core.build.listings import ListingTask
from agentprose_core.build.pagewise import PageJob
from agentprose_core.parallel.speculative import Task
from agentprose_core.parallel.wire import from_wire, to_wire
from agentprose_core.records.metadata import PageFacts
from agentprose_core.settings import Settings


def _text(mark: str) -> str:
    # Built at run time: a literal would be a constant the compiler may have encoded.
    return "".join(f"<p>Crabs {mark} {number} \U0001f980 sous la roche.</p>"
                   for number in range(500))


def _unchanged_by_pickling(*texts: str, message: object) -> None:
    sizes = [sys.getsizeof(text) for text in texts]
    copy = pickle.loads(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy == message
    # CPython keeps a UTF-8 copy inside a non-ASCII str it pickles: none here.
    assert [sys.getsizeof(text) for text in texts] == sizes


def test_a_task_s_texts_do_not_grow_when_sent() -> None:
    fragment, source = _text("fragment"), _text("source")
    _unchanged_by_pickling(fragment, source, message=Task(fragment, "https://x.org/p/",
                                                          source, "key"))


def test_a_listing_task_s_page_does_not_grow_when_sent() -> None:
    page = _text("page")
    _unchanged_by_pickling(page, message=ListingTask(page, "https://x.org/blog/",
                                                     {"x.org/p": "https://x.org/p.md"},
                                                     Settings()))


def test_a_sphinx_page_s_body_does_not_grow_when_sent() -> None:
    body, tags = _text("body"), _text("tags")
    job = PageJob(docname="p", body=body, url="https://x.org/p/", markdown_url="https://x.org/p.md",
                  facts=PageFacts(), tool_title="Crabs é", modified=None, section=("Guide",),
                  prev=None, next=None, lang="fr", in_nav=True, metatags=tags)
    _unchanged_by_pickling(body, tags, message=job)
    assert dataclasses.asdict(pickle.loads(pickle.dumps(job))) == dataclasses.asdict(job)


def test_the_wire_form_round_trips_every_text() -> None:
    for text in ("", "ascii", "é", "\U0001f980", "\udcff lone surrogate", _text("x")):
        assert from_wire(to_wire(text)) == text
    assert to_wire("ascii") == "ascii"  # sent as it is: nothing to grow
