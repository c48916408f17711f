"""What the deployments of one management API to its environments share: the environment check at
preview, and promotion (``promote_from``), which deploys to an environment only what another one runs.

The design and its reasons are in docs/stacks.md. Only fields the product documents are read:

* the environments a project can deploy to, ``GET /apiops/environments/{projectName}``
  (https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/03-environments/get-environments-by-project.md),
  read once per provider process, gateway, account and project;
* a proxy's ``deploymentList`` (``environmentName``, ``deployed``, ``redeployRequired``)
  (https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/get-api-proxy.md);
* a group's environments (``environmentName``, ``deployed``)
  (https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/deployment/list-environments.md).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pulumi.dynamic as dyn

from ._base import CONNECTION, ApinizerProvider, declared_here, inputs_of, is_unknown, known_connection
from ._connection import client_for, connection_check_skipped, gateway_url, resolve
from ._errors import ApinizerResourceError

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient

#: The inputs of a deployment that name an environment.
ENVIRONMENT_FIELDS = ("environment_name", "promote_from")

#: The environment names each (URL, account, project) can deploy to, read once per process; None
#: when the gateway refused to tell (403: a role without access to the list; the deploy decides then).
#: A read that failed otherwise is not kept: it says nothing of the environments, and kept, it would
#: skip the check for every later preview of the process.
_ENVIRONMENTS: dict[tuple[str, str, str], frozenset[str] | None] = {}
_ENVIRONMENTS_LOCK = threading.Lock()


def _account(client: ApinizerClient) -> str:
    return str(getattr(client, "fingerprint", f"client-{id(client)}"))


def known_environments(client: ApinizerClient, project: str) -> frozenset[str] | None:
    """The names of the environments ``project`` can deploy to, one read per process and project;
    None when the gateway refuses or fails to tell (the check is then skipped)."""
    from apinizer_pulumi.client import ApinizerError, PermissionDeniedError

    key = (client.base_url, _account(client), project)
    with _ENVIRONMENTS_LOCK:  # held across the one read: the checks waiting for it need its answer
        if key not in _ENVIRONMENTS:
            try:
                _ENVIRONMENTS[key] = frozenset(
                    item.name for item in client.environments.list_for_project(project))
            except PermissionDeniedError:
                _ENVIRONMENTS[key] = None  # this account's answer: asking again gets the same
            except ApinizerError:
                return None  # not kept: the next check reads again
        return _ENVIRONMENTS[key]


def forget_environments() -> None:
    """Forget every environment list read (tests; a process that outlives a new environment)."""
    with _ENVIRONMENTS_LOCK:
        _ENVIRONMENTS.clear()


def environment_failures(client: ApinizerClient, project: str,
                         named: Mapping[str, Any]) -> list[dyn.CheckFailure]:
    """One failure per input of ``named`` whose environment the project cannot deploy to."""
    wanted = {field: value for field, value in named.items() if isinstance(value, str) and value}
    if not wanted:
        return []
    valid = known_environments(client, project)
    if valid is None:
        return []
    listed = ", ".join(sorted(valid)) or "none"
    return [dyn.CheckFailure(field, f"environment {value!r} does not exist in project {project!r} on "
                                    f"{client.base_url}; its environments are: {listed}")
            for field, value in wanted.items() if value not in valid]


def preview_client(stack_config: Any, inputs: Mapping[str, Any]) -> ApinizerClient | None:
    """The client a preview may read with, or None where it must not (the connection check is turned
    off) or cannot (a connection not known yet, or no settings)."""
    given = known_connection(inputs.get(CONNECTION))
    if given is None or connection_check_skipped(stack_config):
        return None
    try:
        return client_for(resolve(given, stack_config))
    except ApinizerResourceError:
        return None


def not_promotable(source: str, *, deployed: bool, stale: bool, what: str) -> str | None:
    """Why ``what`` cannot be promoted from ``source``; None when ``source`` runs its configuration."""
    if not deployed:
        return (f"promote_from={source!r}: {what} is not deployed to {source!r}, so there is nothing tested "
                f"to promote; deploy it to {source!r} first (`pulumi up` of the stack that deploys there)")
    if stale:
        return (f"promote_from={source!r}: {what} has changed since it was deployed to {source!r} (the "
                f"gateway reports redeployRequired there), so {source!r} does not run the configuration "
                f"this would deploy; deploy it to {source!r} and test it (`pulumi up` of the stack that "
                "deploys there), then run this again")
    return None


class DeploymentProvider(ApinizerProvider):
    """A provider of one deployment to one environment: checks its environments at preview, and
    refuses a promotion of a configuration that the source environment does not run."""

    #: The input naming what is deployed (``api_proxy_name``, ``api_proxy_group_name``).
    deployed_field: str

    def preview_client(self, inputs: Mapping[str, Any]) -> ApinizerClient | None:
        """The client a preview may read with (:func:`preview_client`)."""
        return preview_client(getattr(self, "_stack_config", None), inputs)

    def promotion_problem(self, client: ApinizerClient, props: Mapping[str, Any], *,
                          fresh: bool) -> str | None:
        """Why the deployment of ``props`` may not be promoted now; ``fresh`` reads past the shared reads."""
        raise NotImplementedError

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        result = super().check_inputs(olds, news)
        inputs = result.inputs
        project = inputs.get("project_name")
        if result.failures or not isinstance(project, str) or is_unknown(project):
            return result
        client = self.preview_client(inputs)
        if client is None:
            return result
        failures = environment_failures(client, project, {
            field: inputs.get(field) for field in ENVIRONMENT_FIELDS if not is_unknown(inputs.get(field))})
        # A new deployment's preview has no diff: its promotion is checked here. An existing one's is
        # checked by diff, and only when it would deploy. When this program also deploys to the source
        # environment, a preview cannot know what that deployment will make: `up` checks it.
        if not failures and not inputs_of(olds) and self._promotion_known(inputs) \
                and not self._source_declared_here(inputs):
            problem = self.promotion_problem(client, inputs, fresh=False)
            if problem is not None:
                failures.append(dyn.CheckFailure("promote_from", problem))
        return dyn.CheckResult(inputs, failures)

    def _source_declared_here(self, props: Mapping[str, Any]) -> bool:
        url = gateway_url(known_connection(props.get(CONNECTION)), getattr(self, "_stack_config", None))
        source = (props["project_name"], props[self.deployed_field], props["promote_from"])
        return declared_here(self.kind, url, source)

    def _promotion_known(self, props: Mapping[str, Any]) -> bool:
        return all(isinstance(props.get(field), str) and props.get(field) and not is_unknown(props.get(field))
                   for field in ("promote_from", "project_name", self.deployed_field, "environment_name"))

    def promoted_diff(self, result: dyn.DiffResult, news: Mapping[str, Any], *,
                      behind: Any) -> dyn.DiffResult:
        """``result``, turned into a change when the target environment is ``behind`` (a callable of the
        client, read only for a promotion), and refused when it would deploy what the source does not run."""
        if not self._promotion_known(news):
            return result
        client = self.preview_client(news)
        if client is None:
            return result
        if not result.changes:
            if not behind(client):
                return result
            # The definitions changed (in the stack that owns them): the promotion deploys them here.
            result = dyn.DiffResult(changes=True, replaces=[], stables=[], delete_before_replace=False)
        problem = self.promotion_problem(client, news, fresh=False)
        if problem is not None:
            raise ApinizerResourceError(problem)
        return result

    def ensure_promotable(self, client: ApinizerClient, props: Mapping[str, Any]) -> None:
        """At ``up``, just before deploying: the source environment, read afresh, runs this configuration."""
        if not props.get("promote_from"):
            return
        problem = self.promotion_problem(client, props, fresh=True)
        if problem is not None:
            raise ApinizerResourceError(problem)
