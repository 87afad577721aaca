"""The rules both targets of ``agentprose check`` run, in order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.check.endpoint import check_mcp_files
from agentprose_core.check.llmsrules import check_llms, check_llms_full
from agentprose_core.check.rules import SiteCheck, check_discovery, check_posts, check_views

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["SHARED_CHECKS"]

SHARED_CHECKS: tuple[Callable[[SiteCheck], None], ...] = (
    check_posts,
    check_views,
    check_llms,
    check_llms_full,
    check_discovery,
    check_mcp_files,
)
