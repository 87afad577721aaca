from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sphinx
from hypothesis import settings as hypothesis_settings

if TYPE_CHECKING:
    from collections.abc import Callable


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=os.environ.get("AGENTPROSE_REGEN_GOLDEN") == "1",
        help="Rewrite the golden .md files from the current converter (review the diff!).",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regen-golden"))


pytest_plugins = ("sphinx.testing.fixtures",)


if sphinx.version_info < (7, 2):
    # Sphinx 7.0 and 7.1's test app takes its folders as sphinx.testing.path.path only
    # (pathlib.Path from 7.2 on); `make test-lowest` runs the tests on Sphinx 7.0.
    @pytest.fixture
    def make_app(make_app: Callable[..., Any]) -> Callable[..., Any]:
        from sphinx.testing.path import path

        def make(*args: Any, srcdir: Path | None = None, **kwargs: Any) -> Any:
            return make_app(*args, srcdir=None if srcdir is None else path(srcdir), **kwargs)

        return make


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


# `make test` runs a bounded number of examples; `make fuzz` many more.
hypothesis_settings.register_profile("default", max_examples=150, deadline=None)
hypothesis_settings.register_profile("fuzz", max_examples=5000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("AGENTPROSE_HYPOTHESIS", "default"))


# The neighbours' matrix needs the plugins pinned in .ci/ecosystem.txt, in a venv of its
# own: `make test-ecosystem` runs it (and sets this), `make test` leaves it out.
collect_ignore = [] if os.environ.get("AGENTPROSE_ECOSYSTEM") == "1" else ["ecosystem"]
