"""``Endpoint``: an API method of a REST API proxy, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.endpoint.EndpointProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props, typed_statically
from ._base import CONNECTION, lazy_model
from ._connection import ConnectionArgs
from ._create import ExactlyOnce, after_create, confirmed, read_retried
from ._errors import MANAGED_ELSEWHERE, TAKE_OVER, ApinizerResourceError, container_gone, translated
from ._named import HandedOver
from ._types import HttpMethodName, HttpMethodValue

if TYPE_CHECKING:
    # Imported where used: a program declaring endpoints needs neither (docs/performance.md).
    from apinizer_pulumi.client import ApinizerClient
    from apinizer_pulumi.models import Endpoint as LiveEndpoint
    from apinizer_pulumi.models import EndpointSpec

#: The gateway's answer to deleting an endpoint of a SOAP proxy, which no retry can change.
SOAP_DELETE_REFUSED = "Endpoint can only be deleted from REST API Proxies!"


def __getattr__(name: str) -> Any:
    if name == "EndpointInputs":  # still importable from here, as before it moved
        from ._inputs import EndpointInputs

        return EndpointInputs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def endpoint_id(project: str, proxy: str, method: str, name: str) -> str:
    """``{project}/{proxy}/{METHOD}/{name}``: the resource id of an endpoint and of its settings."""
    return f"{project}/{proxy}/{method}/{name}"


#: The inputs that name an endpoint, in the order (project, proxy, name, method).
ENDPOINT_KEYS = ("project_name", "api_proxy_name", "name", "http_method")


def identity(
    id_: str, props: Mapping[str, Any], keys: tuple[str, str, str, str] = ENDPOINT_KEYS
) -> tuple[str, str, str, str]:
    """(project, proxy, METHOD, name) from the state's ``keys``, or from the id when the state lacks them."""
    if all(props.get(key) for key in keys):
        project, proxy, name, method = (str(props[key]) for key in keys)
        return project, proxy, method, name
    project, proxy, method, name = id_.split("/", 3)
    return project, proxy, method, name


def subject(kind: str, props: Mapping[str, Any], id_: str = "",
            keys: tuple[str, str, str, str] = ENDPOINT_KEYS) -> str:
    """How messages name a resource of an endpoint, e.g. ``apinizer:Endpoint GET /pets in Demo/PetStore``."""
    try:
        project, proxy, method, name = identity(id_, props, keys)
    except ValueError:
        return f"apinizer:{kind}"
    return f"apinizer:{kind} {method} {name} in {project}/{proxy}"


#: The end of an "already exists" message: a forced replace is what most often meets it.
FORCED = (" (a `pulumi up --replace` of this resource needs adopt=True, which replaces it in place, "
          "or the resource option delete_before_replace=True, which deletes and creates it again)")


def _description(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _created_id(client: ApinizerClient, props: Mapping[str, Any]) -> str:
    """The gateway's id of the endpoint just created.

    From the proxy's list sent after the create's answer (shared with the other creates' reads);
    when that list does not hold it (a list served from a replica that lags, an answer that is no
    list), from the endpoint itself. Raises when neither names it: the caller turns that into a
    warning, because the create itself is confirmed.
    """
    from apinizer_pulumi.client import ApinizerError

    from ._reads import find_endpoint

    project, proxy, method, name = identity("", props)
    try:
        live = find_endpoint(client, project, proxy, name, method)
    except ApinizerError:
        live = None
    if live is None:
        live = client.endpoints.get(project, proxy, name, method)
    return live.id


def live_inputs(live: LiveEndpoint, project: str, proxy: str) -> dict[str, Any]:
    """What the gateway holds, spelled as ``Endpoint`` inputs (an empty description left out)."""
    inputs: dict[str, Any] = {
        "project_name": project,
        "api_proxy_name": proxy,
        "name": live.endpoint,
        "http_method": live.http_method.value,
        "active": live.active,
    }
    if live.description:
        inputs["description"] = live.description
    if live.backend_resource_url is not None:
        inputs["backend_resource_url"] = live.backend_resource_url
    if live.backend_http_method is not None:
        inputs["backend_http_method"] = live.backend_http_method.value
    return inputs


# -- a create whose answer may be lost: the rule of resources/_create.py -------------------------


def _made_by(live: LiveEndpoint, spec: EndpointSpec) -> bool:
    """Whether ``live`` is exactly what creating ``spec`` gives: new, active and as sent."""
    return (
        live.active
        and (live.description or None) == (spec.description or None)
        and live.backend_resource_url == spec.backend_resource_url
        and live.backend_http_method == spec.backend_http_method
    )


def create_exactly_once(client: ApinizerClient, project: str, proxy: str, spec: EndpointSpec) -> None:
    """Create the endpoint once, also when answers are lost on the way (see ``_create``).

    The look-up asks for the endpoint itself (``details``), not the proxy's list: one small answer
    that names the endpoint or says it is not found.
    """
    ExactlyOnce(
        send=lambda: client.endpoints.create(project, proxy, spec),
        look_up=lambda: client.endpoints.find(project, proxy, spec.name, spec.http_method),
        made_by=lambda live: _made_by(live, spec),
        already_exists=lambda error: True,  # any 400 to a create of a taken pair is judged by a look-up
        noun="endpoint",
        namesake="an endpoint with this name and method",
    ).run()


class EndpointProvider(HandedOver):
    """Create, update, read and delete one endpoint through the management API."""

    kind = "Endpoint"
    inputs_model = lazy_model("apinizer_pulumi.resources._inputs", "EndpointInputs")
    replace_fields = ("project_name", "api_proxy_name", "name", "http_method")
    ignored_fields = (CONNECTION, "adopt")

    def normalize(self, model: Any) -> dict[str, Any]:
        normalized = super().normalize(model)
        if not normalized.get("description"):
            normalized.pop("description", None)
        return normalized

    @staticmethod
    def _converge(client: ApinizerClient, props: Mapping[str, Any], current: Mapping[str, Any]) -> None:
        """Bring the endpoint from ``current`` to ``props`` with only the calls that differ."""
        project, proxy, method, name = identity("", props)
        changes: dict[str, str] = {}
        if _description(props.get("description")) != _description(current.get("description")):
            changes["description"] = _description(props.get("description"))
        for key in ("backend_resource_url", "backend_http_method"):
            if props.get(key) != current.get(key):
                changes[key] = str(props[key])
        if changes:
            client.endpoints.update(project, proxy, name, method, **changes)
        active = bool(props.get("active", True))
        if active != bool(current.get("active", True)):
            client.endpoints.set_status(project, proxy, name, method, active)

    @translated(lambda self, props: subject("Endpoint", props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from apinizer_pulumi.client import BadRequestError
        from apinizer_pulumi.models import EndpointSpec, HttpMethod

        from ._reads import live_endpoint

        project, proxy, method, name = identity("", props)
        client = self.client(props)
        existing = live_endpoint(client, project, proxy, name, method) if props.get("adopt") else None
        if existing is not None:
            self._converge(client, props, live_inputs(existing, project, proxy))
            gateway_id = existing.id
            self.created(props)  # taken over: a delete of the same endpoint in this operation leaves it
        else:
            spec = EndpointSpec(
                name=name,
                description=props.get("description") or None,
                http_method=HttpMethod(method),
                backend_resource_url=props["backend_resource_url"],
                backend_http_method=HttpMethod(props["backend_http_method"]),
            )
            who = subject("Endpoint", props)
            try:
                create_exactly_once(client, project, proxy, spec)
            except BadRequestError as error:
                if client.endpoints.find(project, proxy, name, method) is None:
                    raise
                raise ApinizerResourceError(
                    f"{who}: already exists on the gateway ({error.status_code} "
                    f"{error.error}: {error.error_description}); {TAKE_OVER}{FORCED}{MANAGED_ELSEWHERE}"
                ) from None
            except ApinizerResourceError as error:
                raise ApinizerResourceError(f"{who}: {error.message}") from None
            # The create answer is only {success}: the id comes from a list sent after it.
            gateway_id = None
            with after_create(who, "reading back its gateway id"):
                gateway_id = read_retried(lambda: _created_id(client, props))
            if props.get("active") is False:
                # Outputs say what the gateway has: a failed disable shows as active, which the
                # next `pulumi up` sees as a change and carries out.
                def disable() -> bool:
                    client.endpoints.set_status(project, proxy, name, method, False)
                    return False

                props = {**props, "active": confirmed(who, "disabling it", disable, True)}
        outs = self.outputs(props, endpoint_id=gateway_id)
        return dyn.CreateResult(endpoint_id(project, proxy, method, name), outs)

    @translated(lambda self, id_, olds, news: subject("Endpoint", news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from apinizer_pulumi.client import ApinizerError

        client = self.client(news)
        self._converge(client, news, olds)
        gateway_id = olds.get("endpoint_id")
        if gateway_id is None:  # a create whose read-back failed left it to be filled in here
            project, proxy, method, name = identity(id_, news)
            with contextlib.suppress(ApinizerError):
                gateway_id = client.endpoints.get(project, proxy, name, method).id
        return dyn.UpdateResult(self.outputs(news, endpoint_id=gateway_id))

    @translated(lambda self, id_, props: subject("Endpoint", props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_endpoint

        project, proxy, method, name = identity(id_, props)
        live = self.read_recorded(
            props, lambda client: live_endpoint(client, project, proxy, name, method)
        )
        if live is None:
            # No id and no outputs: the engine drops the resource from the state.
            return dyn.ReadResult(None, {})
        inputs = live_inputs(live, project, proxy)
        inputs["adopt"] = bool(props.get("adopt", False))
        if props.get(CONNECTION) is not None:
            inputs[CONNECTION] = props[CONNECTION]
        return self.refreshed(id_, props, self.outputs(inputs, endpoint_id=live.id), inputs)

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        return subject("Endpoint", props, id_)

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import BadRequestError, NotFoundError

        project, proxy, method, name = identity(id_, props)
        try:
            client.endpoints.delete(project, proxy, name, method)
        except NotFoundError as error:
            if container_gone(error):
                return  # the proxy is gone, and its endpoints with it
            raise
        except BadRequestError as error:
            try:
                gone = client.endpoints.find(project, proxy, name, method) is None
            except NotFoundError as missing:
                if not container_gone(missing):
                    raise
                gone = True
            if gone:
                return
            if SOAP_DELETE_REFUSED not in (error.error_description or ""):
                raise
            # An adopted endpoint of a SOAP proxy: the gateway never deletes those (they come
            # from the service description), so destroy releases it from the stack instead of
            # failing on every attempt. The dynamic provider server has no engine connection:
            # this lands on its stderr, which the engine shows in the operation's output.
            pulumi.log.warn(
                f"{subject('Endpoint', props, id_)}: left on the gateway and removed from the stack only: "
                "endpoints of a SOAP proxy come from its service description and the gateway "
                "refuses to delete them; re-import the service description to remove it"
            )


@typed_statically
class Endpoint(dyn.Resource, module="apinizer", name="Endpoint"):
    """An endpoint (API method) of a REST API proxy.

    Id: ``{project}/{proxy}/{METHOD}/{name}``. Changing ``project_name``, ``api_proxy_name``,
    ``name`` or ``http_method`` replaces it; ``description``, the backend fields and ``active``
    change in place. Destroy deletes it from the gateway, with the policies attached to it.

    With ``adopt=True``, an endpoint that already exists with this (name, method) is taken over
    (brought to these inputs) instead of failing the create. That works on a SOAP proxy's
    endpoint too, but the gateway never deletes those: destroy then only removes it from the
    stack, with a warning.
    """

    project_name: pulumi.Output[str]
    """The project that holds the API proxy."""
    api_proxy_name: pulumi.Output[str]
    """The REST API proxy that holds the endpoint."""
    name: pulumi.Output[str]
    """The endpoint's path, e.g. ``/api/users``."""
    http_method: pulumi.Output[HttpMethodName]
    """The endpoint's HTTP method (GET, POST, ... or ALL)."""
    backend_resource_url: pulumi.Output[str]
    """The backend resource: a relative path or an absolute URL."""
    backend_http_method: pulumi.Output[HttpMethodName]
    """The HTTP method of the backend call."""
    description: pulumi.Output[str | None]
    """Free text."""
    active: pulumi.Output[bool]
    """Whether the endpoint serves traffic (a disabled one answers 404)."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over an endpoint that already exists."""
    endpoint_id: pulumi.Output[str]
    """The gateway's id of the endpoint."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_name: pulumi.Input[str],
        name: pulumi.Input[str],
        http_method: pulumi.Input[HttpMethodValue],
        backend_resource_url: pulumi.Input[str],
        backend_http_method: pulumi.Input[HttpMethodValue],
        description: pulumi.Input[str] | None = None,
        active: pulumi.Input[bool] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an endpoint.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the API proxy.
        :param api_proxy_name: The REST API proxy to add the endpoint to.
        :param name: The endpoint's path, e.g. ``/api/users``.
        :param http_method: GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD, TRACE or ALL.
        :param backend_resource_url: The backend resource: a relative path or an absolute URL.
        :param backend_http_method: The HTTP method of the backend call.
        :param description: Free text; left out means empty.
        :param active: Whether the endpoint serves traffic (default true).
        :param adopt: Take over an existing endpoint with the same (name, method) (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(
            project_name=project_name,
            api_proxy_name=api_proxy_name,
            name=name,
            http_method=http_method,
            backend_resource_url=backend_resource_url,
            backend_http_method=backend_http_method,
            description=description,
            active=active,
            adopt=adopt,
            endpoint_id=None,
        )
        props["connection"] = connection_props(connection)
        super().__init__(EndpointProvider(), resource_name, props, resource_options(opts))
