"""``RlclCredentials``: the credential list of a rate-limit control list, and its dynamic provider.

The provider's module path and class name
(``apinizer_pulumi.resources.rlcl_credentials.RlclCredentialsProvider``) are recorded
by reference in every stack's state: they never move without an alias.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/credentials/index.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi

from ._base import lazy_model
from ._connection import ConnectionArgs
from ._rlcl_list import RlclListResource
from .rlcl import RlclList

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient


def _names(props: Mapping[str, Any]) -> list[str]:
    return [str(name) for name in props.get("credential_names") or []]


class RlclCredentialsProvider(RlclList):
    """Own the credential list of an RLCL: create and update replace it whole, delete removes its names."""

    kind = "RlclCredentials"
    inputs_model = lazy_model("apinizer_pulumi.resources._group_inputs", "RlclCredentialsInputs")

    def replace(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any], *,
                created: bool) -> None:
        client.rlcl.replace_credentials(project, parent, _names(props))

    def remove(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any]) -> None:
        # Names no longer in the RLCL are ignored by the gateway (documented).
        client.rlcl.delete_credentials(project, parent, _names(props))

    def declares_any(self, props: Mapping[str, Any]) -> bool:
        return bool(_names(props))


class RlclCredentials(RlclListResource, module="apinizer", name="RlclCredentials"):
    """The credentials of a rate-limit control list (RLCL), owned whole by this resource.

    Id: ``{project}/{rlcl}``. Changing ``project_name`` or ``rlcl_name`` replaces it; a change of
    ``credential_names`` replaces the RLCL's list with the declared one in one call (names added
    outside Pulumi are removed then). Create does the same. Destroy removes exactly the declared
    names. Each name is a credential's username that exists in the project. The API cannot read
    an RLCL's credentials, so refresh keeps the recorded state. Declare at most one per RLCL.
    """

    credential_names: pulumi.Output[list[str]]
    """The credentials' usernames, as written."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        rlcl_name: pulumi.Input[str],
        credential_names: pulumi.Input[Sequence[pulumi.Input[str]]],
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the credential list of an RLCL.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the RLCL.
        :param rlcl_name: The RLCL's name (``Rlcl.name`` makes the dependency).
        :param credential_names: At least one credential username, each once.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        self._register(RlclCredentialsProvider(), resource_name, project_name, rlcl_name,
                       {"credential_names": credential_names}, connection, opts)
