"""Our worker processes: answers in order, failures redone here, no hang on a crash."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

from agentprose_core.extract.page import LARGE_NAV, without_large_navs
from agentprose_core.parallel.pool import Failed, WorkerPool, run_all, run_all_while


def _square(state: dict[str, Any], number: int) -> int:
    return number * number + state.get("offset", 0)


def _remember(state: dict[str, Any], offset: int) -> None:
    state["offset"] = offset


def _fail_in_a_worker(state: dict[str, Any], number: int) -> int:
    if "worker" in state:
        raise ValueError(number)
    return -number


def _mark(state: dict[str, Any]) -> None:
    state["worker"] = True


def _pid(_state: object) -> int:
    return os.getpid()


def test_answers_come_back_in_order_from_every_worker() -> None:
    pool = WorkerPool(2, dict)
    try:
        assert run_all(pool, _square, [(n,) for n in range(40)]) == [n * n for n in range(40)]
        pool.broadcast(_remember, 1000)  # every worker, ahead of what follows
        assert run_all(pool, _square, [(n,) for n in range(10)]) == [n * n + 1000
                                                                     for n in range(10)]
        tickets = pool.broadcast(_pid)
        answers = pool.gather()
        pids = {answers[ticket] for ticket in tickets}
        assert len(pids) == 2
        assert os.getpid() not in pids
    finally:
        pool.close()


def test_released_workers_answer_what_they_were_sent_then_end_by_themselves() -> None:
    pool = WorkerPool(2, dict)
    try:
        tickets = [pool.submit(_square, n) for n in range(6)]
        processes = [worker.process for worker in pool._workers]
        pool.release()
        answers = pool.gather()
        assert [answers[ticket] for ticket in tickets] == [n * n for n in range(6)]
        for process in processes:
            assert process.wait(timeout=10) == 0  # ended with nothing more sent
    finally:
        pool.close()  # finds them gone


def test_a_task_that_raises_is_redone_in_this_process() -> None:
    pool = WorkerPool(1, dict)
    try:
        pool.broadcast(_mark)
        ticket = pool.submit(_fail_in_a_worker, 3)
        assert isinstance(pool.gather()[ticket], Failed)
        assert run_all(pool, _fail_in_a_worker, [(1,), (2,)], state={}) == [-1, -2]
    finally:
        pool.close()


def test_a_killed_worker_fails_its_tasks_and_nothing_hangs() -> None:
    pool = WorkerPool(2, dict)
    try:
        tickets = pool.broadcast(_pid)
        answers = pool.gather()
        os.kill(answers[tickets[0]], signal.SIGKILL)
        assert run_all(pool, _square, [(n,) for n in range(8)], state={}) == [
            n * n for n in range(8)]
    finally:
        pool.close()


def test_work_here_overlaps_the_workers_and_answers_stay_in_order() -> None:
    calls = [(n,) for n in range(30)]
    pool = WorkerPool(2, dict)
    try:
        pids, here = run_all_while(pool, _pid, [()] * 8, os.getpid)
        assert here == os.getpid()
        assert here not in pids
        assert run_all_while(pool, _square, calls, lambda: "done") == (
            [n * n for n in range(30)], "done")
    finally:
        pool.close()
    assert run_all_while(None, _square, calls, lambda: "done", state={"offset": 1}) == (
        [n * n + 1 for n in range(30)], "done")


def test_without_a_pool_everything_runs_here() -> None:
    assert run_all(None, _square, [(2,), (3,)], state={}) == [4, 9]


def test_large_navs_are_emptied_and_nothing_else_changes() -> None:
    items = "<li><a href='/p/'>page</a></li>" * (LARGE_NAV // 20)
    page = (
        '<html><head><script>let s = "<nav>";</script><style>nav{}</style></head><body>'
        f'<nav class="md-nav md-nav--primary"><ul>{items}<nav>inner</nav></ul></nav>'
        '<nav-bar>custom element</nav-bar><nav aria-label="breadcrumb">Home</nav>'
        "<!-- <nav> --><main><p>Content</p></main></body></html>"
    )
    cut = without_large_navs(page)
    assert cut == page.replace(f"<ul>{items}<nav>inner</nav></ul>", "")
    assert without_large_navs(cut) == cut
    unbalanced = page.replace("</nav><nav-bar>", "<nav-bar>", 1)
    assert without_large_navs(unbalanced) == unbalanced  # never closed: kept as it is


def _wait_for(state: dict[str, Any], path: str) -> str:
    while not Path(path).exists():
        time.sleep(0.01)
    return path


def test_answered_takes_what_has_come_and_waits_only_when_asked(tmp_path: Path) -> None:
    pool = WorkerPool(1, dict)
    go = str(tmp_path / "go")
    try:
        quick = pool.submit(_square, 3)
        assert pool.answered(wait=True) == {quick: 9}  # waits for the one it has
        held = pool.submit(_wait_for, go)
        assert pool.answered() == {}  # the worker is still on it: nothing, at once
        Path(go).touch()
        assert pool.answered(wait=True) == {held: go}
        assert pool.answered(wait=True) == {}  # nothing is outstanding: no wait
        assert pool.alive
        ticket = pool.submit(_pid)
        os.kill(pool.gather()[ticket], signal.SIGKILL)
        lost = pool.submit(_square, 4)
        assert isinstance(pool.gather()[lost], Failed)
        assert not pool.alive
    finally:
        pool.close()


def _appears(_state: object, path: str, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not Path(path).exists():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_done_is_told_of_each_call_as_it_finishes(tmp_path: Path) -> None:
    calls = [(n,) for n in range(20)]
    told: list[int] = []
    assert run_all(None, _square, calls, state={}, done=told.append) == [n * n for n in range(20)]
    assert told == list(range(1, 21))
    go = tmp_path / "go"

    def first_done(count: int) -> None:
        told.append(count)
        go.touch()

    pool = WorkerPool(2, dict)
    try:
        told.clear()  # the second task waits for the first to be told done
        assert run_all(pool, _appears, [(str(tmp_path), 0), (str(go), 10)],
                       done=first_done) == [True, True]
        assert told == [1, 2]
        told.clear()
        assert run_all_while(pool, _square, calls, lambda: "here", done=told.append) == (
            [n * n for n in range(20)], "here")
        assert told == list(range(1, 21))
        told.clear()
        pool.broadcast(_mark)  # each task raises in a worker: told once redone here
        assert run_all(pool, _fail_in_a_worker, calls, state={}, done=told.append) == [
            -n for n in range(20)]
        assert told == list(range(1, 21))
    finally:
        pool.close()
