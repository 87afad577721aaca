"""Hosts without a server configuration: Netlify, Cloudflare Pages, Vercel."""

from __future__ import annotations

__all__ = ["cloudflare_headers", "netlify_headers"]


def netlify_headers(views: tuple[str, ...] = (), *, base_path: str = "/") -> str:
    return ""


def cloudflare_headers(*, base_path: str = "/") -> str:
    return ""
