"""The lifecycle of a deployment: one deployable object (an API proxy, a proxy group) in one environment.

Create deploys, update deploys again (a changed trigger, or drift that refresh found), refresh reads
where the object is deployed, and delete undeploys; ``promote_from`` and the environment check at
preview come from :class:`~._environments.DeploymentProvider`. A kind's module holds what is its own:

* ``replace_fields``: (project, the deployed object's input, ``environment_name``), which are also
  the parts of the id ``{project}/{object}/{environment}``; ``deployed_field`` names the middle one;
* :meth:`DeploymentLifecycle.writing`: the context of ``_reads`` around a write to the object (its
  shared reads sent before are stale after it);
* :meth:`~DeploymentLifecycle.deployables`: the client's part whose ``deploy`` and ``undeploy`` take
  (project, object, environment), and :meth:`~DeploymentLifecycle.nothing_to_undeploy`: the
  gateway's answers that say an undeploy has nothing to do (the object or the environment is gone);
* :meth:`~DeploymentLifecycle.live_outputs`: the computed outputs as the gateway shows them (None
  when the object is gone), and :attr:`~DeploymentLifecycle.deployed_outputs`, those a deploy gives;
* :meth:`~._environments.DeploymentProvider.promotion_problem`, and a ``diff`` where the kind sees
  drift (``promoted_diff``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import pulumi.dynamic as dyn

from ._base import inputs_of
from ._environments import DeploymentProvider
from ._errors import ApinizerResourceError, translated
from ._named import HandedOver

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, BadRequestError

Target = tuple[str, str, str]
"""(project, the deployed object, environment)."""


class Deployables(Protocol):
    """The client's part for one deployable kind (``client.api_proxies``, ``client.api_proxy_groups``)."""

    def deploy(self, project: str, name: str, environment: str, /) -> object: ...

    def undeploy(self, project: str, name: str, environment: str, /) -> object: ...


def identity(id_: str, props: Mapping[str, Any], keys: tuple[str, ...]) -> Target:
    """(project, object, environment) from the state's ``keys``, or from the id when the state lacks them."""
    if all(props.get(key) for key in keys):
        project, deployed, environment = (str(props[key]) for key in keys)
        return project, deployed, environment
    project, deployed, environment = id_.split("/", 2)
    return project, deployed, environment


def subject(kind: str, props: Mapping[str, Any], id_: str, keys: tuple[str, ...]) -> str:
    """``apinizer:ApiProxyDeployment Orders in Demo to test`` for messages."""
    try:
        project, deployed, environment = identity(id_, props, keys)
    except ValueError:
        return f"apinizer:{kind}"
    return f"apinizer:{kind} {deployed} in {project} to {environment}"


class DeploymentLifecycle(DeploymentProvider, HandedOver):
    """Deploy on create and update, read the deployment on refresh, undeploy on delete."""

    #: The computed outputs that a successful deploy records, e.g. ``{"deployed": True}``.
    deployed_outputs: ClassVar[Mapping[str, Any]]

    def identity(self, id_: str, props: Mapping[str, Any]) -> Target:
        """(project, object, environment) of ``props``, or of the id."""
        return identity(id_, props, self.replace_fields)

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        """The resource named in messages."""
        return subject(self.kind, props, id_, self.replace_fields)

    # --- what a kind supplies ---------------------------------------------------------------

    def writing(self, client: ApinizerClient, project: str,
                deployed: str) -> contextlib.AbstractContextManager[None]:
        """Around a deploy or an undeploy: the object's shared reads sent before are stale after it."""
        raise NotImplementedError

    def deployables(self, client: ApinizerClient) -> Deployables:
        """The client's part that deploys (raising ``DeploymentFailedError`` per environment) and
        undeploys."""
        raise NotImplementedError

    def nothing_to_undeploy(self, error: BadRequestError, target: Target) -> bool:
        """Whether a 400 to an undeploy says there is nothing to undeploy (not deployed, or gone)."""
        raise NotImplementedError

    def live_outputs(self, client: ApinizerClient, target: Target) -> dict[str, Any] | None:
        """The computed outputs as the gateway shows them now; None when the object is gone."""
        raise NotImplementedError

    # --- the lifecycle ----------------------------------------------------------------------

    def _deploy(self, props: Mapping[str, Any], id_: str = "") -> dict[str, Any]:
        from apinizer_pulumi.client import DeploymentFailedError

        target = self.identity(id_, props)
        client = self.client(props)
        self.ensure_promotable(client, props)
        with self.writing(client, target[0], target[1]):
            try:
                self.deployables(client).deploy(*target)
            except DeploymentFailedError as error:
                reasons = "; ".join(f"{env}: {message or 'no message'}" for env, message in error.failures)
                raise ApinizerResourceError(
                    f"{self.subject(props, id_)}: deployment failed in {reasons or target[2]}") from None
        return self.outputs(props, **self.deployed_outputs)

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        outs = self._deploy(props)
        self.created(props)
        return dyn.CreateResult("/".join(self.identity("", props)), outs)

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        # A changed trigger, or drift that refresh found: either way, deploy again.
        return dyn.UpdateResult(self._deploy(news, id_))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        target = self.identity(id_, props)
        live = self.read_recorded(props, lambda client: self.live_outputs(client, target))
        if live is None:
            return dyn.ReadResult(None, {})  # the object is gone, and its deployments with it
        inputs = {key: value for key, value in inputs_of(props).items() if key not in self.deployed_outputs}
        inputs.update(zip(self.replace_fields, target, strict=True))
        return self.refreshed(id_, props, self.outputs(inputs, **live), inputs)

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import BadRequestError, NotFoundError

        from ._errors import container_gone

        target = self.identity(id_, props)
        with self.writing(client, target[0], target[1]):
            try:
                self.deployables(client).undeploy(*target)
            except NotFoundError as error:
                if not container_gone(error):
                    raise
            except BadRequestError as error:
                if not self.nothing_to_undeploy(error, target):
                    raise
