"""``ApiProxyDeployment``: one API proxy deployed to one environment, and its dynamic provider.

The provider's module path and class name
(``apinizer_pulumi.resources.api_proxy_deployment.ApiProxyDeploymentProvider``) are recorded by
reference in every stack's state: they never move without an alias.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/deployment/index.md
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import pulumi
import pulumi.dynamic as dyn

from . import _deployment
from ._args import connection_props, resource_options, resource_props, typed_statically
from ._base import CONNECTION, lazy_model
from ._connection import ConnectionArgs
from ._deployment import Deployables, DeploymentLifecycle, Target
from ._environments import not_promotable
from ._errors import translated

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from apinizer_pulumi.client import ApinizerClient, BadRequestError

KEYS = ("project_name", "api_proxy_name", "environment_name")
#: The gateway's answers to an undeploy that has nothing to do: not deployed there, or the proxy
#: (or environment) does not exist.
_NOTHING_TO_UNDEPLOY = ("is not deployed", "because it is not exist")


def identity(id_: str, props: Mapping[str, Any], keys: tuple[str, str, str] = KEYS) -> tuple[str, str, str]:
    """(project, proxy or group, environment) from the state's ``keys``, or from the id when the
    state lacks them."""
    return _deployment.identity(id_, props, keys)


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:ApiProxyDeployment Orders in Demo to test`` for messages."""
    return _deployment.subject("ApiProxyDeployment", props, id_, KEYS)


class ApiProxyDeploymentProvider(DeploymentLifecycle):
    """Deploy a proxy to an environment, redeploy on drift or a changed trigger, undeploy on delete."""

    kind = "ApiProxyDeployment"
    inputs_model = lazy_model("apinizer_pulumi.resources._proxy_inputs", "ApiProxyDeploymentInputs")
    replace_fields = KEYS
    deployed_field = "api_proxy_name"
    deployed_outputs: ClassVar[Mapping[str, Any]] = {"deployed": True, "redeploy_required": False}

    @translated(lambda self, id_, olds, news: subject(news, id_))
    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        result = super().diff(id_, olds, news)
        if not result.changes and not (olds.get("deployed", True) and not olds.get("redeploy_required")):
            # Refresh read it undeployed, or deployed with a configuration changed since: `up` deploys again.
            result = dyn.DiffResult(changes=True, replaces=[], stables=[], delete_before_replace=False)
        return self.promoted_diff(result, news, behind=lambda client: self._behind(client, news))

    @staticmethod
    def _behind(client: ApinizerClient, props: Mapping[str, Any]) -> bool:
        """Whether the gateway shows the proxy undeployed from this environment, or changed since."""
        from ._reads import live_proxy

        project, proxy, environment = identity("", props)
        live = live_proxy(client, project, proxy)
        line = live.deployment(environment) if live is not None else None
        return live is not None and not (line is not None and line.deployed and not line.redeploy_required)

    def promotion_problem(self, client: ApinizerClient, props: Mapping[str, Any], *,
                          fresh: bool) -> str | None:
        from apinizer_pulumi.client import NotFoundError

        from ._errors import container_gone
        from ._reads import live_proxy

        project, proxy, _ = identity("", props)
        source = str(props["promote_from"])
        if fresh:
            try:
                live = client.api_proxies.get(project, proxy)
            except NotFoundError as error:
                if not container_gone(error):
                    raise
                live = None
        else:
            live = live_proxy(client, project, proxy)
        line = live.deployment(source) if live is not None else None
        problem = not_promotable(source, deployed=bool(line and line.deployed),
                                 stale=bool(line and line.redeploy_required), what=f"API proxy {proxy!r}")
        return None if problem is None else f"{subject(props)}: {problem}"

    def writing(self, client: ApinizerClient, project: str, deployed: str) -> AbstractContextManager[None]:
        from ._reads import proxy_writing

        return proxy_writing(client, project, deployed)

    def deployables(self, client: ApinizerClient) -> Deployables:
        return client.api_proxies

    def nothing_to_undeploy(self, error: BadRequestError, target: Target) -> bool:
        return any(text in (error.error_description or "") for text in _NOTHING_TO_UNDEPLOY)

    def live_outputs(self, client: ApinizerClient, target: Target) -> dict[str, Any] | None:
        from ._reads import live_proxy

        project, proxy, environment = target
        live = live_proxy(client, project, proxy)
        if live is None:
            return None
        line = live.deployment(environment)
        return {"deployed": bool(line and line.deployed),
                "redeploy_required": bool(line and line.redeploy_required)}


@typed_statically
class ApiProxyDeployment(dyn.Resource, module="apinizer", name="ApiProxyDeployment"):
    """One API proxy deployed to one environment.

    Id: ``{project}/{proxy}/{environment}``. Create deploys; destroy undeploys. Refresh reads the
    proxy's deployment list: undeployed, or deployed with ``redeploy_required``, is drift that the
    next ``up`` repairs by deploying again. A change of any ``triggers`` value redeploys in place.

    With ``promote_from`` (an environment's name, e.g. ``test``), it deploys only the configuration
    that environment runs: the proxy must be deployed there and the gateway must not report
    ``redeployRequired`` there, or preview (where it can) and ``up`` refuse. It also deploys again
    whenever the gateway shows this environment behind (changed since, or undeployed), so that the
    stack of this environment follows the definitions another stack owns (docs/stacks.md).
    """

    project_name: pulumi.Output[str]
    """The project that holds the proxy."""
    api_proxy_name: pulumi.Output[str]
    """The proxy to deploy."""
    environment_name: pulumi.Output[str]
    """The environment to deploy it to."""
    triggers: pulumi.Output[dict[str, Any] | None]
    """Values whose change redeploys the proxy."""
    promote_from: pulumi.Output[str | None]
    """The environment whose running configuration this deployment promotes, if any."""
    deployed: pulumi.Output[bool]
    """Whether the proxy is deployed there, as last read."""
    redeploy_required: pulumi.Output[bool]
    """Whether the proxy changed since it was deployed there, as last read."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_name: pulumi.Input[str],
        environment_name: pulumi.Input[str],
        triggers: pulumi.Input[Mapping[str, pulumi.Input[Any]]] | None = None,
        promote_from: pulumi.Input[str] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a deployment of an API proxy to an environment.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the proxy.
        :param api_proxy_name: The proxy (``ApiProxy.name`` makes the dependency).
        :param environment_name: The environment, e.g. ``test``.
        :param triggers: Any values; a change of one redeploys, e.g. ``{"spec": proxy.spec_hash}``.
        :param promote_from: An environment, e.g. ``test``: deploy only what runs there, unchanged
            since (refused otherwise), and deploy again when this environment falls behind it.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, api_proxy_name=api_proxy_name,
                               environment_name=environment_name, triggers=triggers,
                               promote_from=promote_from, deployed=None, redeploy_required=None)
        props[CONNECTION] = connection_props(connection)
        super().__init__(ApiProxyDeploymentProvider(), resource_name, props, resource_options(opts))
        from ._literal_names import named_proxies

        named_proxies(self, "ApiProxyDeployment", resource_name, project_name, api_proxy_name,
                      "api_proxy_name")
