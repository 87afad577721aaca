"""Giving the memory a build's records held back to the system once they are written.

MkDocs runs its search plugin (and others that build an index of every page) after
our ``on_post_build``: that is the peak of a build's memory. The records we free
before it stay in the C heap (the workers' answers were unpickled by the pool's reader
threads, in a malloc arena of their own), which the C library keeps for later
``malloc`` calls there; the index's strings get new pages from the system instead, so
without this the freed records still count in the peak (12 MiB on a 1,000-page site).
``malloc_trim`` hands the heap's free pages back.
"""

from __future__ import annotations

__all__ = ["release_freed_memory"]


def release_freed_memory() -> bool:
    """Return the C heap's free pages to the system; False where the C library has no
    ``malloc_trim`` (it is glibc's: musl, macOS and Windows give memory back alone)."""
    import ctypes  # only here: most of a build never needs it

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # no such symbol; no C library handle
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)
    return True
