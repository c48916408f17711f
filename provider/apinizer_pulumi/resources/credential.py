"""``Credential``: a client's credential with its access to API proxies and proxy groups, and its provider.

The operations are those of the product's documentation:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/index.md

Access is an input of the credential (``access``), not a resource of its own: a grant is only ever
made for a credential that the program declares (made or adopted), so a credential the program
did not make is never touched, and the credential's refresh reads its access beside it. The list
is authoritative for what the program declares: an access it stops declaring is revoked, one it
never declared (granted in the console, say) is left alone.

The provider's module path and class name (``apinizer_pulumi.resources.credential.CredentialProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from . import _named
from ._args import connection_props, one_line_arguments, resource_options, resource_props
from ._base import lazy_model, same
from ._connection import ConnectionArgs
from ._create import ExactlyOnce, confirmed
from ._errors import translated
from ._named import NamedObject
from ._secret_inputs import HoldsSecrets, SecretInputs
from ._types import AccessTypeName, AccessTypeValue

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError
    from apinizer_pulumi.models import Credential as LiveCredential
    from apinizer_pulumi.models import CredentialSpec

#: Inputs that hold a secret: sent, stored and shown as secrets.
SECRET_INPUTS = ("password",)
#: The fields that update (``PUT``) writes besides the username and the password.
FIELDS = ("email", "full_name", "description", "role_name_list", "enabled", "ip_list", "expire_date")
#: The documented answer of a create with a taken username.
_ALREADY_EXISTS = re.compile(r"already a credential", re.IGNORECASE)

Access = tuple[str, str]
"""(type, name) of one access."""


SECRETS = SecretInputs(SECRET_INPUTS)
plain = SECRETS.plain
secret = SECRETS.secret


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:Credential <username> in <project>`` for messages, from the props or else the id."""
    return _named.subject("Credential", props, id_, name_key="username")


def identity(id_: str, props: Mapping[str, Any]) -> tuple[str, str]:
    """(project, username) from the props, or else from an id ``{project}/{username}``."""
    return _named.identity(id_, props, name_key="username")


def accesses(value: Any) -> list[Access]:
    """The (type, name) pairs of an ``access`` input or output (None: none)."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return []
    return [(str(item["type"]), str(item["name"])) for item in value if isinstance(item, Mapping)]


def access_props(pairs: Sequence[Access]) -> list[dict[str, str]]:
    """``access`` as the inputs hold it: sorted, so that the order of a declaration is no diff."""
    return [{"name": name, "type": kind} for kind, name in sorted(pairs)]


def _spec(props: Mapping[str, Any]) -> CredentialSpec:
    from apinizer_pulumi.models import CredentialSpec

    return CredentialSpec.model_validate(props)


def _as_declared(live: LiveCredential, spec: CredentialSpec) -> bool:
    """Whether a live credential holds every declared field (the password cannot be read)."""
    return all(same(getattr(live, name), getattr(spec, name)) for name in FIELDS)


def _discard(_: object) -> None:
    """A write's deployment answer is checked by the client (a failed environment raises)."""


def _missing(error: APIStatusError) -> bool:
    from apinizer_pulumi.client import NotFoundError
    from apinizer_pulumi.client._credentials import credential_not_found

    from ._errors import container_gone

    if isinstance(error, NotFoundError):
        return container_gone(error)
    return credential_not_found(error)


class CredentialProvider(HoldsSecrets, NamedObject):
    """Create (exactly once), update (change password apart), refresh and delete one credential and
    the access it declares; with ``adopt``, create takes over a credential of that username."""

    kind = "Credential"
    inputs_model = lazy_model("apinizer_pulumi.resources._credential_inputs", "CredentialInputs")
    replace_fields = ("project_name", "username")
    secrets = SECRETS

    def normalize(self, model: Any) -> dict[str, Any]:
        inputs = super().normalize(model)
        inputs["access"] = access_props(accesses(inputs.get("access")))
        return inputs

    def extra_failures(self, model: Any) -> list[dyn.CheckFailure]:
        seen: set[Access] = set()
        failures = []
        for index, (kind, name) in enumerate(accesses(model.model_dump(mode="json").get("access"))):
            if (kind, name) in seen:
                failures.append(dyn.CheckFailure(f"access.{index}", f"{kind} {name!r} is declared twice"))
            seen.add((kind, name))
        return failures

    # -- create --------------------------------------------------------------------------------

    @translated(lambda self, props: subject(plain(props)))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._reads import credentials_writing

        props = plain(props)
        project, username = identity("", props)
        client = self.client(props)
        spec = _spec(props)
        declared = accesses(props.get("access"))
        create = ExactlyOnce[Any](
            send=lambda: _discard(client.credentials.create(project, spec)),
            look_up=lambda: client.credentials.find(project, username),
            made_by=lambda live: _as_declared(live, spec),
            already_exists=lambda error: bool(_ALREADY_EXISTS.search(error.error_description)),
            noun="credential",
            namesake="a credential with this username",
        )
        # Taken over: every declared field, the password too, as the documented update writes them.
        adopted = self.create_once(
            create, _ALREADY_EXISTS, props, subject(props), lambda: client.credentials.update(project, spec),
            writing=credentials_writing(client, project), forced=False,
            adopted_gets=" (it then gets every declared field and the declared password)")
        granted: Sequence[Access] = []
        if declared:
            # A new credential has no access; one taken over keeps what it had beside the declared.
            # Recorded as granted only when the gateway confirmed it: otherwise none, which the next
            # `pulumi up` sees as a change and grants (reading first what is there).
            granted = confirmed(subject(props), "granting its access", lambda: self._sync_access(
                client, project, username, [], declared, read_live=adopted), [])
        return dyn.CreateResult(f"{project}/{username}",
                                self._outputs({**props, "access": access_props(granted)}))

    # -- update --------------------------------------------------------------------------------

    @translated(lambda self, id_, olds, news: subject(plain(news), id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import credentials_writing

        olds, news = plain(olds), plain(news)
        project, username = identity(id_, news)
        client = self.client(news)
        with credentials_writing(client, project):
            if not same(olds.get("password"), news.get("password")):
                # The documented change-password operation: only the password changes.
                client.credentials.change_password(project, username, str(news["password"]))
            if any(not same(olds.get(name), news.get(name)) for name in FIELDS):
                # Update writes every field; the password it carries is the declared one.
                client.credentials.update(project, _spec(news))
        old_access, new_access = accesses(olds.get("access")), accesses(news.get("access"))
        if sorted(old_access) != sorted(new_access):
            self._sync_access(client, project, username, old_access, new_access, read_live=True)
        return dyn.UpdateResult(self._outputs(news))

    @staticmethod
    def _sync_access(client: ApinizerClient, project: str, username: str, old: Sequence[Access],
                     new: Sequence[Access], *, read_live: bool) -> Sequence[Access]:
        """Grant what ``new`` declares and the gateway lacks; revoke what ``old`` declared, ``new`` no
        longer does, and the gateway still has. Nothing else is touched. Returns ``new``, granted."""
        live: set[Access] = set()
        if read_live:
            live = {(item.type.value, item.name) for item in client.credentials.access(project, username)}
        revoke = sorted((set(old) - set(new)) & live)
        grant = sorted(set(new) - live)
        if revoke:
            client.credentials.revoke_access(project, username, access_props(revoke))
        if grant:
            client.credentials.grant_access(project, username, access_props(grant))
        return new

    # -- read ----------------------------------------------------------------------------------

    @translated(lambda self, id_, props: subject(plain(props), id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_credential

        props = plain(props)
        project, username = identity(id_, props)

        def look(client: ApinizerClient) -> tuple[LiveCredential | None, list[Access] | None]:
            live = live_credential(client, project, username)
            declared = accesses(props.get("access"))
            if live is None or not declared:
                return live, None
            granted = {(item.type.value, item.name) for item in client.credentials.access(project, username)}
            # Only declared access is managed, so only it can drift: what the console added stays out.
            return live, [pair for pair in declared if pair in granted]

        live, granted = self.read_recorded(props, look)
        if live is None:
            return dyn.ReadResult(None, {})  # the gateway said it is gone: dropped from the state
        inputs = self.recorded_inputs(id_, props)
        for name in FIELDS:
            inputs[name] = getattr(live, name)
        if inputs.get("description") is None:
            inputs.pop("description", None)
        if inputs.get("expire_date") is None:
            inputs.pop("expire_date", None)
        if granted is not None:
            inputs["access"] = access_props(granted)
        # The password cannot be read back: the recorded one stays (docs/resources/credential.md).
        outs = self._outputs(inputs)
        return dyn.ReadResult(id_, outs, secret(inputs) if self.drifted(props, outs) else None)

    # -- delete --------------------------------------------------------------------------------

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import credentials_writing

        with credentials_writing(client, project):
            # The documented delete takes every access of the credential with it.
            client.credentials.delete(project, name)

    gone = staticmethod(_missing)

    def _outputs(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        return self.outputs(inputs)


@dataclasses.dataclass(kw_only=True, frozen=True)
class CredentialAccessArgs:
    """One access of a :class:`Credential`: an API proxy or an API proxy group, by name.

    A plain dict ``{"name": ..., "type": ...}`` does as well.
    """

    name: pulumi.Input[str]
    type: pulumi.Input[AccessTypeValue]


class Credential(dyn.Resource, module="apinizer", name="Credential"):
    """A credential: what a client of the APIs logs in with, and the proxies and groups it may call.

    Id: ``{project}/{username}``. Changing ``project_name`` or ``username`` replaces it (the new
    one is created first); a changed ``password`` goes through the documented change-password
    operation, every other field through update, in place. ``access`` lists the API proxies and
    proxy groups it may call (each a dict with ``name`` and ``type``, ``API_PROXY`` or
    ``API_PROXY_GROUP``): access added to the list is granted, access removed from it is revoked,
    and access granted in the console without being declared is left alone. Refresh reads the
    project's credential list (once per project) and the credential's access, and shows drift of
    every field and of the declared access; the password cannot be read back. Destroy deletes the
    credential with all its access. With ``adopt=True`` a credential of that username that exists
    already is taken over: it gets every declared field and the declared password.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/index.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the credential."""
    username: pulumi.Output[str]
    """The username, unique across all credentials."""
    password: pulumi.Output[str]
    """The password, stored as a secret."""
    email: pulumi.Output[str]
    """The holder's email address."""
    full_name: pulumi.Output[str]
    """The holder's full name."""
    description: pulumi.Output[str | None]
    """Free text."""
    role_name_list: pulumi.Output[list[str]]
    """The credential roles it has."""
    enabled: pulumi.Output[bool]
    """Whether it may be used."""
    ip_list: pulumi.Output[list[str]]
    """The IP addresses and CIDR ranges it may call from (empty: any)."""
    expire_date: pulumi.Output[str | None]
    """When it expires (ISO 8601, UTC); none never."""
    access: pulumi.Output[list[dict[str, AccessTypeName | str]]]
    """The declared access (sorted by type and name) that the gateway has."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a credential that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        username: pulumi.Input[str],
        password: pulumi.Input[str],
        email: pulumi.Input[str],
        full_name: pulumi.Input[str],
        description: pulumi.Input[str] | None = None,
        role_name_list: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        enabled: pulumi.Input[bool] | None = None,
        ip_list: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        expire_date: pulumi.Input[str] | None = None,
        access: pulumi.Input[Sequence[pulumi.Input[CredentialAccessArgs | Mapping[str, Any]]]] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a credential. Unset fields take the documented defaults.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the credential.
        :param username: Unique across all credentials; it cannot change in place.
        :param password: The password: kept secret in the state and the outputs (give it from a
            secret config value, ``config.require_secret("partnerPassword")``).
        :param email: The holder's email address.
        :param full_name: The holder's full name.
        :param description: Free text.
        :param role_name_list: Credential role names (default none).
        :param enabled: Whether it may be used (default true).
        :param ip_list: IP addresses or CIDR ranges it may call from (default none: any).
        :param expire_date: ISO 8601 in UTC, ``2030-12-31T23:59:59.000Z`` (default none: never).
        :param access: The API proxies and groups it may call: :class:`CredentialAccessArgs` or dicts
            ``{"name": ..., "type": "API_PROXY" | "API_PROXY_GROUP"}``; authoritative for what it declares.
        :param adopt: Take over an existing credential of that username (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(
            project_name=project_name, username=username, password=password, email=email,
            full_name=full_name, description=description, role_name_list=role_name_list,
            enabled=enabled, ip_list=ip_list, expire_date=expire_date, access=access, adopt=adopt,
        )
        props["connection"] = connection_props(connection)
        # Secret in the inputs the state keeps, not only in the outputs.
        props["password"] = pulumi.Output.secret(props["password"])
        options = pulumi.ResourceOptions.merge(
            resource_options(opts), pulumi.ResourceOptions(additional_secret_outputs=list(SECRET_INPUTS))
        )
        super().__init__(CredentialProvider(), resource_name, props, options)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(CredentialAccessArgs, prefix="apinizer")
