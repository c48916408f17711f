"""``ApiProxyGroup``: an API proxy group with its member proxies, and its dynamic provider.

The provider's module path and class name
(``apinizer_pulumi.resources.api_proxy_group.ApiProxyGroupProvider``) are recorded by reference
in every stack's state: they never move without an alias.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/index.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, inputs_of, lazy_model
from ._connection import ConnectionArgs
from ._create import ExactlyOnce, after_create, confirmed, read_retried
from ._errors import ApinizerResourceError, translated
from ._named import NamedObject
from .api_proxy import ClientRouteArgs

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError

#: The create page's answer to a taken name ("ApiProxyGroup: (X) is already created! ...").
_ALREADY_CREATED = "is already created"
#: Computed outputs (everything else is an input).
_COMPUTED = ("api_proxy_group_id",)


def _spec(props: Mapping[str, Any]) -> Any:
    from ._group_inputs import ApiProxyGroupInputs

    return ApiProxyGroupInputs.model_validate(inputs_of(props)).spec()


def _already_created(error: APIStatusError) -> bool:
    return _ALREADY_CREATED in (error.error_description or "")


class ApiProxyGroupProvider(NamedObject):
    """Create, update and delete a group; its member list is written by adding and removing members."""

    kind = "ApiProxyGroup"
    inputs_model = lazy_model("apinizer_pulumi.resources._group_inputs", "ApiProxyGroupInputs")

    @staticmethod
    def _members(client: ApinizerClient, project: str, name: str, *, add: Sequence[str],
                 remove: Sequence[str], done: list[str] | None = None) -> list[str]:
        """Add, then remove members; the members added, each appended to ``done`` once the gateway
        confirmed it (so that a failure part-way leaves there the ones that were)."""
        done = [] if done is None else done
        for proxy in add:
            client.api_proxy_groups.add_api_proxy(project, name, proxy)
            done.append(proxy)
        for proxy in remove:
            try:
                client.api_proxy_groups.remove_api_proxy(project, name, proxy)
            except Exception as error:
                from apinizer_pulumi.client import BadRequestError

                # A proxy deleted since left the group with it (the emulator's documented choice;
                # the gateway answers that the proxy is not found).
                if not (isinstance(error, BadRequestError)
                        and (error.error_description or "").startswith(f"ApiProxy ({proxy})")):
                    raise
        return done

    def _create(self, client: ApinizerClient, props: Mapping[str, Any], spec: Any, who: str) -> None:
        """The create, exactly once; with ``adopt``, a group of this name is taken over instead."""
        project, name = self.identity("", props)
        create = ExactlyOnce(
            send=lambda: client.api_proxy_groups.create(project, spec),
            # The list answers name and description: a group of this name and description
            # found after a lost answer is taken as this create's.
            look_up=lambda: client.api_proxy_groups.find(project, name),
            made_by=lambda live: (live.description or None) == (spec.description or None),
            already_exists=_already_created,
            noun="API proxy group",
            namesake="an API proxy group with this name",
        )
        # Taken over: the API cannot read a group's route or members, so every declared
        # field is written, and every declared member added.
        self.create_once(create, _already_created, props, who,
                         lambda: client.api_proxy_groups.update(project, spec), forced=False)

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._reads import group_writing, live_group

        project, name = self.identity("", props)
        who = self.subject(props)
        client = self.client(props)
        spec = _spec(props)
        members = list(props.get("api_proxy_names") or [])
        with group_writing(client, project, name):
            if spec is None:
                # Adopted without a route (what ``generate`` writes): taken over as it is.
                if client.api_proxy_groups.find(project, name) is None:
                    raise ApinizerResourceError(
                        f"{who}: adopt=True found no group of this name, and without client_route "
                        "there is nothing to create it from")
                self.created(props)
            else:
                self._create(client, props, spec, who)
            added: list[str] = []
            added = confirmed(who, "adding its member proxies", lambda: self._members(
                client, project, name, add=members, remove=[], done=added), added)
        outs = self.outputs(props, api_proxy_names=added)
        with after_create(who, "reading back its id"):
            live = read_retried(lambda: live_group(client, project, name))
            outs["api_proxy_group_id"] = live.id if live is not None else None
        return dyn.CreateResult(f"{project}/{name}", outs)

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import group_writing

        project, name = self.identity(id_, news)
        client = self.client(news)
        before = [str(p) for p in olds.get("api_proxy_names") or []]
        after = [str(p) for p in news.get("api_proxy_names") or []]
        with group_writing(client, project, name):
            if any(olds.get(key) != news.get(key) for key in ("description", "client_route")):
                spec = _spec(news)
                if spec is None:
                    raise ApinizerResourceError(
                        f"{self.subject(news, id_)}: the API's update writes every field of a group: "
                        "declare client_route to change its description")
                client.api_proxy_groups.update(project, spec)
            self._members(client, project, name, add=[p for p in after if p not in before],
                          remove=[p for p in before if p not in after])
        return dyn.UpdateResult(self.outputs(news, api_proxy_group_id=olds.get("api_proxy_group_id")))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_group

        project, name = self.identity(id_, props)
        live = self.read_recorded(props, lambda client: live_group(client, project, name))
        if live is None:
            return dyn.ReadResult(None, {})  # the gateway has no such group: dropped from the state
        inputs = self.recorded_inputs(id_, props, _COMPUTED)
        # The list answers the description only: the route and the members are as last written.
        if live.description is not None or inputs.get("description") is not None:
            inputs["description"] = live.description
        if inputs.get("description") is None:
            inputs.pop("description", None)
        inputs.setdefault("api_proxy_names", [])
        return self.refreshed(id_, props, self.outputs(inputs, api_proxy_group_id=live.id), inputs)

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import group_writing

        with group_writing(client, project, name):
            client.api_proxy_groups.delete(project, name)

    @staticmethod
    def gone(error: APIStatusError) -> bool:
        from apinizer_pulumi.client import BadRequestError, NotFoundError, group_not_found

        from ._errors import container_gone

        if isinstance(error, NotFoundError):
            return container_gone(error)
        return isinstance(error, BadRequestError) and group_not_found(error)


class ApiProxyGroup(dyn.Resource, module="apinizer", name="ApiProxyGroup"):
    """An API proxy group: proxies deployed together under a shared client route.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it; ``description``
    and ``client_route`` change in place (one write of every field), and ``api_proxy_names``
    by adding and removing members. The member list is the program's: members it drops are
    removed, but the API cannot list a group's members, so a member added outside Pulumi is
    neither seen nor removed. Refresh reads the project's group list (one read per project):
    a deleted group is dropped from the state and a changed description is drift; the route and
    the members are kept as last written. With ``adopt=True`` a group that exists is taken over
    by writing every declared field and adding every declared member. Destroy deletes the group;
    its proxies stay. Deploy it with :class:`ApiProxyGroupDeployment`.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/crud/create-api-proxy-group.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the group."""
    name: pulumi.Output[str]
    """The group's name, unique within the project."""
    description: pulumi.Output[str | None]
    """The group's description."""
    client_route: pulumi.Output[dict[str, Any]]
    """How clients reach the group's proxies (snake_case keys, as declared)."""
    api_proxy_names: pulumi.Output[list[str]]
    """The member proxies, as written."""
    api_proxy_group_id: pulumi.Output[str | None]
    """The group's id, as the list answers it."""
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
        client_route: pulumi.Input[ClientRouteArgs | Mapping[str, Any]] | None = None,
        description: pulumi.Input[str] | None = None,
        api_proxy_names: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an API proxy group.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the group.
        :param name: The group's name; it cannot change in place.
        :param client_route: A :class:`ClientRouteArgs` (or dict): ``relative_paths`` (at least one,
            each at least 2 characters), ``virtual_hosts`` (sent as ``hostList``), ``methods``,
            ``headers``, ``buffer_request`` and ``buffer_response`` (default true). Required but with
            ``adopt``, which without it takes the group over with the route it has (as ``generate`` writes).
        :param description: Free text.
        :param api_proxy_names: The member proxies (``ApiProxy.name`` makes the dependency); each
            must exist in the project.
        :param adopt: Take over an existing group of the same name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, name=name, description=description,
                               client_route=client_route, api_proxy_names=api_proxy_names or [],
                               adopt=adopt, api_proxy_group_id=None)
        props[CONNECTION] = connection_props(connection)
        super().__init__(ApiProxyGroupProvider(), resource_name, props, resource_options(opts))
        from ._literal_names import named_proxies

        named_proxies(self, "ApiProxyGroup", resource_name, project_name, api_proxy_names, "api_proxy_names")
