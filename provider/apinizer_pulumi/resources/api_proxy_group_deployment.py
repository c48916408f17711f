"""``ApiProxyGroupDeployment``: one API proxy group deployed to one environment, and its dynamic provider.

The provider's module path and class name
(``apinizer_pulumi.resources.api_proxy_group_deployment.ApiProxyGroupDeploymentProvider``) are
recorded by reference in every stack's state: they never move without an alias.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/deployment/index.md
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import pulumi
import pulumi.dynamic as dyn

from . import _deployment
from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, lazy_model
from ._connection import ConnectionArgs
from ._deployment import Deployables, DeploymentLifecycle, Target
from ._environments import not_promotable
from ._errors import translated

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from apinizer_pulumi.client import ApinizerClient, BadRequestError

KEYS = ("project_name", "api_proxy_group_name", "environment_name")


def identity(id_: str, props: Mapping[str, Any]) -> tuple[str, str, str]:
    """(project, group, environment) from the state, or from the id when the state lacks them."""
    return _deployment.identity(id_, props, KEYS)


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:ApiProxyGroupDeployment Payments in Demo to test`` for messages."""
    return _deployment.subject("ApiProxyGroupDeployment", props, id_, KEYS)


class ApiProxyGroupDeploymentProvider(DeploymentLifecycle):
    """Deploy a group to an environment, redeploy on drift or a changed trigger, undeploy on delete."""

    kind = "ApiProxyGroupDeployment"
    inputs_model = lazy_model("apinizer_pulumi.resources._group_inputs", "ApiProxyGroupDeploymentInputs")
    replace_fields = KEYS
    deployed_field = "api_proxy_group_name"
    deployed_outputs: ClassVar[Mapping[str, Any]] = {"deployed": True}

    @translated(lambda self, id_, olds, news: subject(news, id_))
    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        result = super().diff(id_, olds, news)
        if not result.changes and not olds.get("deployed", True):
            # Refresh read it undeployed: `up` deploys again.
            result = dyn.DiffResult(changes=True, replaces=[], stables=[], delete_before_replace=False)
        return self.promoted_diff(result, news, behind=lambda client: self._behind(client, news))

    @staticmethod
    def _behind(client: ApinizerClient, props: Mapping[str, Any]) -> bool:
        """Whether the gateway shows the group undeployed from this environment (the only staleness
        that the group's documented environment list shows)."""
        from ._reads import group_deployed_to

        project, group, environment = identity("", props)
        deployed = group_deployed_to(client, project, group)
        return deployed is not None and environment not in deployed

    def promotion_problem(self, client: ApinizerClient, props: Mapping[str, Any], *,
                          fresh: bool) -> str | None:
        from ._reads import GROUP_ENVIRONMENTS, group_deployed_to

        project, group, _ = identity("", props)
        source = str(props["promote_from"])
        if fresh:
            # Reads of the group's environments sent before now are stale: the next one is sent afresh.
            with GROUP_ENVIRONMENTS.writing((client.base_url, project, group)):
                pass
        deployed = group_deployed_to(client, project, group) or frozenset()
        problem = not_promotable(source, deployed=source in deployed, stale=False,
                                 what=f"API proxy group {group!r}")
        return None if problem is None else f"{subject(props)}: {problem}"

    def writing(self, client: ApinizerClient, project: str, deployed: str) -> AbstractContextManager[None]:
        from ._reads import group_writing

        return group_writing(client, project, deployed)

    def deployables(self, client: ApinizerClient) -> Deployables:
        return client.api_proxy_groups

    def nothing_to_undeploy(self, error: BadRequestError, target: Target) -> bool:
        from apinizer_pulumi.client import group_not_found

        # The group (or the environment) is gone.
        environment_gone = (error.error_description or "").startswith(f"Environment ({target[2]})")
        return group_not_found(error) or environment_gone

    def live_outputs(self, client: ApinizerClient, target: Target) -> dict[str, Any] | None:
        from ._reads import group_deployed_to

        project, group, environment = target
        deployed = group_deployed_to(client, project, group)
        return None if deployed is None else {"deployed": environment in deployed}


class ApiProxyGroupDeployment(dyn.Resource, module="apinizer", name="ApiProxyGroupDeployment"):
    """One API proxy group deployed to one environment: its member proxies, deployed together.

    Id: ``{project}/{group}/{environment}``. Create deploys; destroy undeploys (the members are
    undeployed from that environment). Refresh reads the group's environments (one read per
    group): undeployed is drift that the next ``up`` repairs by deploying again. The API does not
    say whether a group changed since it was deployed, so a change of any ``triggers`` value
    redeploys in place: give it what the deployment must follow, e.g. the group's
    ``api_proxy_names`` and the members' ``spec_hash``.

    With ``promote_from`` (an environment's name, e.g. ``test``), it deploys only a group that is
    deployed there, or preview (where it can) and ``up`` refuse. The group's documented environment
    list has ``deployed`` but no ``redeployRequired``, so a group changed since it was deployed there
    cannot be told apart: give the members' deployments ``promote_from`` too (docs/stacks.md).
    """

    project_name: pulumi.Output[str]
    """The project that holds the group."""
    api_proxy_group_name: pulumi.Output[str]
    """The group to deploy."""
    environment_name: pulumi.Output[str]
    """The environment to deploy it to."""
    triggers: pulumi.Output[dict[str, Any] | None]
    """Values whose change redeploys the group."""
    promote_from: pulumi.Output[str | None]
    """The environment the group must be deployed to before it is deployed here, if any."""
    deployed: pulumi.Output[bool]
    """Whether the group is deployed there, as last read."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_group_name: pulumi.Input[str],
        environment_name: pulumi.Input[str],
        triggers: pulumi.Input[Mapping[str, pulumi.Input[Any]]] | None = None,
        promote_from: pulumi.Input[str] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a deployment of an API proxy group to an environment.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the group.
        :param api_proxy_group_name: The group (``ApiProxyGroup.name`` makes the dependency).
        :param environment_name: The environment, e.g. ``test``.
        :param triggers: Any values; a change of one redeploys, e.g.
            ``{"members": group.api_proxy_names}``.
        :param promote_from: An environment, e.g. ``test``: deploy only a group deployed there
            (refused otherwise), and deploy again when it is undeployed from this environment.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, api_proxy_group_name=api_proxy_group_name,
                               environment_name=environment_name, triggers=triggers,
                               promote_from=promote_from, deployed=None)
        props[CONNECTION] = connection_props(connection)
        super().__init__(ApiProxyGroupDeploymentProvider(), resource_name, props, resource_options(opts))
