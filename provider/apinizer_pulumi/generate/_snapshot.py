"""Read what a live gateway holds for one project, through the client, into plain records."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from apinizer_pulumi.client import (
    ApinizerClient,
    APIResponseValidationError,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
)

from ._policies import PolicyRecord, ReadPolicies, read_policies

if TYPE_CHECKING:
    # Annotations only: the client builds these models as it reads, so a command that reads nothing
    # (``--help``, a usage error) never builds them (docs/performance.md, "Import time").
    from apinizer_pulumi.models import (
        ApiProxy,
        ClientRoute,
        Credential,
        Endpoint,
        EndpointPolicies,
        PolicyBase,
        PolicyEntry,
        PolicySummary,
        RoutingInfo,
    )

#: Called with one line of progress at a time (the CLI prints them on stderr).
Progress = Callable[[str], None]

#: The documented list of the projects an account may see
#: (https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/02-projects/list-projects.md).
PROJECTS_PATH = "/apiops/projects/"
#: How many project names an error lists before it says how many more there are.
_NAMES_SHOWN = 20
_CASE_HINT = "check the project's name, case included"


class NotOnGatewayError(Exception):
    """The project or a proxy to read is not on the gateway (or not one this account may see).

    The endpoint operations cannot tell a missing project from a missing proxy (both answer
    ``ApiProxy (name: ...) was not found!``), so the message says which is known.
    """


def _silent(_line: str) -> None:
    return None


def not_read(unread: set[str] | None, *kinds: str) -> None:
    """Note that ``kinds`` could not be read, so that ``--check`` does not call their declarations gone."""
    if unread is not None:
        unread.update(kinds)


T = TypeVar("T")


def listed_or_none(read: Callable[[], Iterable[T]], what: str, progress: Callable[[str], None],
                   unread: set[str] | None, kind: str) -> list[T] | None:
    """What ``read`` lists; None where this account may not read it (401, 403) or the gateway has no
    such list (404): ``progress`` reports ``what`` not read, and ``kind`` is noted as not read."""
    try:
        return list(read())
    except (AuthenticationError, PermissionDeniedError, NotFoundError) as error:
        progress(f"{what}: not read ({error.status_code}), none written")
        not_read(unread, kind)
        return None


@dataclasses.dataclass(frozen=True, order=True)
class EndpointRecord:
    """One endpoint as an ``Endpoint`` resource declares it: its identity and every readable setting."""

    project: str
    proxy: str
    name: str
    http_method: str
    backend_resource_url: str | None = None
    backend_http_method: str | None = None
    description: str | None = None
    active: bool = True

    @property
    def key(self) -> tuple[str, str, str, str]:
        """(project, proxy, METHOD, name): how the gateway names an endpoint."""
        return (self.project, self.proxy, self.http_method, self.name)

    @property
    def label(self) -> str:
        return f"{self.http_method} {self.name} in {self.project}/{self.proxy}"

    #: The settings compared by ``--check``, as the ``Endpoint`` input names.
    SETTINGS = ("backend_resource_url", "backend_http_method", "description", "active")

    @classmethod
    def from_live(cls, project: str, proxy: str, live: Endpoint) -> EndpointRecord:
        return cls(
            project=project,
            proxy=proxy,
            name=live.endpoint,
            http_method=live.http_method.value,
            backend_resource_url=live.backend_resource_url,
            backend_http_method=live.backend_http_method.value if live.backend_http_method else None,
            # An empty description and none are the same to the gateway and to ``Endpoint``.
            description=live.description or None,
            active=live.active,
        )


@dataclasses.dataclass(frozen=True)
class Policies:
    """The policy names attached to one endpoint, per pipeline (read-only: no resource manages them)."""

    request: tuple[str, ...] = ()
    response: tuple[str, ...] = ()
    error: tuple[str, ...] = ()

    @classmethod
    def from_live(cls, live: EndpointPolicies) -> Policies:
        return cls.from_pipelines(live.request_policy_list, live.response_policy_list, live.error_policy_list)

    @classmethod
    def from_pipelines(
        cls, request: Sequence[PolicySummary | PolicyBase | PolicyEntry],
        response: Sequence[PolicySummary | PolicyBase | PolicyEntry],
        error: Sequence[PolicySummary | PolicyBase | PolicyEntry],
    ) -> Policies:
        """From an endpoint's policy read or from its entry in the proxy's policy list (an entry
        without a name is named by its type)."""
        def names(items: Sequence[PolicySummary | PolicyBase | PolicyEntry]) -> tuple[str, ...]:
            return tuple((p.name or str(getattr(p, "type", "policy"))) + ("" if p.active else " (inactive)")
                         for p in items)

        return cls(names(request), names(response), names(error))

    def __bool__(self) -> bool:
        return bool(self.request or self.response or self.error)


@dataclasses.dataclass(frozen=True)
class ApiProxyRecord:
    """One API proxy as ``ApiProxy(..., adopt=True)`` declares it, and where it is deployed.

    The gateway cannot give back the spec a proxy was made from, so there is none here: the
    generated ``ApiProxy`` takes the proxy over and leaves its spec as it is.
    """

    project: str
    name: str
    description: str | None = None
    #: Environments where the proxy is deployed, sorted.
    deployed: tuple[str, ...] = ()
    #: The ``routing`` input as the gateway holds it (None without backend addresses).
    routing: dict[str, Any] | None = dataclasses.field(default=None, hash=False)
    #: The ``client_route`` input as the gateway holds it (None without relative paths).
    client_route: dict[str, Any] | None = dataclasses.field(default=None, hash=False)

    #: The settings compared by ``--check``, as the ``ApiProxy`` input names.
    SETTINGS = ("description",)

    @property
    def key(self) -> tuple[str, str]:
        return (self.project, self.name)

    @property
    def label(self) -> str:
        return f"API proxy {self.project}/{self.name}"

    @classmethod
    def from_live(cls, project: str, live: ApiProxy) -> ApiProxyRecord:
        return cls(
            project=project,
            name=live.name,
            description=live.description or None,
            deployed=tuple(sorted(d.environment_name for d in live.deployment_list if d.deployed)),
            routing=_routing_input(live.routing),
            client_route=_client_route_input(live.client_route),
        )


def _without_none(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def _routing_input(routing: RoutingInfo | None) -> dict[str, Any] | None:
    """``ApiProxy``'s ``routing`` input (``RoutingArgs``) for what the gateway holds."""
    if routing is None or not routing.routing_address_list:
        return None
    return _without_none({
        "addresses": [address.model_dump(mode="json", exclude_none=True)
                      for address in routing.routing_address_list],
        "enabled": routing.routing_enabled,
        "mirror_enabled": routing.mirror_enabled,
    })


def _client_route_input(route: ClientRoute | None) -> dict[str, Any] | None:
    """``ApiProxy``'s ``client_route`` input (``ClientRouteArgs``) for what the gateway holds."""
    if route is None or not route.relative_path_list:
        return None
    return _without_none({
        "relative_paths": list(route.relative_path_list),
        "virtual_hosts": route.hosts or None,
        "methods": [method.value for method in route.method_list] if route.method_list else None,
        "headers": [header.model_dump(mode="json") for header in route.header_list]
        if route.header_list else None,
        "buffer_request": route.buffer_request,
        "buffer_response": route.buffer_response,
    })


@dataclasses.dataclass
class ProxySnapshot:
    name: str
    endpoints: list[EndpointRecord]
    policies: dict[tuple[str, str, str, str], Policies] = dataclasses.field(default_factory=dict)
    #: The proxy's modelled policies (one list-policies request), declared as ``Policy`` resources.
    policy_records: list[PolicyRecord] = dataclasses.field(default_factory=list)
    #: The proxy itself (one read); None where the gateway has no read of a proxy (answers 404).
    proxy: ApiProxyRecord | None = None


@dataclasses.dataclass
class GatewaySnapshot:
    """What was read for one project: its proxies, in the order asked or found."""

    project: str
    proxies: list[ProxySnapshot]
    #: Proxy names that were asked for (or discovered) but are not in the project.
    missing: list[str] = dataclasses.field(default_factory=list)
    #: The project's credentials with their access (empty where the account may not list them).
    credentials: list[CredentialRecord] = dataclasses.field(default_factory=list)
    #: The kinds of resource (``"Credential"``, ``"Policy"``...) that could not be read.
    unread: set[str] = dataclasses.field(default_factory=set)

    @property
    def endpoints(self) -> list[EndpointRecord]:
        return [endpoint for proxy in self.proxies for endpoint in proxy.endpoints]

    @property
    def api_proxies(self) -> list[ApiProxyRecord]:
        return [proxy.proxy for proxy in self.proxies if proxy.proxy is not None]


def list_projects(client: ApinizerClient) -> list[str] | None:
    """The names of the projects this account may see, or None where the gateway does not say.

    None when the gateway has no such operation (404) or refuses it to this account (401, 403):
    the caller then learns about the project from the proxies' answers only. One request.
    """
    try:
        # The client has no method for this operation yet; the path and body are the documented ones.
        response = client._request("GET", PROJECTS_PATH, idempotent=True)
    except (NotFoundError, AuthenticationError, PermissionDeniedError):
        return None
    try:
        body = response.json()
        names = [item["name"] for item in body["resultList"]]
    except (ValueError, KeyError, TypeError):
        return None
    return [name for name in names if isinstance(name, str)]


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    more = len(names) - _NAMES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "") if names else "none"


def unknown_project_message(project: str, known: Sequence[str]) -> str:
    """The error for a project not in ``known``, naming the right spelling where only the case differs."""
    same = [name for name in known if name.casefold() == project.casefold()]
    hint = f"; did you mean {' or '.join(same)}?" if same else ""
    return (
        f"project {project} does not exist (or this account cannot see it){hint or '.'} "
        f"Projects this account can see: {_listed(sorted(known))}"
    )


def confirm_project(client: ApinizerClient, project: str) -> bool:
    """True when the gateway lists ``project``; False when it does not list projects to this account.

    :raises NotOnGatewayError: the gateway lists projects and ``project`` is not among them.
    """
    known = list_projects(client)
    if known is None:
        return False
    if project not in known:
        raise NotOnGatewayError(unknown_project_message(project, known))
    return True


def discover_proxies(client: ApinizerClient, project: str, progress: Progress = _silent) -> list[str]:
    """The names of every API proxy of ``project``, whatever its sharing type: one list request.

    :raises NotOnGatewayError: the gateway does not know the project (or this account cannot see it).
    """
    progress(f"listing the API proxies of project {project}")
    try:
        listed = client.api_proxies.list(project)
    except NotFoundError as error:
        confirm_project(client, project)  # names the right spelling where the gateway lists projects
        answer = f"{error.status_code} {error.error_description or error.error}"
        raise NotOnGatewayError(
            f"project {project} cannot be read (the gateway answered {answer}); {_CASE_HINT}"
        ) from None
    return list(dict.fromkeys(item.name for item in listed))


def _read_proxy(client: ApinizerClient, project: str, proxy: str) -> ApiProxyRecord | None:
    """The proxy and its deployments: one GET, whatever its number of endpoints and environments.

    None where the gateway answers 404 (deleted while we read, or a gateway without the read).
    """
    try:
        live = client.api_proxies.get(project, proxy)
    except NotFoundError:
        return None
    return ApiProxyRecord.from_live(project, live)


def read_gateway(
    client: ApinizerClient,
    project: str,
    proxies: Iterable[str],
    *,
    with_policies: bool = True,
    progress: Progress = _silent,
    skip_missing: bool = False,
    with_credentials: bool = True,
) -> GatewaySnapshot:
    """Every endpoint (and, unless told not to, its policy names) of the named proxies of ``project``.

    The project is looked up first where the gateway lists projects (:func:`confirm_project`). A
    proxy that is not in the project raises :class:`NotOnGatewayError`, unless ``skip_missing``
    (proxies found by the report, which spans every project): then it is listed in ``missing``, and
    only when none of them is in a project the gateway did not confirm does it raise. Unless
    ``with_credentials`` is false, the project's credentials are read too (:func:`read_credentials`).
    """
    names = list(dict.fromkeys(proxies))
    confirmed = confirm_project(client, project)
    snapshot = GatewaySnapshot(project=project, proxies=[])
    for index, proxy in enumerate(names, start=1):
        try:
            live = client.endpoints.list(project, proxy)
        except NotFoundError as error:
            if not skip_missing:
                answer = f"{error.status_code} {error.error_description or error.error}"
                names_to_check = "the proxy's name" if confirmed else "the project's name and the proxy's"
                hint = f"; check {names_to_check}, case included"
                raise NotOnGatewayError(
                    f"project {project} has no API proxy {proxy} (the gateway answered {answer}){hint}"
                ) from None
            snapshot.missing.append(proxy)
            progress(f"[{index}/{len(names)}] {project}/{proxy}: not in this project, skipped")
            continue
        records = sorted(EndpointRecord.from_live(project, proxy, item) for item in live)
        proxy_snapshot = ProxySnapshot(proxy, records, proxy=_read_proxy(client, project, proxy))
        deployed = proxy_snapshot.proxy.deployed if proxy_snapshot.proxy else ()
        where = f", deployed to {', '.join(deployed)}" if deployed else ""
        progress(f"[{index}/{len(names)}] {project}/{proxy}: {len(records)} endpoint(s){where}")
        if with_policies:
            # One list of the proxy's policies, whatever its number of endpoints (it carries each
            # endpoint's pipelines too): modelled ones become Policy resources, others comments.
            try:
                read = read_policies(project, proxy, client.policies.list(project, proxy))
            except (NotFoundError, APIResponseValidationError):
                read = ReadPolicies([], {})  # a gateway without the policy list: endpoints only
            proxy_snapshot.policy_records.extend(read.records)
            known = {record.key for record in records}
            for key, others in read.unmodelled.items():
                if key not in known:  # an endpoint the endpoint list did not show (deleted meanwhile)
                    continue
                proxy_snapshot.policies[key] = Policies(others.get("request", ()), others.get("response", ()),
                                                        others.get("error", ()))
            progress(f"      {project}/{proxy}: {len(read.records)} policies")
        snapshot.proxies.append(proxy_snapshot)
    if not with_policies:
        snapshot.unread.add("Policy")
    if with_credentials:
        snapshot.credentials = read_credentials(client, project, progress, unread=snapshot.unread)
    else:
        snapshot.unread.add("Credential")
    if snapshot.missing and not snapshot.proxies and not confirmed:
        raise NotOnGatewayError(
            f"project {project} holds none of the {len(names)} API proxies looked for "
            f"({_listed(names)}); {_CASE_HINT}, or name its proxies with --proxy"
        )
    return snapshot


# -- credentials ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, order=True)
class CredentialRecord:
    """One credential as ``Credential(..., adopt=True)`` declares it, without its password (unreadable)."""

    project: str
    username: str
    email: str | None = None
    full_name: str | None = None
    description: str | None = None
    role_name_list: tuple[str, ...] = ()
    enabled: bool = True
    ip_list: tuple[str, ...] = ()
    expire_date: str | None = None
    #: (type, name) of each API proxy or group it may call, sorted.
    access: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return f"credential {self.username} in {self.project}"

    @classmethod
    def from_live(cls, project: str, live: Credential, access: Iterable[tuple[str, str]]) -> CredentialRecord:
        return cls(
            project=project,
            username=live.username,
            email=live.email,
            full_name=live.full_name,
            description=live.description or None,
            role_name_list=tuple(live.role_name_list),
            enabled=live.enabled,
            ip_list=tuple(live.ip_list),
            expire_date=live.expire_date,
            access=tuple(sorted(access)),
        )


def read_credentials(
    client: ApinizerClient, project: str, progress: Progress = _silent, *, unread: set[str] | None = None
) -> list[CredentialRecord]:
    """The project's credentials and their access: one list, then one access read per credential.

    Empty where the gateway has no credential operations (404 without naming the project) or
    refuses them to this account (401, 403): the program then declares endpoints and proxies only.
    """
    try:
        live = client.credentials.list(project)
    except NotFoundError as error:
        if "project" in (error.error_description or "").lower():
            raise
        progress(f"{project}: the gateway has no credential list ({error.status_code}); credentials skipped")
        not_read(unread, "Credential")
        return []
    except (AuthenticationError, PermissionDeniedError) as error:
        progress(f"{project}: this account may not list credentials ({error.status_code}); skipped")
        not_read(unread, "Credential")
        return []
    records = []
    for item in live:
        found = client.credentials.access(project, item.username)
        granted = [(access.type.value, access.name) for access in found]
        records.append(CredentialRecord.from_live(project, item, granted))
    if records:
        progress(f"{project}: {len(records)} credential(s)")
    return sorted(records)
