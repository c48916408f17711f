"""The lifecycle of a settings object that *is* its parent: it exists as long as the parent does, and
the API writes it whole but cannot read it back (an endpoint's cache or WS-Addressing settings).

Create and update write the whole settings object (which takes over whatever was there); refresh
confirms that the parent still exists and otherwise keeps the recorded state (a parent gone takes
the resource out of the state); delete writes the defaults back, and a parent that is gone took its
settings with it. A kind's module holds what is its own:

* :meth:`SettingsOfParent.send`: the client's call that writes a settings model to the parent;
* :meth:`SettingsOfParent.declared` and :meth:`SettingsOfParent.defaults`: the model the inputs
  declare, and the one delete writes (the API's defaults, the feature off);
* ``settings_field``: the input that holds the object.

The parent's side (its identity, id, subject, and how to see that it is gone) is a subclass of its own
per kind of parent: :class:`EndpointSettingsProvider` for endpoints, with
:class:`EndpointSettingsResource` for the resource's shared outputs and registration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pulumi
import pulumi.dynamic as dyn

from apinizer_pulumi.client import ApinizerClient, APIStatusError
from apinizer_pulumi.models import ApiModel, HttpMethod, Name

from ._args import connection_props, resource_options, resource_props
from ._base import ApinizerProvider
from ._connection import ConnectionArgs
from ._errors import translated
from ._reads import live_endpoint
from ._types import HttpMethodName, HttpMethodValue
from .endpoint import endpoint_id, identity, subject

IDENTIFIERS = ("project_name", "api_proxy_name", "endpoint_name", "endpoint_http_method")


class EndpointSettingsInputs(ApiModel):
    """The identifiers of the endpoint whose settings a resource manages."""

    project_name: Name
    api_proxy_name: Name
    endpoint_name: Name
    endpoint_http_method: HttpMethod


class SettingsOfParent(ApinizerProvider):
    """Write one settings object of one parent; reset it to the defaults on delete."""

    #: The input that holds the settings object, e.g. ``cache_settings``.
    settings_field: ClassVar[str]

    # --- what a kind supplies ---------------------------------------------------------------

    def send(self, client: ApinizerClient, target: Any, settings: Any) -> None:
        """Write ``settings`` (a model) to the parent ``target`` (what :meth:`target` returns)."""
        raise NotImplementedError

    def declared(self, props: Mapping[str, Any]) -> Any:
        """The settings model that the inputs declare."""
        raise NotImplementedError

    def defaults(self, props: Mapping[str, Any]) -> Any:
        """The settings model that delete writes: the API's defaults, feature off."""
        raise NotImplementedError

    # --- what the kind of parent supplies ---------------------------------------------------

    def target(self, id_: str, props: Mapping[str, Any]) -> Any:
        """The parent these props (or this id) name."""
        raise NotImplementedError

    def resource_id(self, target: Any) -> str:
        """The resource's id: the parent's."""
        raise NotImplementedError

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        """The resource named in messages."""
        raise NotImplementedError

    def parent_gone(self, client: ApinizerClient, target: Any) -> bool:
        """Whether the parent no longer exists (a read)."""
        raise NotImplementedError

    # --- the lifecycle ----------------------------------------------------------------------

    def _write(self, props: Mapping[str, Any]) -> None:
        self.send(self.client(props), self.target("", props), self.declared(props))

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        self._write(props)
        return dyn.CreateResult(self.resource_id(self.target("", props)), self.outputs(props))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        self._write(news)
        return dyn.UpdateResult(self.outputs(news))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        target = self.target(id_, props)
        if self.read_recorded(props, lambda client: self.parent_gone(client, target)):
            return dyn.ReadResult(None, {})
        # The API cannot read these settings back: what was last written is what is known.
        return dyn.ReadResult(id_, self.outputs(props))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def delete(self, id_: str, props: dict[str, Any]) -> None:
        target = self.target(id_, props)

        def reset(client: ApinizerClient) -> None:
            try:
                self.send(client, target, self.defaults(props))
            except APIStatusError as error:
                # Settings of a parent that no longer exists are gone with it.
                if error.status_code not in (400, 404) or not self.parent_gone(client, target):
                    raise

        self.with_recorded_client(props, reset)


class EndpointSettingsProvider(SettingsOfParent):
    """Settings of one endpoint, named by :data:`IDENTIFIERS`; id ``{project}/{proxy}/{METHOD}/{name}``."""

    replace_fields = IDENTIFIERS

    def target(self, id_: str, props: Mapping[str, Any]) -> tuple[str, str, str, str]:
        """(project, proxy, METHOD, name) of the endpoint."""
        return identity(id_, props, IDENTIFIERS)

    def resource_id(self, target: Any) -> str:
        return endpoint_id(*target)

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        return subject(self.kind, props, id_, IDENTIFIERS)

    def parent_gone(self, client: ApinizerClient, target: Any) -> bool:
        project, proxy, method, name = target
        return live_endpoint(client, project, proxy, name, method) is None


class EndpointSettingsResource(dyn.Resource):
    """The outputs that both settings kinds share, and their registration."""

    project_name: pulumi.Output[str]
    """The project that holds the API proxy."""
    api_proxy_name: pulumi.Output[str]
    """The API proxy that holds the endpoint."""
    endpoint_name: pulumi.Output[str]
    """The endpoint's path (or, on a SOAP proxy, its operation name)."""
    endpoint_http_method: pulumi.Output[HttpMethodName]
    """The endpoint's HTTP method."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def _register(
        self,
        provider: EndpointSettingsProvider,
        resource_name: str,
        identifiers: tuple[
            pulumi.Input[str], pulumi.Input[str], pulumi.Input[str], pulumi.Input[HttpMethodValue]
        ],
        settings: Any,
        connection: ConnectionArgs | Mapping[str, Any] | None,
        opts: pulumi.ResourceOptions | None,
    ) -> None:
        props = resource_props(**dict(zip(IDENTIFIERS, identifiers, strict=True)),
                               **{provider.settings_field: settings})
        props["connection"] = connection_props(connection)
        dyn.Resource.__init__(self, provider, resource_name, props, resource_options(opts, delete_first=True))
