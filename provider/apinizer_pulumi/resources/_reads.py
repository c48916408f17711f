"""One endpoint list per (gateway, project, proxy) in a provider process, shared by every read.

A refresh reads each endpoint; the API's cheapest complete answer is the proxy's list, so the
reads of one proxy share it:

* **single flight**: while a list of a proxy is on the way, another read that may use it waits
  for it instead of sending its own;
* **short-lived cache**: a finished list answers later reads for :data:`TTL` seconds;
* **invalidation by this process's writes**: every write to a proxy's endpoints (create, update,
  status, delete) goes through :meth:`ListCache.writing`, and counts in the proxy's *epoch* when
  it ends, acknowledged or not (a write that failed on the way may still have happened).

The consistency rule: a list is tagged with the epoch at the moment it was *sent*, and a read
that starts at epoch ``e`` accepts only a list tagged ``e`` or later. So a read never returns
data older than a write this process had acknowledged when the read began, and the id of a new
endpoint always comes from a list that started after its create was acknowledged.

A new list also waits, up to :data:`BATCH_WAIT` seconds, for the proxy's writes in flight, and,
while creates arrive as a stream (two writes to the proxy began less than :data:`BATCH_QUIET`
seconds apart), until the proxy has been quiet for twice that gap: the engine sends a program's creates
one after another, milliseconds apart, as it registers them, so that a list sent the moment the
writes in flight are done would serve only those. A lone write (one resource changed) and a read
with no write to its proxy (a refresh) do not wait; after a wait that no new write joined (the
creates may come strictly one after another), the next 2, then 4, 8 ... writes' lists do not
wait either, until a write begins beside other work on the proxy.

State is per process, keyed without credentials in clear: the epoch by (URL, project, proxy),
because a write by any account changes what every account reads; the lists by the client's
credential fingerprint as well, because what an account may read is its own.
"""

from __future__ import annotations

import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar, cast
from urllib.parse import unquote

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import HttpMethod

if TYPE_CHECKING:
    import httpx

    # Models are built by the reads, not by this module: a delete, which reads nothing, never
    # imports pydantic for them.
    from apinizer_pulumi.models import ApiProxy, Credential, Endpoint, EnvironmentVariable

T = TypeVar("T")

#: Seconds a finished list answers reads. A provider process lives for one Pulumi operation;
#: within it, a gateway change made by someone else shows up at most this late.
TTL = float(os.environ.get("APINIZER_READ_CACHE_TTL", "10"))
#: Longest wait of a new list for the writes to its proxy to be done and quiet (then it goes anyway).
BATCH_WAIT = 1.0
#: The longest gap between two writes to a proxy that makes them a stream worth waiting for,
#: and the longest wait for quiet after one (docs/performance.md); 0 turns the wait off.
BATCH_QUIET = float(os.environ.get("APINIZER_READ_BATCH_QUIET", "0.1"))
#: After waits for quiet that no write joined, lists skip waiting for 2, 4, ... up to 2**this writes.
MAX_IDLE_DOUBLINGS = 6

ProxyKey = tuple[str, str, str]
"""(gateway URL, project, proxy)."""


@dataclass
class _Flight(Generic[T]):
    #: Its readers' waits for it to be done: this list's end wakes them and no other list's.
    done_cond: threading.Condition
    #: The proxy's epoch when it was sent; None while its leader still waits to send it.
    epoch: int | None = None
    done: bool = False
    #: Readers waiting for this list besides the one that sent it (what sharing saved).
    joined: int = 0
    #: Of those, the readers that followed its leader: held back until it is sent.
    followers: int = 0
    #: Its leader left without sending it (interrupted): its followers start over.
    abandoned: bool = False
    result: T | None = None
    error: BaseException | None = None


@dataclass
class _Cached(Generic[T]):
    epoch: int
    at: float
    result: T


@dataclass
class _ProxyState(Generic[T]):
    #: Waits of the readers that lead a new list (one per credential) for the proxy's writes to
    #: end or be quiet: a write's end wakes these few, not every reader held behind them.
    quiet: threading.Condition
    epoch: int = 0
    writing: int = 0
    #: When a write to the proxy last began or ended (the cache's clock).
    last_write: float = 0.0
    #: When the last write to the proxy began, and how long after the one before it.
    began: float | None = None
    last_gap: float = float("inf")
    #: Writes begun so far; the waits for quiet in a row that no new write came to, and the
    #: count of writes begun from which lists wait for quiet again.
    begun: int = 0
    idle_waits: int = 0
    wait_again_at: int = 0
    #: Readers holding back a new list until the writes in flight are done.
    held: int = 0
    #: Leaders waiting for the proxy's writes in flight to end (not for quiet): only these does
    #: a write's end wake, since the end of a write only puts a wait for quiet off.
    awaiting_writes: int = 0
    #: Per credentials, the next list, which a reader (its leader) is waiting to send: the other
    #: readers of those credentials join it at once and sleep until it is done, instead of
    #: timing waits of their own.
    leading: dict[str, _Flight[T]] = field(default_factory=dict)
    cached: dict[str, _Cached[T]] = field(default_factory=dict)
    flights: dict[str, _Flight[T]] = field(default_factory=dict)


class ListCache(Generic[T]):
    """Shared lists keyed by (URL, project, proxy) and a credential fingerprint.

    ``T`` is whatever a fetch makes of a list (the endpoint index, below).
    """

    def __init__(self, ttl: float = TTL, batch_wait: float = BATCH_WAIT, batch_quiet: float = BATCH_QUIET,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.batch_wait = batch_wait
        self.batch_quiet = batch_quiet
        self._clock = clock
        self._lock = threading.Lock()
        self._proxies: dict[ProxyKey, _ProxyState[T]] = {}
        _EVERY_CACHE.add(self)

    def _state(self, key: ProxyKey) -> _ProxyState[T]:
        state = self._proxies.get(key)
        if state is None:
            state = self._proxies[key] = _ProxyState(self._condition())
        return state

    def _condition(self) -> threading.Condition:
        """A wait under the cache's one lock (every proxy's and list's)."""
        return threading.Condition(self._lock)

    @contextmanager
    def writing(self, key: ProxyKey) -> Iterator[None]:
        """Around a write to the proxy's endpoints: on exit, every older list is stale."""
        with self._lock:
            state = self._state(key)
            if state.writing or state.held:
                # Begun while other operations on the proxy are under way: the engine is running
                # creates side by side, so waiting for the next one pays again.
                state.idle_waits = state.wait_again_at = 0
            state.writing += 1
            state.begun += 1
            now = self._clock()
            if state.began is not None:
                state.last_gap = now - state.began
            state.began = state.last_write = now
        try:
            yield
        finally:
            with self._lock:
                state.writing -= 1
                state.last_write = self._clock()
                state.epoch += 1
                state.cached.clear()
                if state.awaiting_writes and not state.writing:
                    # Only the last write's end can let a leader go, and only one that waits for
                    # the writes: a wait for quiet is only put off by it (waking the leaders at
                    # every end made ten threads fight for the GIL, docs/performance.md).
                    state.quiet.notify_all()

    def get(self, key: ProxyKey, who: str, fetch: Callable[[], T]) -> T:
        """The proxy's list, sent no earlier than the last write this process finished.

        ``who`` is the fingerprint of the credentials ``fetch`` uses; ``fetch`` sends the list.
        """
        with self._lock:
            state = self._state(key)
            needed = state.epoch
            cached = state.cached.get(who)
            if cached is not None and cached.epoch >= needed and self._clock() - cached.at < self.ttl:
                return cached.result
            flight = state.flights.get(who)
            if flight is None or flight.epoch is None or flight.epoch < needed:
                flight, mine = self._start(state, who)
                if mine:
                    return self._fly(state, who, flight, fetch)
            else:
                flight.joined += 1
            while not flight.done:
                flight.done_cond.wait()
            if flight.abandoned:
                return self._unlocked_get(key, who, fetch)
            if flight.error is not None:
                raise flight.error
            assert flight.result is not None
            return flight.result

    def _unlocked_get(self, key: ProxyKey, who: str, fetch: Callable[[], T]) -> T:
        """:meth:`get` again, from the start (lock held on entry and exit, released during the call)."""
        self._lock.release()
        try:
            return self.get(key, who, fetch)
        finally:
            self._lock.acquire()

    def _start(self, state: _ProxyState[T], who: str) -> tuple[_Flight[T], bool]:
        """A list sent from now on: (a new flight, True) to send, or (one to join, False).

        A new one is sent once the proxy's writes are done, and quiet if they stream (lock held).
        Another reader already waiting to send the next list of these credentials sends it after
        this reader began: this one joins it and is woken once, when it is done (before, every
        reader held behind a stream of creates waited for quiet itself, and every write's end,
        then the list's start and its end, woke them all).
        """
        upcoming = state.leading.get(who)
        if upcoming is not None:
            upcoming.joined += 1
            upcoming.followers += 1
            state.held += 1  # until its leader sends it; the leader counts it out
            return upcoming, False
        flight = state.leading[who] = _Flight(self._condition())
        state.held += 1
        try:
            self._lead(state)
        except BaseException:
            flight.abandoned = flight.done = True
            raise
        else:
            flight.epoch = state.epoch
            state.flights[who] = flight
        finally:
            del state.leading[who]
            state.held -= 1 + flight.followers
            if flight.done:
                flight.done_cond.notify_all()
        return flight, True

    def _lead(self, state: _ProxyState[T]) -> None:
        """As the credentials' one leader: wait for the writes and for quiet (lock held)."""
        deadline = self._clock() + self.batch_wait
        waited_from: int | None = None  # writes begun when this reader began to wait for quiet
        while True:
            now = self._clock()
            if now >= deadline:
                break
            if state.writing:
                # The last write in flight to end wakes the leaders that wait here.
                state.awaiting_writes += 1
                try:
                    state.quiet.wait(deadline - now)
                finally:
                    state.awaiting_writes -= 1
                continue
            if state.last_gap >= self.batch_quiet:
                break  # no stream: a lone write
            if state.begun < state.wait_again_at:
                # The last waits for quiet saw no new write: the creates may come one after
                # another (--parallel 1, or resources that depend on each other), each after
                # the answer to the one before. Skipped for 2, 4, 8 ... writes, then tried again.
                break
            if waited_from is None:
                waited_from = state.begun
            # Twice the stream's last gap: long enough for its next write, short when every
            # create in flight is already waiting here and none can come (the engine's
            # --parallel reached), where the wait only costs time.
            quiet = min(self.batch_quiet, 2 * state.last_gap)
            if now - state.last_write >= quiet:
                break
            # Looked at again every 50 ms at most: nothing wakes a wait for quiet early (a
            # write's end only puts it off).
            state.quiet.wait(min(state.last_write + quiet, deadline, now + 0.05) - now)
        if waited_from is not None:
            if state.begun == waited_from:
                state.idle_waits = min(state.idle_waits + 1, MAX_IDLE_DOUBLINGS)
                state.wait_again_at = state.begun + 2 ** state.idle_waits + 1
            else:
                state.idle_waits = 0

    def _fly(self, state: _ProxyState[T], who: str, flight: _Flight[T],
             fetch: Callable[[], T]) -> T:
        """Send the list (lock held on entry and exit, released during the call)."""
        self._lock.release()
        try:
            result = fetch()
        except BaseException as error:
            self._lock.acquire()
            flight.error, flight.done = error, True
            self._forget(state, who, flight)
            raise
        self._lock.acquire()
        flight.result, flight.done = result, True
        self._forget(state, who, flight)
        current = state.cached.get(who)
        assert flight.epoch is not None
        if flight.epoch == state.epoch and (current is None or current.epoch <= flight.epoch):
            state.cached[who] = _Cached(flight.epoch, self._clock(), result)
        return result

    def _forget(self, state: _ProxyState[T], who: str, flight: _Flight[T]) -> None:
        if state.flights.get(who) is flight:
            del state.flights[who]
        if flight.joined:
            flight.done_cond.notify_all()

    def snapshot(self, key: ProxyKey, who: str) -> tuple[int, int, int, int | None]:
        """(epoch, writes in flight, readers held back, readers joined to the list in flight or None)."""
        with self._lock:
            state = self._state(key)
            flight = state.flights.get(who)
            return state.epoch, state.writing, state.held, None if flight is None else flight.joined

    def clear(self) -> None:
        """Forget every list (epochs stay: they only ever grow)."""
        with self._lock:
            for state in self._proxies.values():
                state.cached.clear()


#: Every list cache of the process, whichever module made it (weakly: a test's own caches go with it).
_EVERY_CACHE: weakref.WeakSet[ListCache[Any]] = weakref.WeakSet()


def forget_every_list() -> None:
    """Forget the lists of every family, as a new provider process starts without them.

    For hosts that run several of the engine's operations in one process (the examples' harness):
    a list read by one operation must not answer the next, which may follow a change made between them.
    """
    for cache in list(_EVERY_CACHE):
        cache.clear()


EndpointIndex: TypeAlias = "Mapping[tuple[str, HttpMethod], Endpoint]"
"""A proxy's endpoints by (name, method): a refresh of N endpoints looks up N times in one list."""

#: The process's shared endpoint lists.
LISTS: ListCache[EndpointIndex] = ListCache()

#: A request path under a proxy's endpoints, and what follows ``endpoints/``.
_ENDPOINTS_PATH = re.compile(r"^/apiops/projects/([^/]+)/apiProxies/([^/]+)/endpoints/([a-z]*/?)$")
#: The suffixes of the writes that change a proxy's endpoint list (create and update have none).
#: Cache and WS-Addressing settings are not in the list, so their writes leave it valid.
_LIST_WRITES = frozenset({"", "delete/", "status/"})


class TrackedClient(ApinizerClient):
    """A client whose writes to a proxy's endpoints count in :data:`LISTS`.

    Tracked at the one place every operation passes, so that no write of any resource (present
    or future) can forget to invalidate the lists it changes.
    """

    def __init__(self, *args: Any, fingerprint: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fingerprint = fingerprint

    def _request(self, method: str, path: str, *, body: Any = None, idempotent: bool,
                 authenticate: bool = True) -> httpx.Response:
        match = _ENDPOINTS_PATH.match(path) if method != "GET" else None
        if match is None or match[3] not in _LIST_WRITES:
            return super()._request(method, path, body=body, idempotent=idempotent,
                                    authenticate=authenticate)
        with LISTS.writing((self.base_url, unquote(match[1]), unquote(match[2]))):
            return super()._request(method, path, body=body, idempotent=idempotent,
                                    authenticate=authenticate)


def endpoint_index(client: ApinizerClient, project: str, proxy: str) -> EndpointIndex:
    """The proxy's endpoints, from a list no older than this process's last finished write to it."""
    who = client.fingerprint if isinstance(client, TrackedClient) else f"client-{id(client)}"

    def fetch() -> EndpointIndex:
        return {(item.endpoint, item.http_method): item for item in client.endpoints.list(project, proxy)}

    return LISTS.get((client.base_url, project, proxy), who, fetch)


def find_endpoint(client: ApinizerClient, project: str, proxy: str, name: str,
                  method: HttpMethod | str) -> Endpoint | None:
    """The endpoint (name, method) from the shared list, or None when the proxy has none such."""
    return endpoint_index(client, project, proxy).get((name, HttpMethod(method)))


def live_endpoint(client: ApinizerClient, project: str, proxy: str, name: str,
                  method: HttpMethod | str) -> Endpoint | None:
    """The endpoint, or None only when the gateway says that it, or its proxy or project, is gone.

    The shared list answers first. An endpoint missing from it is asked for by itself: a list
    may lag behind (a replica, a cache in front) or be no list at all, and a refresh that took
    such an answer for "gone" would drop from the state what still runs on the gateway.
    """
    from apinizer_pulumi.client import APIResponseValidationError, NotFoundError

    from ._errors import container_gone

    try:
        try:
            found = find_endpoint(client, project, proxy, name, method)
        except APIResponseValidationError:
            found = None  # an answer that is no list says nothing of this endpoint: ask for it alone
        if found is not None:
            return found
        return client.endpoints.find(project, proxy, name, method)
    except NotFoundError as error:
        if container_gone(error):
            return None
        raise


# -- API proxies: one GET of the proxy (with its deploymentList) shared by the ApiProxy and its
# -- ApiProxyDeployments, by the same rules as the endpoint lists.


@dataclass(frozen=True)
class ProxyRead:
    """A proxy's GET: the proxy, or None when the gateway said that it (or its project) is gone."""

    proxy: ApiProxy | None


#: The process's shared proxy reads.
PROXIES: ListCache[ProxyRead] = ListCache()


@contextmanager
def proxy_writing(client: ApinizerClient, project: str, proxy: str) -> Iterator[None]:
    """Around a write to a proxy (create, re-parse, settings, deploy): its shared reads and
    endpoint lists sent before are stale after it."""
    key = (client.base_url, project, proxy)
    with PROXIES.writing(key), LISTS.writing(key):
        yield


def live_proxy(client: ApinizerClient, project: str, proxy: str) -> ApiProxy | None:
    """The proxy with its deployments, or None only on the gateway's own "not found" for it or its project."""
    from apinizer_pulumi.client import NotFoundError

    from ._errors import container_gone

    who = client.fingerprint if isinstance(client, TrackedClient) else f"client-{id(client)}"

    def fetch() -> ProxyRead:
        try:
            return ProxyRead(client.api_proxies.get(project, proxy))
        except NotFoundError as error:
            if container_gone(error):
                return ProxyRead(None)
            raise

    return PROXIES.get((client.base_url, project, proxy), who, fetch).proxy


# -- policies: one list per proxy (its pipelines and every endpoint's) shared by every Policy of
# -- that proxy, by the same rules as the endpoint lists.


@dataclass(frozen=True)
class PolicyRead:
    """A proxy's policy list (``ProxyPolicies``), or None when the gateway said the proxy is gone."""

    policies: Any


#: The process's shared policy lists.
POLICY_LISTS: ListCache[PolicyRead] = ListCache()


@contextmanager
def policy_writing(client: ApinizerClient, project: str, proxy: str) -> Iterator[None]:
    """Around a write to a proxy's policies: its policy lists and proxy reads sent before are stale
    after it (a policy change sets the deployments' ``redeployRequired``)."""
    key = (client.base_url, project, proxy)
    with POLICY_LISTS.writing(key), PROXIES.writing(key):
        yield


def live_policies(client: ApinizerClient, project: str, proxy: str) -> Any:
    """The proxy's ``ProxyPolicies`` from the shared list, or None on the gateway's own "not found"."""
    from apinizer_pulumi.client import NotFoundError

    from ._errors import container_gone

    who = client.fingerprint if isinstance(client, TrackedClient) else f"client-{id(client)}"

    def fetch() -> PolicyRead:
        try:
            return PolicyRead(client.policies.list(project, proxy))
        except NotFoundError as error:
            if container_gone(error):
                return PolicyRead(None)
            raise

    return POLICY_LISTS.get((client.base_url, project, proxy), who, fetch).policies


# -- One list per (gateway, project, family) shared by every refresh and id read of that family
# -- (credentials, variables, groups, the key families, connections), by the same rules as the
# -- endpoint lists.


def _who(client: ApinizerClient) -> str:
    return client.fingerprint if isinstance(client, TrackedClient) else f"client-{id(client)}"


@dataclass(frozen=True)
class ProjectIndex:
    """A project's objects of one family by name, or None when the gateway said the project is gone."""

    by_name: Mapping[str, Any] | None


def project_index(cache: ListCache[ProjectIndex], family: str, client: ApinizerClient, project: str,
                  listing: Callable[[], Iterable[Any]],
                  key: Callable[[Any], str] = lambda item: item.name) -> Mapping[str, Any] | None:
    """The project's objects of ``family`` by ``key`` (their name) from the shared list that ``listing``
    reads, or None when the gateway says the project is gone."""
    from apinizer_pulumi.client import NotFoundError

    from ._errors import container_gone

    def fetch() -> ProjectIndex:
        try:
            return ProjectIndex({key(item): item for item in listing()})
        except NotFoundError as error:
            if container_gone(error):
                return ProjectIndex(None)
            raise

    return cache.get((client.base_url, project, family), _who(client), fetch).by_name


# -- credentials: one list of a project's credentials shared by the refresh of every Credential in
# -- it, by the same rules as the endpoint lists (keyed by (URL, project, "credentials")).


#: The process's shared credential lists: a project's credentials by username (``ProjectIndex``).
CREDENTIALS: ListCache[ProjectIndex] = ListCache()

#: The third part of the key of a project's credential list.
_CREDENTIALS = "credentials"


@contextmanager
def credentials_writing(client: ApinizerClient, project: str) -> Iterator[None]:
    """Around a write to a project's credentials: its shared lists sent before are stale after it."""
    with CREDENTIALS.writing((client.base_url, project, _CREDENTIALS)):
        yield


def live_credential(client: ApinizerClient, project: str, username: str) -> Credential | None:
    """The credential from the project's shared list; None when it (or the project) is gone."""
    index = project_index(CREDENTIALS, _CREDENTIALS, client, project,
                          lambda: client.credentials.list(project), key=lambda item: item.username)
    return None if index is None else cast("Credential | None", index.get(username))


# -- environment variables: one list per (gateway, project) shared by every EnvironmentVariable's
# -- refresh, by the same rules as the endpoint lists (key: URL, project and this family's name).

#: The third part of the key of a project's variable list.
_VARIABLES = "environmentVariables"


#: The process's shared variable lists: a project's variables by name (``ProjectIndex``).
VARIABLES: ListCache[ProjectIndex] = ListCache()


@contextmanager
def variables_writing(client: ApinizerClient, project: str) -> Iterator[None]:
    """Around a write to a project's variables: its shared lists sent before are stale after it."""
    with VARIABLES.writing((client.base_url, project, _VARIABLES)):
        yield


def live_environment_variable(client: ApinizerClient, project: str, name: str) -> EnvironmentVariable | None:
    """The variable (secret values masked), or None only when the gateway says it or its project is gone.

    The project's shared list answers first; a name missing from it is asked for by itself, as
    :func:`live_endpoint` does, so that a lagging list never drops a variable from the state.
    """
    index = project_index(VARIABLES, _VARIABLES, client, project,
                          lambda: client.environment_variables.list(project))
    if index is None:
        return None
    found = index.get(name)
    if found is not None:
        return cast("EnvironmentVariable", found)
    return environment_variable_now(client, project, name)


def environment_variable_now(client: ApinizerClient, project: str, name: str) -> EnvironmentVariable | None:
    """The variable, asked for by itself (no shared list), or None when the gateway says it or its project
    is gone."""
    from apinizer_pulumi.client import BadRequestError, NotFoundError

    from ._errors import container_gone

    try:
        return client.environment_variables.get(project, name)
    except BadRequestError as error:
        if "was not found" in (error.error_description or ""):
            return None
        raise
    except NotFoundError as error:
        if container_gone(error):
            return None
        raise


# -- API proxy groups: one list per project (the groups' only read), and one environments list per
# -- group (what their deployments read), shared by the same rules as the endpoint lists.


@dataclass(frozen=True)
class GroupEnvironments:
    """The environments a group is deployed to; None when the gateway said the group (or project) is gone."""

    deployed: frozenset[str] | None


#: The process's shared group lists, keyed by (URL, project, "") (``ProjectIndex``).
GROUP_LISTS: ListCache[ProjectIndex] = ListCache()
#: The process's shared environments lists, keyed by (URL, project, group).
GROUP_ENVIRONMENTS: ListCache[GroupEnvironments] = ListCache()


@contextmanager
def group_writing(client: ApinizerClient, project: str, group: str) -> Iterator[None]:
    """Around a write to a group (crud, members, deployment): the project's group list and the
    group's environments sent before are stale after it."""
    with GROUP_LISTS.writing((client.base_url, project, "")), \
            GROUP_ENVIRONMENTS.writing((client.base_url, project, group)):
        yield


def live_group(client: ApinizerClient, project: str, name: str) -> Any | None:
    """The group's list item (``ApiProxyGroupSummary``), or None when the project has no such group
    or the gateway said the project is gone."""
    index = project_index(GROUP_LISTS, "", client, project, lambda: client.api_proxy_groups.list(project))
    return None if index is None else index.get(name)


def group_deployed_to(client: ApinizerClient, project: str, group: str) -> frozenset[str] | None:
    """The environments the group is deployed to, or None when the group (or project) is gone."""
    from apinizer_pulumi.client import BadRequestError, NotFoundError, group_not_found

    from ._errors import container_gone

    def fetch() -> GroupEnvironments:
        try:
            listed = client.api_proxy_groups.environments(project, group)
        except NotFoundError as error:
            if container_gone(error):
                return GroupEnvironments(None)
            raise
        except BadRequestError as error:
            if group_not_found(error):
                return GroupEnvironments(None)
            raise
        return GroupEnvironments(frozenset(item.environment_name for item in listed if item.deployed))

    return GROUP_ENVIRONMENTS.get((client.base_url, project, group), _who(client), fetch).deployed



# -- The key families: one list per (gateway, project, family), as above. Lists answer no key material.


#: The process's shared lists of the key families (``jwks``, ``keystores``, ``crypto_keys``,
#: ``certificates``: the client's attribute of each), keyed by (URL, project, family).
KEY_OBJECTS: ListCache[ProjectIndex] = ListCache()


@contextmanager
def key_objects_writing(client: ApinizerClient, family: str, project: str) -> Iterator[None]:
    """Around a write to a project's objects of ``family``: its shared lists sent before are stale
    after it."""
    with KEY_OBJECTS.writing((client.base_url, project, family)):
        yield


def listed_key_object(client: ApinizerClient, family: str, project: str, name: str) -> Any | None:
    """The object's item in the project's shared list of ``family`` (no key material), or None when
    the project has no such object or the gateway said the project is gone."""
    objects = getattr(client, family)
    index = project_index(KEY_OBJECTS, family, client, project, lambda: objects.list(project))
    return None if index is None else index.get(name)


def live_key_object(client: ApinizerClient, family: str, kind: str, project: str, name: str) -> Any | None:
    """The object (``client.<family>``'s model) from the project's shared list, or None only when the
    gateway says it or its project is gone.

    A name missing from the shared list is asked for by itself, as :func:`live_environment_variable`
    does, so that a lagging list never drops an object from the state.
    """
    from apinizer_pulumi.client import APIStatusError, NotFoundError
    from apinizer_pulumi.client._keys import key_object_not_found

    from ._errors import container_gone

    objects = getattr(client, family)
    by_name = project_index(KEY_OBJECTS, family, client, project, lambda: objects.list(project))
    if by_name is None:
        return None
    found = by_name.get(name)
    if found is not None:
        return found
    try:
        return objects.get(project, name)
    except APIStatusError as error:
        if key_object_not_found(error, kind) or (isinstance(error, NotFoundError) and container_gone(error)):
            return None
        raise


# -- connections (Kafka, SMTP, LDAP ...): one list per (gateway, project, type) shared by every
# -- Connection's refresh (the list page needs the type: each type is its own collection).


#: The process's shared connection lists: a project's connections of one type by casefolded name
#: (names are case-insensitive), secret fields None, as the list answers them.
CONNECTIONS: ListCache[ProjectIndex] = ListCache()


def _connections_family(connection_type: str) -> str:
    return f"connections?type={connection_type}"


@contextmanager
def connections_writing(client: ApinizerClient, project: str, connection_type: str | None) -> Iterator[None]:
    """Around a write to a project's connections of one type (None: of any type, for a delete that
    does not know it): the shared lists of that type sent before are stale after it."""
    from contextlib import ExitStack

    from apinizer_pulumi.models import CONNECTION_TYPES

    with ExitStack() as stack:
        for kind in [connection_type] if connection_type else list(CONNECTION_TYPES):
            stack.enter_context(CONNECTIONS.writing((client.base_url, project, _connections_family(kind))))
        yield


def live_connection(client: ApinizerClient, project: str, connection_type: str, name: str) -> Any | None:
    """The connection (secret fields None) from the project's shared list of its type; None when it
    (or the project) is gone."""
    index = project_index(CONNECTIONS, _connections_family(connection_type), client, project,
                          lambda: client.connections.list(project, connection_type),
                          key=lambda item: str(item.name).casefold())
    return None if index is None else index.get(name.casefold())
