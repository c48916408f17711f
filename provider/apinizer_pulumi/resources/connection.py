"""``Connection``: one of the gateway's connections to an outside system (email, Kafka, Elasticsearch,
a database, LDAP, FTP, RabbitMQ, ActiveMQ, SNMP, a Linux script, Graylog, syslog, a webhook,
logback), of any documented type, and its dynamic provider.

Not the ``connection`` input that every resource takes (where the gateway is and how to log in:
``_connection.py``); this module's names say "connection resource" where the two could meet.

One resource for every type, with one typed settings class per type
(``apinizer_pulumi.connections.<Type>``, generated from the models as the policies' are): one
lifecycle and one recorded provider path, while mypy and IDEs check each type's fields.

The provider's module path and class name (``apinizer_pulumi.resources.connection.ConnectionProvider``)
are recorded by reference in every stack's state: they never move without an alias.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/index.md
and the type pages under ``02-api-reference/06-connections/connections/``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props, to_props
from ._base import CONNECTION, inputs_of, is_unknown, lazy_model, same
from ._connection import ConnectionArgs
from ._errors import translated
from ._named import NamedObject, identity, subject
from ._replace import unchangeable
from ._secret_inputs import HoldsSecrets
from ._typed_settings import SettingsFamily, mark_secrets

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError
    from apinizer_pulumi.models import ConnectionBase

KIND = "Connection"
#: The fields every connection type shares (``ConnectionBase``), the resource's own inputs.
COMMON = ("description", "enabled", "deploy_to_worker")
#: The documented answer to a create of a taken name: ``Connection (name: X) already exists!``.
_ALREADY_EXISTS = re.compile(r"^Connection \(name: .*\) already exists", re.DOTALL)


def _taken(error: BadRequestError) -> bool:
    return bool(_ALREADY_EXISTS.search(error.error_description or ""))


def _subject(props: Mapping[str, Any], id_: str = "") -> str:
    return subject(KIND, props, id_)


#: The connection types' shared lifecycle of typed settings (``_typed_settings``), as the policies' is.
SETTINGS = SettingsFamily(
    noun="connection", resource="Connection", type_input="connection_type",
    registry="apinizer_pulumi.models._connection_registry:CONNECTION_TYPES",
    base="apinizer_pulumi.models:ConnectionBase",
    args="apinizer_pulumi.resources._connection_args:CONNECTION_ARGS",
    common={key: key for key in COMMON},
    secret_fields_alone=True,
)


def connection_model(connection_type: str) -> type[ConnectionBase]:
    """The model of a type string; an unknown one is an error naming the known types."""
    model: type[ConnectionBase] = SETTINGS.model(connection_type)  # type: ignore[assignment]
    return model


secret_fields = SETTINGS.secret_fields
settings_of = SETTINGS.settings_of
plain = SETTINGS.plain
secret = SETTINGS.secret


def build(props: Mapping[str, Any]) -> ConnectionBase:
    """The type's model from the inputs: the settings plus the common fields."""
    model = connection_model(str(props["connection_type"]))
    data: dict[str, Any] = dict(props.get("settings") or {})
    data.update({key: props[key] for key in COMMON if props.get(key) is not None})
    data["type"] = props["connection_type"]
    data["name"] = props.get("name")
    return model.model_validate(data)


def keep_declared_secrets(live: Any, declared: Any, path: Sequence[str]) -> None:
    """Put the declared value of the secret field at ``path`` into ``live`` where the list answered
    none (it masks secrets as null): what cannot be read back is no drift. Lists are walked item by
    item."""
    if isinstance(live, list) and isinstance(declared, list):
        for live_item, declared_item in zip(live, declared, strict=False):
            keep_declared_secrets(live_item, declared_item, path)
        return
    if not isinstance(live, dict) or not isinstance(declared, Mapping) or not path:
        return
    head, rest = path[0], path[1:]
    if not rest:
        if live.get(head) is None and declared.get(head) is not None:
            live[head] = declared[head]
        return
    keep_declared_secrets(live.get(head), declared.get(head), rest)


def _as_declared(live: Any, declared: ConnectionBase) -> bool:
    """Whether a live connection (a get: secrets in full) is what this create makes."""
    if getattr(live, "type", None) != getattr(declared, "type", None) or not hasattr(live, "model_dump"):
        return False
    wanted = declared.model_dump(mode="json", exclude_none=True, exclude={"name"})
    found = live.model_dump(mode="json", exclude_none=True, exclude={"name"})
    return all(same(found.get(key), value) for key, value in wanted.items())


def _missing(error: APIStatusError) -> bool:
    from apinizer_pulumi.client import NotFoundError
    from apinizer_pulumi.client._connections import connection_not_found

    from ._errors import container_gone

    if isinstance(error, NotFoundError):
        return container_gone(error) or connection_not_found(error)
    return connection_not_found(error)


class ConnectionProvider(HoldsSecrets, NamedObject):
    """Create (exactly once), update in place, refresh from the shared list of its type, and delete one
    connection; with ``adopt``, create takes over a connection of that name."""

    kind = KIND
    inputs_model = lazy_model("apinizer_pulumi.resources._connection_resource_inputs",
                              "ConnectionResourceInputs")
    replace_fields = ("project_name", "name")
    ignored_fields = (CONNECTION, "adopt")
    secrets = SETTINGS

    # -- check -------------------------------------------------------------------------------

    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        from ._check_failures import readable

        result = self.check_inputs(olds, news)
        # Failures name each nested value, but never one of the type's secret fields.
        shown = plain(news)
        settings = shown.get("settings")
        if isinstance(settings, Mapping):
            hidden = {path.split(".", 1)[0] for path in secret_fields(shown.get("connection_type"))}
            shown["settings"] = {key: value for key, value in settings.items() if key not in hidden}
        return dyn.CheckResult(result.inputs, readable(result.failures, shown))

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        result = super().check_inputs(olds, news)
        news = plain(news)
        inputs = dict(result.inputs)
        typed, news = self._settings_type(news)
        extra, settings = SETTINGS.check_settings(news, extra={"name": self._name_for_check(news)})
        if settings is not None:
            inputs["settings"] = settings
        return dyn.CheckResult(secret(inputs), SETTINGS.merged(result.failures, typed, extra))

    @staticmethod
    def _settings_type(news: dict[str, Any]) -> tuple[list[dyn.CheckFailure], dict[str, Any]]:
        """A plain dict's ``type`` (the type the constructor took from it), which must be the resource's,
        taken out of ``settings``."""
        settings = news.get("settings")
        if not isinstance(settings, Mapping) or "type" not in settings:
            return [], news
        given, kind = settings["type"], news.get("connection_type")
        rest = {**news, "settings": {key: value for key, value in settings.items() if key != "type"}}
        if is_unknown(given) or is_unknown(kind) or given == kind:
            return [], rest
        return [dyn.CheckFailure("settings.type", f"{given!r} differs from connection_type {kind!r}")], rest

    @staticmethod
    def _name_for_check(news: Mapping[str, Any]) -> str:
        """The model needs a name; one not known yet (or bad: the base check names it) is stood in for."""
        name = news.get("name")
        return name if isinstance(name, str) and name and not is_unknown(name) else "name-not-known-yet"

    # -- diff --------------------------------------------------------------------------------

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        # The API cannot change a connection's type (the update page): a new one replaces it.
        return unchangeable(super().diff(id_, olds, news), "connection_type", olds, news)

    # -- create --------------------------------------------------------------------------------

    @translated(lambda self, props: _subject(plain(props)))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import ExactlyOnce
        from ._reads import connections_writing

        props = plain(props)
        project, name = identity("", props)
        client = self.client(props)
        body = build(props)
        create = ExactlyOnce[Any](
            send=lambda: _discard(client.connections.create(project, body)),
            look_up=lambda: client.connections.find(project, name),
            made_by=lambda live: _as_declared(live, body),
            already_exists=_taken,
            noun="connection",
            namesake="a connection with this name",
        )
        # Taken over: every declared field, secrets too, through the documented update.
        self.create_once(create, _taken, props, _subject(props),
                         lambda: client.connections.update(project, body, name=name),
                         writing=connections_writing(client, project, str(props["connection_type"])),
                         forced=False, adopted_gets=" (it then gets every declared field, its secrets too)")
        return dyn.CreateResult(f"{project}/{name}", secret(self.outputs(props)))

    # -- update --------------------------------------------------------------------------------

    @translated(lambda self, id_, olds, news: _subject(plain(news), id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import connections_writing

        news = plain(news)
        project, name = identity(id_, news)
        client = self.client(news)
        body = build(news)
        with connections_writing(client, project, str(news["connection_type"])):
            # The update page writes every field: the whole declared connection is sent.
            client.connections.update(project, body, name=name)
        return dyn.UpdateResult(secret(self.outputs(news)))

    # -- read ----------------------------------------------------------------------------------

    @translated(lambda self, id_, props: _subject(plain(props), id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_connection

        props = plain(props)
        project, name = identity(id_, props)
        recorded_type = props.get("connection_type")

        def look(client: ApinizerClient) -> Any:
            if isinstance(recorded_type, str) and recorded_type:
                return live_connection(client, project, recorded_type, name)
            # Read from the id alone (`pulumi import`): only a get says the type.
            return client.connections.find(project, name)

        live = self.read_recorded(props, look)
        if live is None:
            return dyn.ReadResult(None, {})  # deleted outside Pulumi, or its project is gone
        inputs = dict(inputs_of(props))
        inputs.update(project_name=project, name=str(props.get("name") or live.name),
                      connection_type=str(live.type))
        for key in COMMON:
            inputs[key] = getattr(live, key, None)
        if inputs.get("description") is None:
            inputs.pop("description", None)
        inputs["settings"] = self._live_settings(live, inputs.get("settings"))
        outs = self.outputs(inputs)
        return dyn.ReadResult(id_, secret(outs), secret(inputs) if self.drifted(props, outs) else None)

    @staticmethod
    def _live_settings(live: Any, declared: Any) -> dict[str, Any]:
        """The settings as the gateway holds them, each secret field the list masks kept as declared."""
        from apinizer_pulumi.models import ConnectionBase

        kept: dict[str, Any] = dict(declared) if isinstance(declared, Mapping) else {}
        if not isinstance(live, ConnectionBase):
            return kept  # an entry its type's model cannot read: nothing to compare it with
        settings = settings_of(live)
        for path in secret_fields(getattr(live, "type", None)):
            keep_declared_secrets(settings, kept, path.split("."))
        return settings

    # -- delete --------------------------------------------------------------------------------

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import connections_writing

        with connections_writing(client, project, None):
            client.connections.delete(project, name)

    gone = staticmethod(_missing)


def _discard(_: object) -> None:
    """A write's deployment answer is checked by the client (a failed deployment raises)."""


def _type_of(settings: Any) -> str:
    """The type string of a settings class, or of a plain dict's ``type``."""
    declared = getattr(type(settings), "connection_type", None)
    if isinstance(declared, str):
        return declared
    if isinstance(settings, Mapping) and isinstance(settings.get("type"), str):
        return str(settings["type"])
    raise TypeError("settings must be a settings class from apinizer_pulumi.connections (e.g. "
                    "apinizer.connections.Kafka(...)) or a dict with the connection's 'type'")


class Connection(dyn.Resource, module="apinizer", name="Connection"):
    """One of the gateway's connections to an outside system, of any documented type: what logging,
    notification and LDAP policies send to.

    Id: ``{project}/{name}``. ``settings`` is the type's settings class
    (``apinizer_pulumi.connections.<Type>``), which also gives the type, or a dict with ``type``.
    Changing the type, the name or the project replaces the connection (a new type under the same
    name deletes the old one first); everything else changes in place with one update. The secret
    fields (passwords, passphrases, a webhook's header list) are secrets, each alone, in the inputs,
    outputs and state, so a diff shows the other fields in clear. Refresh reads the
    project's list of the type once for every connection of that type and shows drift; the list
    masks secret fields, so those keep their declared values (docs/resources/connection.md).
    """

    project_name: pulumi.Output[str]
    """The project that holds the connection."""
    name: pulumi.Output[str]
    """The connection's name, unique in the project (case-insensitively)."""
    connection_type: pulumi.Output[str]
    """The type string, e.g. ``kafka``."""
    description: pulumi.Output[str | None]
    """Free text."""
    enabled: pulumi.Output[bool]
    """Whether the connection is enabled."""
    deploy_to_worker: pulumi.Output[bool]
    """Whether the connection is deployed to the workers."""
    settings: pulumi.Output[dict[str, Any]]
    """The type's own fields with the API's defaults filled in, each secret field a secret in the state (the
    program sees the whole output as a secret when the type has secret fields)."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a connection that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The gateway connection input (where the gateway is), stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        settings: Any,
        description: pulumi.Input[str] | None = None,
        enabled: pulumi.Input[bool] | None = None,
        deploy_to_worker: pulumi.Input[bool] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a connection. Unset fields take the documented defaults.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the connection.
        :param name: The connection's name, unique in the project (a change replaces it).
        :param settings: The type's settings, e.g. ``apinizer.connections.Kafka(topic_name=...)``,
            or a dict with snake_case keys and the type string under ``type``.
        :param description: Free text.
        :param enabled: Whether the connection is enabled (default true).
        :param deploy_to_worker: Deploy the connection to the workers (default true).
        :param adopt: Take over an existing connection of this name (default false); it then gets
            every declared field, its secrets too.
        :param connection: Where the gateway is and how to log in (not this resource's subject);
            defaults to the stack config ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        connection_type = _type_of(settings)
        props = resource_props(project_name=project_name, name=name, connection_type=connection_type,
                               description=description, enabled=enabled, deploy_to_worker=deploy_to_worker,
                               settings=None, adopt=adopt)
        # A keystore or certificate given as its resource: checked, then its name or id (as in a policy).
        from ._policy_references import resolve_references

        where = (f"apinizer.connections.{type(settings).__name__}" if not isinstance(settings, dict)
                 else f"Connection {resource_name!r} settings")
        declared = to_props(resolve_references(settings, where))
        props["settings"] = {key: value for key, value in declared.items() if key != "type"}
        # Each secret field alone is a secret, so a diff shows the others in clear; the engine carries
        # the marks over to the outputs (_typed_settings).
        props["settings"] = mark_secrets(props["settings"], secret_fields(connection_type),
                                         pulumi.Output.secret)
        props[CONNECTION] = connection_props(connection)
        super().__init__(ConnectionProvider(), resource_name, props, resource_options(opts))
