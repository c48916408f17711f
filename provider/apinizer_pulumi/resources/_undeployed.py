"""Objects that every write deploys (an environment variable, a certificate): a deployment that failed in
some environments is a warning and an output, not the step's failure, and the next ``pulumi up`` writes
the object again.

The write stands on the gateway when its deployment fails somewhere (the answer's ``environmentResults``
say where), so failing the step would leave an object the stack does not know (a create) or records as
not written (an update). Instead the environments are recorded in the outputs (:data:`UNDEPLOYED`,
present only when some failed), and :func:`redeploy_diff` makes the next diff a change even with the
inputs unchanged: the update then deploys the object again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pulumi
import pulumi.dynamic as dyn

#: The output that names the environments whose deployment of the last write failed: present only
#: when some did, so that the next ``pulumi up`` shows a change and deploys the object again.
UNDEPLOYED = "undeployed_environments"


def deployed(who: str, operation: str, send: Callable[[], object]) -> list[str]:
    """Run a write and return the environments whose deployment failed (none when all passed), each
    named in a warning (``who``: the resource, ``operation``: what the write did, "created")."""
    from apinizer_pulumi.client import DeploymentFailedError

    try:
        send()
    except DeploymentFailedError as error:
        where = "; ".join(f"{env}: {message or 'no message'}" for env, message in error.failures)
        pulumi.log.warn(
            f"{who}: {operation}, but its deployment failed in {where or 'an environment'}; "
            "the next `pulumi up` deploys it again")
        return sorted({env for env, _ in error.failures}) or ["every environment"]
    return []


def undeployed_outputs(undeployed: list[str]) -> dict[str, Any]:
    """The outputs that record ``undeployed`` (none when it is empty)."""
    return {UNDEPLOYED: undeployed} if undeployed else {}


def redeploy_diff(result: dyn.DiffResult, olds: Mapping[str, Any]) -> dyn.DiffResult:
    """``result``, or a change when the last write's deployment failed somewhere, even with the inputs
    unchanged: the update deploys the object again."""
    if not result.changes and olds.get(UNDEPLOYED):
        return dyn.DiffResult(changes=True, replaces=[], stables=[], delete_before_replace=False)
    return result
