"""The shared shape of the two endpoint-settings kinds (``EndpointCache``, ``EndpointWsa``).

The API can write these settings but not read them back. So create and update write the
whole settings object (which takes over whatever was there), refresh confirms that the endpoint
still exists and otherwise keeps the recorded state, and delete writes the spec's defaults.
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


def _identity(id_: str, props: Mapping[str, Any]) -> tuple[str, str, str, str]:
    return identity(id_, props, IDENTIFIERS)


def _subject(kind: str, props: Mapping[str, Any], id_: str = "") -> str:
    return subject(kind, props, id_, IDENTIFIERS)


class EndpointSettingsProvider(ApinizerProvider):
    """Write one settings object of one endpoint; reset it to the spec's defaults on delete."""

    replace_fields = IDENTIFIERS
    #: The input that holds the settings object, e.g. ``cache_settings``.
    settings_field: ClassVar[str]

    def send(self, client: ApinizerClient, target: tuple[str, str, str, str], settings: Any) -> None:
        """Write ``settings`` (a model) to the endpoint ``target`` = (project, proxy, METHOD, name)."""
        raise NotImplementedError

    def declared(self, props: Mapping[str, Any]) -> Any:
        """The settings model that the inputs declare."""
        raise NotImplementedError

    def defaults(self, props: Mapping[str, Any]) -> Any:
        """The settings model that delete writes: the spec's defaults, feature off."""
        raise NotImplementedError

    def _write(self, props: Mapping[str, Any]) -> None:
        self.send(self.client(props), _identity("", props), self.declared(props))

    @translated(lambda self, props: _subject(self.kind, props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        self._write(props)
        project, proxy, method, name = _identity("", props)
        return dyn.CreateResult(endpoint_id(project, proxy, method, name), self.outputs(props))

    @translated(lambda self, id_, olds, news: _subject(self.kind, news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        self._write(news)
        return dyn.UpdateResult(self.outputs(news))

    @staticmethod
    def _endpoint_gone(client: ApinizerClient, target: tuple[str, str, str, str]) -> bool:
        project, proxy, method, name = target
        return live_endpoint(client, project, proxy, name, method) is None

    @translated(lambda self, id_, props: _subject(self.kind, props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        target = _identity(id_, props)
        if self.read_recorded(props, lambda client: self._endpoint_gone(client, target)):
            return dyn.ReadResult(None, {})
        # The API cannot read these settings back: what was last written is what is known.
        return dyn.ReadResult(id_, self.outputs(props))

    @translated(lambda self, id_, props: _subject(self.kind, props, id_))
    def delete(self, id_: str, props: dict[str, Any]) -> None:
        target = _identity(id_, props)

        def reset(client: ApinizerClient) -> None:
            try:
                self.send(client, target, self.defaults(props))
            except APIStatusError as error:
                # Settings of an endpoint (or proxy) that no longer exists are gone with it.
                if error.status_code not in (400, 404) or not self._endpoint_gone(client, target):
                    raise

        self.with_recorded_client(props, reset)


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
