"""``Jwk``: a JSON Web Key of a project, from one source, and its dynamic provider.

The operations are those of the product's documentation (create, generate, update, delete, list, get):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/index.md

A JWK is made once from exactly one source: a URL, a pasted JWK (``jwk_json``), a generated key
(``generate``), or a certificate, crypto key or keystore alias of the project. The update operation
writes a name and a description only (and detaches the JWK from its source), so a changed source
replaces the JWK and a changed description is written in place. The key is read back once after
the create: its public part is a plain output (to publish a JWKS), its private members a secret one.

The provider's module path and class name (``apinizer_pulumi.resources.jwk.JwkProvider``) are
recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, one_line_arguments, resource_options, resource_props
from ._base import CONNECTION, inputs_of, is_unknown, lazy_model, same
from ._connection import ConnectionArgs
from ._create import ExactlyOnce, after_create, read_retried
from ._errors import translated
from ._jwk_parts import key_parts
from ._named import NamedObject
from ._secret_inputs import HoldsSecrets, SecretInputs

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError
    from apinizer_pulumi.models import Jwk as LiveJwk

    from ._jwk_inputs import JwkInputs

JwkTypeName = Literal["RSA", "EC", "OCT", "OKP"]
JwkUseTypeName = Literal["SIGNATURE", "ENCRYPTION"]

#: Inputs that hold a secret, and outputs that do: sent, stored and shown as secrets.
SECRET_INPUTS = ("jwk_json",)
SECRET_OUTPUTS = (*SECRET_INPUTS, "private_jwk")
#: Outputs the gateway computes (``kid`` is an input too: the key of a set, or the live key's).
COMPUTED = ("jwk_id", "key_type", "source_type", "public_jwk", "private_jwk")
#: Inputs whose change makes another key: the API cannot change a JWK's key in place. (The URL's
#: timeouts and size limit only bound the fetch at create: a change of them is recorded in place.)
SOURCE_INPUTS = ("url", "kid", "jwk_json", "generate", "certificate_name", "key_name", "use_private_key",
                 "keystore_name", "alias_name", "environment_name", "use_type", "algorithm")
#: The documented answer of a create of a taken name: "JWK (name: my-jwk) is already exist! ...".
_ALREADY_EXISTS = re.compile(r"^JWK \(name: .*\) is already exist", re.DOTALL)


SECRETS = SecretInputs(SECRET_OUTPUTS)
plain = SECRETS.plain
secret = SECRETS.secret


def _taken(error: BadRequestError) -> bool:
    return bool(_ALREADY_EXISTS.search(error.error_description or ""))


def _missing(error: APIStatusError) -> bool:
    from apinizer_pulumi.client import NotFoundError
    from apinizer_pulumi.client._keys import key_object_not_found

    from ._errors import container_gone

    if isinstance(error, NotFoundError) and container_gone(error):
        return True
    return key_object_not_found(error, "JWK")


def _made_by(live: LiveJwk, declared: JwkInputs) -> bool:
    """Whether a live JWK is what this create makes (after a lost answer, found by its name)."""
    if live.source_type is None or live.source_type.value != declared.source_type():
        return False
    if not same(live.description, declared.description):
        return False
    if declared.generate is not None:
        wanted = declared.generate
        return live.type is wanted.type and (wanted.kid is None or live.kid == wanted.kid)
    if declared.url is not None and live.source_url not in (None, declared.url):
        return False
    return declared.kid is None or live.kid == declared.kid


def _discard(_: object) -> None:
    """A write's deployment answer is checked by the client (a failed environment raises)."""


class JwkProvider(HoldsSecrets, NamedObject):
    """Create (exactly once, from one source), describe in place, refresh and delete one JWK; with
    ``adopt``, create takes over a JWK of that name as it is."""

    kind = "Jwk"
    inputs_model = lazy_model("apinizer_pulumi.resources._jwk_inputs", "JwkInputs")
    secrets = SECRETS

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        from ._jwk_inputs import NO_SOURCE, SOURCES

        result = super().check_inputs(olds, news)
        failures = result.failures
        if any(is_unknown(news.get(name)) for name in SOURCES):
            # The source is not known yet (an Output during a preview): it is checked at `up`.
            failures = [failure for failure in failures if not failure.reason.startswith(NO_SOURCE)]
        return dyn.CheckResult(result.inputs, failures)

    def normalize(self, model: Any) -> dict[str, Any]:
        inputs = super().normalize(model)
        if not inputs.get("use_private_key"):
            inputs.pop("use_private_key", None)  # false is the default: no diff against none
        return inputs

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        olds, news = plain(olds), plain(news)
        if news.get("kid") is None:
            # The recorded kid is the live key's; not declared, it chooses nothing.
            olds = {**olds, "kid": None}
        result = super().diff(id_, olds, news)
        sources = [name for name in SOURCE_INPUTS
                   if is_unknown(news.get(name)) or not same(olds.get(name), news.get(name))]
        if not result.changes or not sources:
            return result
        # The new key keeps the old one's name unless the name changes too: then it is made first.
        keeps_name = not result.replaces
        return dyn.DiffResult(changes=True, replaces=[*(result.replaces or []), *sources], stables=[],
                              delete_before_replace=keeps_name)

    # -- create --------------------------------------------------------------------------------

    @translated(lambda self, props: self.subject(plain(props)))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._reads import key_objects_writing

        props = plain(props)
        project, name = self.identity("", props)
        client = self.client(props)
        declared: JwkInputs = self.inputs_model.model_validate(
            {key: value for key, value in inputs_of(props).items() if key != CONNECTION})
        operation, body = declared.request()
        send = client.jwks.generate if operation == "generate" else client.jwks.create
        create = ExactlyOnce[Any](
            send=lambda: _discard(send(project, body)),
            look_up=lambda: client.jwks.find(project, name),
            made_by=lambda live: _made_by(live, declared),
            already_exists=_taken,
            noun="JWK",
            namesake="a JWK with this name",
        )

        def take_over() -> None:
            # The key stays the gateway's (no operation changes it); the description is written.
            live = client.jwks.get(project, name)
            if not same(live.description, declared.description):
                client.jwks.update(project, name, {"name": name, "description": declared.description or ""})

        who = self.subject(props)
        self.create_once(create, _taken, props, who, take_over,
                         writing=key_objects_writing(client, "jwks", project),
                         adopted_gets=" (its key stays as it is, since the API cannot change a JWK's key; "
                                      "its description is written)")
        computed: dict[str, Any] = {}
        with after_create(who, "reading its key back", "`pulumi refresh` reads it"):
            computed = key_parts(read_retried(lambda: client.jwks.get(project, name)))
        return dyn.CreateResult(f"{project}/{name}", self._outputs(props, computed))

    # -- update --------------------------------------------------------------------------------

    @translated(lambda self, id_, olds, news: self.subject(plain(news), id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import key_objects_writing

        olds, news = plain(olds), plain(news)
        project, name = self.identity(id_, news)
        if not same(olds.get("description"), news.get("description")):
            client = self.client(news)
            with key_objects_writing(client, "jwks", project):
                # The documented update: a name and a description; "" clears it (None leaves it).
                description = news.get("description") or ""
                client.jwks.update(project, name, {"name": name, "description": description})
        kept = {key: olds.get(key) for key in (*COMPUTED, "kid")}
        return dyn.UpdateResult(self._outputs(news, kept))

    # -- read ----------------------------------------------------------------------------------

    @translated(lambda self, id_, props: self.subject(plain(props), id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import listed_key_object

        props = plain(props)
        project, name = self.identity(id_, props)

        def look(client: ApinizerClient) -> tuple[Any, LiveJwk | None]:
            listed = listed_key_object(client, "jwks", project, name)
            if listed is None or (listed.id == props.get("jwk_id") and props.get("key_type")):
                return listed, None
            # Made again under the same name outside Pulumi (another id), or never read back
            # after its create: its key is read (the list answers none).
            return listed, client.jwks.find(project, name)

        listed, detail = self.read_recorded(props, look)
        if listed is None:
            return dyn.ReadResult(None, {})  # the gateway said it is gone: dropped from the state
        inputs = self.recorded_inputs(id_, props, COMPUTED)
        inputs["description"] = listed.description
        if not inputs["description"]:
            inputs.pop("description")
        if detail is not None:
            computed = key_parts(detail)
        else:
            computed = {key: props.get(key) for key in COMPUTED}
            computed.update(jwk_id=listed.id, kid=listed.kid,
                            key_type=listed.type.value if listed.type is not None else None)
        plain_outs = self.outputs(inputs, **computed)
        recorded = {key: value for key, value in inputs_of(props).items() if value is not None}
        changed = self.drifted(recorded, {key: value for key, value in plain_outs.items()
                                          if value is not None})
        return dyn.ReadResult(id_, secret(plain_outs), secret(inputs) if changed else None)

    # -- delete --------------------------------------------------------------------------------

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import key_objects_writing

        with key_objects_writing(client, "jwks", project):
            client.jwks.delete(project, name)

    gone = staticmethod(_missing)

    def _outputs(self, inputs: Mapping[str, Any], computed: Mapping[str, Any]) -> dict[str, Any]:
        return secret(self.outputs(inputs, **computed))


@dataclasses.dataclass(kw_only=True, frozen=True)
class JwkRsaArgs:
    """``generate``'s RSA parameters: the key size in bits, 2048, 3072 or 4096."""

    key_size: pulumi.Input[int]


@dataclasses.dataclass(kw_only=True, frozen=True)
class JwkEcArgs:
    """``generate``'s EC parameters: the curve, ``P256``, ``P384``, ``P521`` or ``SECP256K1``."""

    curve_type: pulumi.Input[Literal["P256", "P384", "P521", "SECP256K1"]]


@dataclasses.dataclass(kw_only=True, frozen=True)
class JwkOctArgs:
    """``generate``'s symmetric key parameters: the key size in bits (128, 192 or 256), and the salt
    length and iteration count of the password-based algorithms (gateway defaults 8 and 1000)."""

    key_size: pulumi.Input[int]
    password_salt_length: pulumi.Input[int] | None = None
    password_iteration_count: pulumi.Input[int] | None = None


@dataclasses.dataclass(kw_only=True, frozen=True)
class JwkOkpArgs:
    """``generate``'s OKP parameters: the curve, ``ED25519`` (signs, EdDSA) or ``X25519`` (agrees keys)."""

    curve_type: pulumi.Input[Literal["ED25519", "X25519"]]


@dataclasses.dataclass(kw_only=True, frozen=True)
class JwkGenerateArgs:
    """A key the gateway generates: its ``type`` and that type's parameters (``rsa``, ``ec``,
    ``oct`` or ``okp``, exactly the one of the type), and what every type takes: ``kid`` (made per
    ``key_id_type`` when left out), ``use`` (default ``SIGNATURE``), an ``algorithm`` for that use
    (``RS256`` or the generate page's ``RSA256`` alike), and the validity (ISO 8601; by default
    from now for a year). A plain dict with the same keys does as well.
    """

    type: pulumi.Input[JwkTypeName]
    kid: pulumi.Input[str] | None = None
    use: pulumi.Input[JwkUseTypeName] | None = None
    algorithm: pulumi.Input[str] | None = None
    key_id_type: pulumi.Input[Literal["TIMESTAMP", "SHA256", "SHA1", "ISO_DATE", "NONE"]] | None = None
    not_before_time: pulumi.Input[str] | None = None
    expiration_time: pulumi.Input[str] | None = None
    rsa: pulumi.Input[JwkRsaArgs | Mapping[str, Any]] | None = None
    ec: pulumi.Input[JwkEcArgs | Mapping[str, Any]] | None = None
    oct: pulumi.Input[JwkOctArgs | Mapping[str, Any]] | None = None
    okp: pulumi.Input[JwkOkpArgs | Mapping[str, Any]] | None = None


class Jwk(dyn.Resource, module="apinizer", name="Jwk"):
    """A JWK (JSON Web Key) of a project, for the JWT, JWE and JWS policies: from a URL, a pasted
    JWK, a generated key, or a certificate, crypto key or keystore alias of the project.

    Id: ``{project}/{name}``. Give exactly one source: ``url``, ``jwk_json``, ``generate``,
    ``certificate_name``, ``key_name`` or ``keystore_name``. Changing ``project_name`` or ``name``
    replaces it (the new JWK is made first); changing the source replaces it too (the old one is
    deleted first, since the new one takes its name), as the API cannot change a JWK's key;
    ``description`` changes in place (which detaches the JWK from its source, as the update page
    says). A generated key is made once: the same inputs never generate another. Refresh reads the
    project's JWK list (once per project) and shows drift of the description and of the key (a JWK
    made again outside Pulumi gets another id, and is then read whole). ``public_jwk`` is the key's
    public part, to publish in a JWKS; ``private_jwk`` and ``jwk_json`` are secrets. With
    ``adopt=True`` a JWK of that name that exists already is taken over as it is.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the JWK."""
    name: pulumi.Output[str]
    """The JWK's name, unique within the project."""
    description: pulumi.Output[str | None]
    """Free text."""
    url: pulumi.Output[str | None]
    """The URL it was fetched from."""
    jwk_json: pulumi.Output[str | None]
    """The pasted JWK or JWK Set, stored as a secret."""
    generate: pulumi.Output[dict[str, Any] | None]
    """What the generated key was made with."""
    kid: pulumi.Output[str | None]
    """The key's id (``kid``)."""
    jwk_id: pulumi.Output[str]
    """The gateway's id of the JWK: what a policy's ``jwk_id_for_validation_and_sign`` names."""
    key_type: pulumi.Output[str]
    """``RSA``, ``EC``, ``OCT`` or ``OKP``."""
    source_type: pulumi.Output[str]
    """How the gateway records its source: ``URL``, ``COPY_PASTE``, ``GENERATE``, ``CERTIFICATE``,
    ``PUBLIC_KEY``, ``PRIVATE_KEY`` or ``KEYSTORE``."""
    public_jwk: pulumi.Output[dict[str, Any] | None]
    """The public part as a JWK (``kty``, ``kid``, and ``n``/``e`` or ``crv``/``x``/``y``); none for
    a symmetric key."""
    private_jwk: pulumi.Output[dict[str, Any] | None]
    """The whole key with its private members as a JWK, stored as a secret; none where the gateway
    holds no private part (a key from a URL, a certificate or a public key)."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a JWK that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        description: pulumi.Input[str] | None = None,
        url: pulumi.Input[str] | None = None,
        url_connect_timeout: pulumi.Input[int] | None = None,
        url_read_timeout: pulumi.Input[int] | None = None,
        url_size_limit: pulumi.Input[int] | None = None,
        kid: pulumi.Input[str] | None = None,
        jwk_json: pulumi.Input[str] | None = None,
        generate: pulumi.Input[JwkGenerateArgs | Mapping[str, Any]] | None = None,
        certificate_name: pulumi.Input[str] | pulumi.Resource | None = None,
        key_name: pulumi.Input[str] | pulumi.Resource | None = None,
        use_private_key: pulumi.Input[bool] | None = None,
        keystore_name: pulumi.Input[str] | pulumi.Resource | None = None,
        alias_name: pulumi.Input[str] | None = None,
        environment_name: pulumi.Input[str] | None = None,
        use_type: pulumi.Input[JwkUseTypeName] | None = None,
        algorithm: pulumi.Input[str] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a JWK from exactly one source.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the JWK.
        :param name: The JWK's name, unique within the project.
        :param description: Free text; the only field that changes in place.
        :param url: An http(s) URL that serves a JWK or a JWK Set (choose its key with ``kid``).
        :param url_connect_timeout: Milliseconds to connect (gateway default 5000).
        :param url_read_timeout: Milliseconds to read (gateway default 10000).
        :param url_size_limit: Bytes the answer may have (gateway default 1048576).
        :param kid: The key of a JWK Set that ``url`` or ``jwk_json`` holds.
        :param jwk_json: A JWK or a JWK Set as JSON text; kept secret (it may hold private members).
        :param generate: A key the gateway generates: :class:`JwkGenerateArgs` or a dict.
        :param certificate_name: A certificate of the project: its public key. Each of the three
            takes the name, or the ``Certificate``/``CryptoKey``/``Keystore`` resource itself (checked
            by kind; the JWK is then made after it).
        :param key_name: A crypto key of the project: its public key, or with ``use_private_key``
            its private key.
        :param use_private_key: Make the JWK from ``key_name``'s private key (default false).
        :param keystore_name: A keystore of the project: the key of ``alias_name``.
        :param alias_name: The alias in ``keystore_name``.
        :param environment_name: Whose copy of the certificate, key or keystore to use.
        :param use_type: ``SIGNATURE`` or ``ENCRYPTION``, with a certificate, key or keystore.
        :param algorithm: An algorithm for that use and key (``RS256``, ``ES256``, ``RSA-OAEP-256`` ...),
            with a certificate, key or keystore.
        :param adopt: Take over a JWK of that name that exists already (default false): its key
            stays as it is, its description is written.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        # A certificate, crypto key or keystore of the program given as its resource: its name, after it.
        from ._policy_references import referenced

        certificate_name = referenced(certificate_name, "Jwk.certificate_name", "Certificate", "name")
        key_name = referenced(key_name, "Jwk.key_name", "CryptoKey", "name")
        keystore_name = referenced(keystore_name, "Jwk.keystore_name", "Keystore", "name")
        props = resource_props(
            project_name=project_name, name=name, description=description, url=url,
            url_connect_timeout=url_connect_timeout, url_read_timeout=url_read_timeout,
            url_size_limit=url_size_limit, kid=kid, jwk_json=jwk_json, generate=generate,
            certificate_name=certificate_name, key_name=key_name, use_private_key=use_private_key,
            keystore_name=keystore_name, alias_name=alias_name, environment_name=environment_name,
            use_type=use_type, algorithm=algorithm, adopt=adopt,
            jwk_id=None, key_type=None, source_type=None, public_jwk=None, private_jwk=None,
        )
        props[CONNECTION] = connection_props(connection)
        if props["jwk_json"] is not None:
            # Secret in the inputs the state keeps, not only in the outputs.
            props["jwk_json"] = pulumi.Output.secret(props["jwk_json"])
        options = pulumi.ResourceOptions.merge(
            resource_options(opts), pulumi.ResourceOptions(additional_secret_outputs=list(SECRET_OUTPUTS)))
        super().__init__(JwkProvider(), resource_name, props, options)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(JwkGenerateArgs, JwkRsaArgs, JwkEcArgs, JwkOctArgs, JwkOkpArgs, prefix="apinizer")
