"""The check's only way to the network: one origin, a request budget, a cache.

:class:`Client` never leaves the target's origin (a URL or redirect elsewhere is a
``http-off-origin`` problem, not a request), stops at a request budget and follows at
most five same-origin redirects. The transport is an injectable
:data:`~agentprose_core.reading.fetch.Fetch` function;
:func:`~agentprose_core.reading.fetch.urllib_fetch` is the default.
"""

from __future__ import annotations

import http.client
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from agentprose_core.reading.fetch import Fetch, HttpRequest, HttpResponse
from agentprose_core.urls import same_origin

if TYPE_CHECKING:
    from collections.abc import Mapping

    from agentprose_core.check.report import Report

__all__ = ["MAX_REDIRECTS", "Client"]

MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


class Client:
    """The only way the check reaches the network: one origin, a budget, a cache."""

    def __init__(self, origin: str, fetch: Fetch, *,
                 report: Report, timeout: float, max_requests: int) -> None:
        self.origin = origin
        self.fetch = fetch
        self.report = report
        self.timeout = timeout
        self.max_requests = max_requests
        self.skipped = 0
        self.cache: dict[tuple[str, str], HttpResponse | None] = {}
        self.refused: set[str] = set()

    def get(self, url: str, *, accept: str, extra: Mapping[str, str] | None = None,
            method: str = "GET") -> HttpResponse | None:
        """The answer for ``url`` after same-origin redirects, or None (reason reported).

        Plain GETs are cached per URL and ``Accept`` header.
        """
        key = (url, accept)
        if not extra and method == "GET" and key in self.cache:
            return self.cache[key]
        response = self._follow(url, {"Accept": accept, **(extra or {})}, method)
        if not extra and method == "GET":
            self.cache[key] = response
        return response

    def post(self, url: str, body: bytes, *, headers: Mapping[str, str]) -> HttpResponse | None:
        """A ``POST`` of ``body`` (an MCP call), never cached and never redirected."""
        return self._once(url, dict(headers), "POST", body)

    def cached(self, url: str, accept: str) -> HttpResponse | None:
        """The response already fetched for ``url`` with this ``Accept`` header, if any."""
        return self.cache.get((url, accept))

    def _follow(self, url: str, headers: dict[str, str], method: str) -> HttpResponse | None:
        for _ in range(MAX_REDIRECTS + 1):
            response = self._once(url, headers, method)
            location = response.header("location") if response else ""
            if response is None or response.status not in _REDIRECTS or not location:
                return response
            url = urljoin(url, location)
        self.report.add("http-error", url, f"more than {MAX_REDIRECTS} redirects")
        return None

    def _once(self, url: str, headers: dict[str, str], method: str,
              body: bytes | None = None) -> HttpResponse | None:
        if not same_origin(url, self.origin):
            if url not in self.refused:
                self.refused.add(url)
                self.report.add("http-off-origin", url, f"not fetched: not on {self.origin}")
            return None
        if self.report.requests >= self.max_requests:
            self.skipped += 1
            return None
        self.report.requests += 1
        try:
            response = self.fetch(HttpRequest(method, url, dict(headers), self.timeout, body))
        except (OSError, http.client.HTTPException, ValueError) as error:
            self.report.add("http-error", url, f"{type(error).__name__}: {error}")
            return None
        return HttpResponse(response.status, url, response.headers, response.body)
