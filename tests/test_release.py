"""The memory a build freed goes back to the system before the index builders run."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

from agentprose_core.build.release import release_freed_memory

GLIBC = sys.platform == "linux" and platform.libc_ver()[0] == "glibc"

# Records' Markdown is thousands of blocks of a few KiB, freed between smaller ones that
# live on (MkDocs' pages): the C heap cannot shrink from its top by itself.
_FRAGMENTED_HEAP = """
import os
from agentprose_core.build.release import release_freed_memory

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

kept, freed = [], []
for number in range(4000):
    freed.append("x" * 9000 + str(number))
    kept.append("y" * 600 + str(number))
del freed
before = rss()
release_freed_memory()
print(before, rss())
"""


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's; other C libraries give "
                    "memory back by themselves")
def test_freed_records_leave_the_resident_set() -> None:
    done = subprocess.run([sys.executable, "-c", _FRAGMENTED_HEAP], capture_output=True,
                          text=True, check=True, cwd=Path(__file__).parent.parent)
    before, after = map(float, done.stdout.split())
    assert before - after > 20, (before, after)  # 36 MiB freed, in blocks of 9 KB


def test_it_is_harmless_where_the_c_library_has_no_trim() -> None:
    assert release_freed_memory() is GLIBC
