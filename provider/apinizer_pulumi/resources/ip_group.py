"""``IpGroup``: an IP group and its whole address list, and its dynamic provider.

The API writes a group (create, update of its description, delete) and its addresses (add,
replace, remove) but has no operation that reads either: refresh keeps what was last written,
and drift made outside Pulumi is not seen (docs/resources/ip-group.md).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md

The provider's module path and class name (``apinizer_pulumi.resources.ip_group.IpGroupProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, lazy_model
from ._connection import ConnectionArgs
from ._errors import translated
from ._named import WrittenOnly

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError

# The documented answers: "An IP Group with same name (X) already exists in project!" (create),
# "IP Group (X) is not found!" (update, delete, addresses) and "ipList value can not be empty!".
_ALREADY_EXISTS = re.compile(r"\bIP Group\b.*\balready exists\b", re.IGNORECASE | re.DOTALL)
_NOT_FOUND = re.compile(r"^IP Group \(.*\) is not found!?$", re.DOTALL)
_EMPTY_LIST = re.compile(r"\bipList\b.*\bempty\b", re.IGNORECASE)
#: An address of TEST-NET-1 (RFC 5737), never routed: the stepping stone to an empty group where
#: the gateway refuses to replace the list with an empty one (see :func:`set_addresses`).
STEPPING_STONE = "192.0.2.1"


def _taken(error: BadRequestError) -> bool:
    return bool(_ALREADY_EXISTS.search(error.error_description or ""))


def group_not_found(error: APIStatusError) -> bool:
    """The gateway says the group (or, with a 404, its project) does not exist."""
    from apinizer_pulumi.client import NotFoundError

    from ._errors import container_gone

    if isinstance(error, NotFoundError):
        return container_gone(error)
    return error.status_code == 400 and bool(_NOT_FOUND.match((error.error_description or "").strip()))


def set_addresses(client: ApinizerClient, project: str, name: str, addresses: Sequence[str]) -> None:
    """Make the group's addresses exactly ``addresses``: one replace.

    An empty list is sent as it is first (the replace page says it clears the group); a gateway
    that refuses it (the same page documents ``ipList value can not be empty!``) gets the list
    replaced by :data:`STEPPING_STONE` and that one removed: two requests, and the group is empty
    whatever it held, which the API gives no way to read.
    """
    from apinizer_pulumi.client import BadRequestError

    if addresses:
        client.ip_groups.replace_ips(project, name, list(addresses))
        return
    try:
        client.ip_groups.replace_ips(project, name, [])
    except BadRequestError as error:
        if not _EMPTY_LIST.search(error.error_description or ""):
            raise
        client.ip_groups.replace_ips(project, name, [STEPPING_STONE])
        client.ip_groups.delete_ips(project, name, [STEPPING_STONE])


class IpGroupProvider(WrittenOnly):
    """Create a group and set its addresses; update either in place; delete the group."""

    kind = "IpGroup"
    inputs_model = lazy_model("apinizer_pulumi.resources._ip_group_inputs", "IpGroupInputs")

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import ExactlyOnce, confirmed

        project, name = self.identity("", props)
        who = self.subject(props)
        client = self.client(props)
        spec = {"name": name, "description": props.get("description")}
        addresses = list(props.get("addresses") or [])

        def take_over() -> None:
            # The API cannot read the group, so every declared field is written.
            client.ip_groups.update(project, spec)
            set_addresses(client, project, name, addresses)

        create = ExactlyOnce.blind(lambda: client.ip_groups.create(project, spec), _taken,
                                   noun="IP group", namesake="an IP group with this name")
        if not self.create_once(create, _taken, props, who, take_over):
            def write_addresses() -> list[str]:
                set_addresses(client, project, name, addresses)
                return addresses

            # The group exists (empty) and is this stack's: when the addresses fail, it is recorded
            # with none, so that the next `pulumi up` sets them.
            addresses = confirmed(who, "setting its addresses", write_addresses, [])
        return dyn.CreateResult(f"{project}/{name}", self.outputs({**props, "addresses": addresses}))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._base import same

        project, name = self.identity(id_, news)
        client = self.client(news)
        if not same(olds.get("description"), news.get("description")):
            client.ip_groups.update(project, {"name": name, "description": news.get("description")})
        if not same(olds.get("addresses"), news.get("addresses")):
            set_addresses(client, project, name, list(news.get("addresses") or []))
        return dyn.UpdateResult(self.outputs(news))

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        client.ip_groups.delete(project, name)

    gone = staticmethod(group_not_found)


class IpGroup(dyn.Resource, module="apinizer", name="IpGroup"):
    """An IP group: a named list of IPv4 addresses and CIDR ranges for the allow and block list policies.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new group is
    made first); ``description`` and ``addresses`` change in place. ``addresses`` is authoritative:
    every ``up`` makes the group hold exactly that list, in one replace call. Each address is checked
    at preview with the standard library's ``ipaddress``, and a bad one is named with its index
    (``addresses.2``). The API cannot read a group back, so refresh keeps the recorded state and
    sees no change made outside Pulumi. Destroy deletes the group and its addresses.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the group."""
    name: pulumi.Output[str]
    """The group's name, unique within the project."""
    description: pulumi.Output[str | None]
    """The group's description."""
    addresses: pulumi.Output[list[str]]
    """The group's addresses, as last written."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a group that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        addresses: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        description: pulumi.Input[str] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an IP group and its addresses.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the group.
        :param name: The group's name, unique within the project; it cannot change in place.
        :param addresses: Every address of the group: IPv4 addresses (``192.168.1.100``) and CIDR
            ranges (``10.0.0.0/8``), each once. Default: none.
        :param description: Free text.
        :param adopt: Take over a group of the same name that already exists (default false); its
            description and addresses are overwritten, since the API cannot read them.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, name=name, description=description,
                               addresses=addresses if addresses is not None else [], adopt=adopt)
        props[CONNECTION] = connection_props(connection)
        super().__init__(IpGroupProvider(), resource_name, props, resource_options(opts))
