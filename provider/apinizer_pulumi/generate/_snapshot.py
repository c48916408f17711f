"""Read what a live gateway holds for one project, through the client, into plain records."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from apinizer_pulumi.client import ApinizerClient, APIStatusError, NotFoundError
from apinizer_pulumi.models import Endpoint, EndpointPolicies, PolicySummary

#: Called with one line of progress at a time (the CLI prints them on stderr).
Progress = Callable[[str], None]


def _silent(_line: str) -> None:
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
        def names(items: Sequence[PolicySummary]) -> tuple[str, ...]:
            return tuple(p.name + ("" if p.active else " (inactive)") for p in items)

        return cls(
            names(live.request_policy_list), names(live.response_policy_list), names(live.error_policy_list)
        )

    def __bool__(self) -> bool:
        return bool(self.request or self.response or self.error)


@dataclasses.dataclass
class ProxySnapshot:
    name: str
    endpoints: list[EndpointRecord]
    policies: dict[tuple[str, str, str, str], Policies] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class GatewaySnapshot:
    """What was read for one project: its proxies, in the order asked or found."""

    project: str
    proxies: list[ProxySnapshot]
    #: Proxy names that were asked for (or discovered) but are not in the project.
    missing: list[str] = dataclasses.field(default_factory=list)

    @property
    def endpoints(self) -> list[EndpointRecord]:
        return [endpoint for proxy in self.proxies for endpoint in proxy.endpoints]


def discover_proxies(client: ApinizerClient, progress: Progress = _silent) -> list[str]:
    """Proxy names the organization access report lists (EXTERNAL and BOTH sharing only).

    The management API has no list of a project's proxies; the report is the one place that
    names proxies, and it leaves out those shared internally only. It needs a system
    administrator or analyzer token.
    """
    progress(
        "discovering API proxies through the organization access report (it leaves out proxies "
        "shared internally only: name those with --proxy)"
    )
    report = client.reports.organization_access()
    return list(dict.fromkeys(item.api_proxy_name for item in report.result.api_proxy_list))


def read_gateway(
    client: ApinizerClient,
    project: str,
    proxies: Iterable[str],
    *,
    with_policies: bool = True,
    progress: Progress = _silent,
    skip_missing: bool = False,
) -> GatewaySnapshot:
    """Every endpoint (and, unless told not to, its policy names) of the named proxies of ``project``.

    A proxy that is not in the project raises, unless ``skip_missing`` (proxies found by the report,
    which spans every project): then it is listed in ``missing``.
    """
    names = list(dict.fromkeys(proxies))
    snapshot = GatewaySnapshot(project=project, proxies=[])
    for index, proxy in enumerate(names, start=1):
        try:
            live = client.endpoints.list(project, proxy)
        except NotFoundError:
            if not skip_missing:
                raise
            snapshot.missing.append(proxy)
            progress(f"[{index}/{len(names)}] {project}/{proxy}: not in this project, skipped")
            continue
        records = sorted(EndpointRecord.from_live(project, proxy, item) for item in live)
        progress(f"[{index}/{len(names)}] {project}/{proxy}: {len(records)} endpoint(s)")
        proxy_snapshot = ProxySnapshot(proxy, records)
        if with_policies:
            for count, record in enumerate(records, start=1):
                try:
                    found = client.endpoints.policies(project, proxy, record.name, record.http_method)
                except APIStatusError as error:
                    if error.is_endpoint_not_found:  # deleted while we read
                        continue
                    raise
                proxy_snapshot.policies[record.key] = Policies.from_live(found)
                if count % 50 == 0 or count == len(records):
                    progress(f"      {project}/{proxy}: policies {count}/{len(records)}")
        snapshot.proxies.append(proxy_snapshot)
    return snapshot
