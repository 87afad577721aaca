from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings


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


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return Path(__file__).parent / "roots"


# `make test` runs a bounded number of examples; `make fuzz` many more.
hypothesis_settings.register_profile("default", max_examples=150, deadline=None)
hypothesis_settings.register_profile("fuzz", max_examples=5000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("AGENTPROSE_HYPOTHESIS", "default"))
