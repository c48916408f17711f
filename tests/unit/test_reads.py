"""The shared endpoint lists: single flight, cache and invalidation by writes, raced with threads.

Every interleaving is forced with events and by waiting for the cache's own counters (a reader
joined, a reader held back), never by sleeping: each test has one possible order of events.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from apinizer_pulumi.resources._reads import ListCache

KEY = ("http://gw", "Demo", "PetStore")
WHO = "account"


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for a state the test forces; the bound only turns a hang into a failure."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.001)


class Gate:
    """A list call that blocks until released, answering a given value; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, value: list[str]) -> Callable[[], list[str]]:
        def fetch() -> list[str]:
            self.calls += 1
            self.started.set()
            assert self.release.wait(10)
            return value

        return fetch


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(8) as executor:
        yield executor


def joined(cache: ListCache[Any]) -> int | None:
    return cache.snapshot(KEY, WHO)[3]


def test_concurrent_reads_share_one_list(pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    gate = Gate()
    first = pool.submit(cache.get, KEY, WHO, gate(["a"]))
    assert gate.started.wait(10)
    others = [pool.submit(cache.get, KEY, WHO, gate(["other"])) for _ in range(5)]
    until(lambda: joined(cache) == 5, "five readers joined the list in flight")

    gate.release.set()

    assert [f.result() for f in (first, *others)] == [["a"]] * 6
    assert gate.calls == 1
    assert cache.get(KEY, WHO, gate(["later"])) == ["a"]  # cached
    assert gate.calls == 1


def test_a_read_after_an_acknowledged_write_never_joins_an_older_list(pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    old, new = Gate(), Gate()
    before = pool.submit(cache.get, KEY, WHO, old(["before the write"]))
    assert old.started.wait(10)
    with cache.writing(KEY):
        pass  # acknowledged while the older list is on the way

    new.release.set()
    after = cache.get(KEY, WHO, new(["after the write"]))

    assert after == ["after the write"]
    old.release.set()
    # The reader that began before the write may take the older answer ...
    assert before.result() == ["before the write"]
    # ... but the cache keeps only the newer one, even though the older one finished last.
    assert cache.get(KEY, WHO, Gate()(["unused"])) == ["after the write"]
    assert (old.calls, new.calls) == (1, 1)


def test_a_write_drops_the_cached_list() -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    assert cache.get(KEY, WHO, lambda: ["v1"]) == ["v1"]
    with cache.writing(KEY):
        pass
    assert cache.get(KEY, WHO, lambda: ["v2"]) == ["v2"]


def test_a_write_by_another_account_also_invalidates() -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    cache.get(KEY, WHO, lambda: ["mine"])
    with cache.writing(KEY):  # whichever client wrote: the proxy changed for every reader
        pass
    assert cache.get(KEY, WHO, lambda: ["fresh"]) == ["fresh"]
    assert cache.get(KEY, "other account", lambda: ["theirs"]) == ["theirs"]


def test_a_failed_write_counts_too() -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    cache.get(KEY, WHO, lambda: ["v1"])
    with pytest.raises(RuntimeError), cache.writing(KEY):
        raise RuntimeError("no answer: the write may have happened")
    assert cache.get(KEY, WHO, lambda: ["v2"]) == ["v2"]


def test_a_new_list_waits_for_the_writes_in_flight_and_serves_them(pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60)
    in_write, finish_write = threading.Event(), threading.Event()

    def create() -> list[str]:
        with cache.writing(KEY):
            in_write.set()
            assert finish_write.wait(10)
        # Like Endpoint.create: the id comes from a list sent after the write was acknowledged.
        return list(cache.get(KEY, WHO, lambda: ["with the second create"]))

    first_created = threading.Event()

    def first_create() -> list[str]:
        with cache.writing(KEY):
            pass
        first_created.set()
        return list(cache.get(KEY, WHO, lambda: ["with the second create"]))

    second = pool.submit(create)
    assert in_write.wait(10)
    first = pool.submit(first_create)
    until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "the first create's list is held back")
    assert cache.snapshot(KEY, WHO)[1] == 1  # the second create's write is still in flight

    finish_write.set()

    assert first.result() == second.result() == ["with the second create"]
    assert cache.snapshot(KEY, WHO)[0] == 2


def test_an_error_reaches_every_joined_reader_and_is_not_kept(pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    started, release = threading.Event(), threading.Event()

    def failing() -> list[str]:
        started.set()
        assert release.wait(10)
        raise ConnectionError("gateway unreachable")

    first = pool.submit(cache.get, KEY, WHO, failing)
    assert started.wait(10)
    joiner: Future[Any] = pool.submit(cache.get, KEY, WHO, lambda: ["unused"])
    until(lambda: joined(cache) == 1, "a reader joined the failing list")
    release.set()

    for future in (first, joiner):
        with pytest.raises(ConnectionError):
            future.result()
    assert cache.get(KEY, WHO, lambda: ["recovered"]) == ["recovered"]


def test_the_cache_expires_after_its_ttl() -> None:
    now = [100.0]
    cache: ListCache[list[str]] = ListCache(ttl=5, clock=lambda: now[0])
    cache.get(KEY, WHO, lambda: ["v1"])
    now[0] += 4.9
    assert cache.get(KEY, WHO, lambda: ["v2"]) == ["v1"]
    now[0] += 0.2
    assert cache.get(KEY, WHO, lambda: ["v2"]) == ["v2"]


def test_accounts_do_not_share_lists() -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60)
    cache.get(KEY, WHO, lambda: ["admin's view"])
    assert cache.get(KEY, "developer", lambda: ["developer's view"]) == ["developer's view"]


def test_readers_held_back_by_a_write_share_one_list_after_it(pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60)
    gate = Gate()
    write_done = threading.Event()

    def write() -> None:
        with cache.writing(KEY):
            assert write_done.wait(10)

    writer = pool.submit(write)
    until(lambda: cache.snapshot(KEY, WHO)[1] == 1, "the write is in flight")
    readers = [pool.submit(cache.get, KEY, WHO, gate([f"list {n}"])) for n in range(3)]
    until(lambda: cache.snapshot(KEY, WHO)[2] == 3, "three readers are held back")

    write_done.set()
    until(lambda: joined(cache) == 2, "two readers joined the first one's list")
    gate.release.set()

    writer.result()
    assert len({tuple(r.result()) for r in readers}) == 1
    assert gate.calls == 1
    assert cache.snapshot(KEY, WHO)[0] == 1


def test_a_held_list_also_waits_for_a_write_that_begins_meanwhile_and_serves_it(
        pool: ThreadPoolExecutor) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60, batch_quiet=0)
    gate = Gate()
    first_done, later_done = threading.Event(), threading.Event()

    def write(done: threading.Event) -> None:
        with cache.writing(KEY):
            assert done.wait(10)

    first_writer = pool.submit(write, first_done)
    until(lambda: cache.snapshot(KEY, WHO)[1] == 1, "the first write is in flight")
    reader = pool.submit(cache.get, KEY, WHO, gate(["after both writes"]))
    until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "the reader is held back by it")
    later_writer = pool.submit(write, later_done)
    until(lambda: cache.snapshot(KEY, WHO)[1] == 2, "a later write is in flight too")

    first_done.set()
    first_writer.result()
    assert cache.snapshot(KEY, WHO)[1:3] == (1, 1)  # still held, by the later write
    later_done.set()
    later_writer.result()
    assert gate.started.wait(10)
    gate.release.set()
    assert reader.result() == ["after both writes"]
    assert gate.calls == 1
    # Sent after both writes: a read now takes it from the cache.
    assert cache.get(KEY, WHO, lambda: ["a second list"]) == ["after both writes"]


class Clock:
    """The cache's clock, moved by the test (its waits still take real time, at most the pause left)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_list_after_a_stream_of_writes_waits_for_the_proxy_to_be_quiet(pool: ThreadPoolExecutor) -> None:
    """The engine sends a proxy's creates milliseconds apart: one list reads back all their ids."""
    clock = Clock()
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60, batch_quiet=60, clock=clock)
    for moment in (0.0, 0.2):  # two creates 0.2 s apart: a stream
        clock.now = moment
        with cache.writing(KEY):
            pass
    reader = pool.submit(cache.get, KEY, WHO, lambda: ["after the three writes"])
    until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "the reader waits although no write is in flight")
    clock.now = 0.5
    with cache.writing(KEY):  # the next create, sent while the first ones wait for their ids
        pass
    assert cache.snapshot(KEY, WHO)[2] == 1

    clock.now = 1.1  # 0.6 s after the last write (twice its 0.3 s gap): the list goes
    assert reader.result(timeout=10) == ["after the three writes"]
    assert cache.snapshot(KEY, WHO)[0] == 3


def test_creates_one_after_another_wait_for_quiet_ever_more_rarely(pool: ThreadPoolExecutor) -> None:
    """Under ``--parallel 1`` the next create waits for this one's answer: waiting costs time only."""
    clock = Clock()
    cache: ListCache[list[str]] = ListCache(ttl=0, batch_wait=1e12, batch_quiet=1e9, clock=clock)
    begun: list[float] = []

    def create_then_read() -> tuple[bool, list[str]]:
        """(whether the list waited for quiet, the list) of a create 1 s after the last answer."""
        moment = clock.now + 1
        clock.now = moment
        with cache.writing(KEY):
            pass
        gap = moment - begun[-1] if begun else 0.0
        begun.append(moment)
        reader = pool.submit(cache.get, KEY, WHO, lambda: [f"after the create at {moment}"])
        try:
            until(lambda: reader.done() or cache.snapshot(KEY, WHO)[2] == 1, "the list went or waits")
            waited = not reader.done()
        finally:
            clock.now = moment + 2 * gap + 0.5  # past twice the gap: a waiting list goes
        return waited, reader.result(timeout=10)

    waits = [create_then_read()[0] for _ in range(12)]
    # The first is a lone write; the 2nd waits for nothing; then 2, 4, 8 lists go at once.
    assert waits == [False, True, False, False, True] + [False] * 4 + [True] + [False] * 2
    assert create_then_read() == (False, [f"after the create at {begun[-1]}"])

    # A create begun while another is in flight: the engine runs creates side by side again.
    start = clock.now + 1
    clock.now = start
    with cache.writing(KEY):
        clock.now = start + 0.05
        with cache.writing(KEY):
            pass
    side_by_side = pool.submit(cache.get, KEY, WHO, lambda: ["after the two side by side"])
    try:
        until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "waiting for quiet resumed")
    finally:
        clock.now = start + 5
    assert side_by_side.result(timeout=10) == ["after the two side by side"]


@pytest.mark.parametrize("writes", [
    pytest.param([("http://gw", "Demo", "Orders")] * 2, id="a refresh: writes only to another proxy"),
    pytest.param([KEY], id="one resource created: a lone write"),
])
def test_a_read_without_a_stream_of_writes_to_its_proxy_does_not_wait(
        pool: ThreadPoolExecutor, writes: list[tuple[str, str, str]]) -> None:
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60, batch_quiet=60)
    for key in writes:
        with cache.writing(key):
            pass
    # Waiting, it would answer after the 60 s bound: the 10 s here would fail first.
    assert pool.submit(cache.get, KEY, WHO, lambda: ["now"]).result(timeout=10) == ["now"]


class CountedCondition(threading.Condition):
    """A condition that counts how often its waiters were let go (woken or timed out), and how
    many of them a notify woke."""

    def __init__(self, lock: Any) -> None:
        super().__init__(lock)
        self.returns = 0
        self.woken = 0

    def wait(self, timeout: float | None = None) -> bool:
        try:
            return super().wait(timeout)
        finally:
            self.returns += 1

    def notify(self, n: int = 1) -> None:
        self.woken += min(n, len(self._waiters))  # type: ignore[attr-defined]
        super().notify(n)


class CountedCache(ListCache[list[str]]):
    """A cache whose conditions are counted: the proxy's and every list's."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.conditions: list[CountedCondition] = []

    def _condition(self) -> threading.Condition:
        made = CountedCondition(self._lock)
        self.conditions.append(made)
        return made


def test_readers_held_behind_a_stream_of_writes_are_not_woken_by_each_write() -> None:
    """One reader per credentials waits for quiet; the others sleep until its list is done.

    Ten readers held behind a stream of creates, and five more writes ending one by one: the
    readers that follow the leader are let go once, when its list is done, whatever the number of
    writes (each write's end used to wake all ten, and then its list's start and its end each did).
    """
    cache = CountedCache(ttl=60, batch_wait=5.0, batch_quiet=0.5)
    for _ in range(2):  # a stream: two writes begun milliseconds apart
        with cache.writing(KEY):
            pass
    hold = cache.writing(KEY)
    hold.__enter__()
    gate = Gate()
    with ThreadPoolExecutor(10) as readers:
        results = [readers.submit(cache.get, KEY, WHO, gate(["after the writes"])) for _ in range(10)]
        until(lambda: cache.snapshot(KEY, WHO)[2] == 10, "ten readers held behind the write in flight")
        for _ in range(5):
            with cache.writing(KEY):
                pass
        hold.__exit__(None, None, None)
        assert gate.started.wait(10)
        gate.release.set()
        assert [result.result(10) for result in results] == [["after the writes"]] * 10
    assert gate.calls == 1
    quiet = cache._state(KEY).quiet
    followers_let_go = sum(c.returns for c in cache.conditions if c is not quiet)
    assert followers_let_go <= 9 + 1, followers_let_go


def test_a_list_waiting_for_quiet_is_not_woken_by_the_writes_that_end_meanwhile() -> None:
    """Its wait ends when the proxy has been quiet long enough, which a write's end only puts off."""
    clock = Clock()
    cache = CountedCache(ttl=60, batch_wait=60, batch_quiet=60, clock=clock)
    for moment in (0.0, 0.2):  # a stream
        clock.now = moment
        with cache.writing(KEY):
            pass
    gate = Gate()
    with ThreadPoolExecutor(1) as readers:
        reader = readers.submit(cache.get, KEY, WHO, gate(["after the writes"]))
        until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "the reader waits for quiet")
        for _ in range(20):  # creates that begin and end while it waits, none in flight at once
            with cache.writing(KEY):
                pass
        quiet = cache._state(KEY).quiet
        assert isinstance(quiet, CountedCondition)
        woken = quiet.woken
        clock.now = 100.0
        assert gate.started.wait(10)
        gate.release.set()
        assert reader.result(10) == ["after the writes"]
    assert woken == 0, woken


def test_readers_that_followed_a_leader_who_left_start_over_and_get_a_list(pool: ThreadPoolExecutor) -> None:
    """A leader interrupted while it waits (its thread raises) leaves no reader waiting for its list."""
    interrupted = threading.Event()

    class LeaderClock(Clock):
        def __call__(self) -> float:
            if interrupted.is_set() and threading.current_thread() is leader_thread[0]:
                interrupted.clear()
                raise KeyboardInterrupt
            return self.now

    leader_thread: list[threading.Thread] = []
    clock = LeaderClock()
    cache: ListCache[list[str]] = ListCache(ttl=60, batch_wait=60, batch_quiet=0, clock=clock)
    hold = cache.writing(KEY)
    hold.__enter__()

    def lead() -> list[str]:
        leader_thread.append(threading.current_thread())
        return cache.get(KEY, WHO, lambda: ["the leader's"])

    leader = pool.submit(lead)
    until(lambda: cache.snapshot(KEY, WHO)[2] == 1, "the leader waits for the write")
    follower = pool.submit(cache.get, KEY, WHO, lambda: ["the follower's own"])
    until(lambda: cache.snapshot(KEY, WHO)[2] == 2, "a reader follows it")
    interrupted.set()
    hold.__exit__(None, None, None)  # wakes the leader, whose clock raises
    with pytest.raises(KeyboardInterrupt):
        leader.result(10)
    assert follower.result(10) == ["the follower's own"]
    assert cache.snapshot(KEY, WHO)[2] == 0
