"""``Certificate``: one X.509 certificate of a project, deployed under an alias to some environments,
and its dynamic provider.

Create and update are multipart uploads that deploy to every named environment at once; the update
page replaces the whole certificate (every field; the name cannot change), so a new PEM under the
same name is an update in place. Refresh reads the project's certificate list, one request shared
by every certificate of the project; the list carries no content, but its SHA-1 thumbprints show a
certificate changed outside Pulumi (then one read of that certificate gives its content's hash).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-certificate.md

The content is in the state only as its sha256: ``pem`` is a secret input, left out of the outputs;
``file`` is a path the provider reads when it sends the file.

The provider's module path and class name (``apinizer_pulumi.resources.certificate.CertificateProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pulumi
import pulumi.dynamic as dyn

from . import _named
from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, inputs_of, is_unknown, lazy_model
from ._connection import ConnectionArgs
from ._errors import ApinizerResourceError, refuse_if_changed, translated
from ._named import NamedObject
from ._secret_inputs import HoldsSecrets, SecretInputs
from ._undeployed import UNDEPLOYED, deployed, redeploy_diff, undeployed_outputs

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError
    from apinizer_pulumi.models import Certificate as LiveCertificate
    from apinizer_pulumi.models import CertificateSpec, DeploymentResponse

    from ._certificate_inputs import CertificateInputs

#: The secret input: the certificate's PEM text (kept out of the outputs, and of the state in clear).
SECRET_INPUTS = ("pem",)
#: What the gateway answers per environment, recorded as outputs keyed by environment name.
PER_ENVIRONMENT = ("subject_dn", "end_date", "sha1_thumbprint")
#: The outputs that only the gateway gives (and where its last deployment failed).
COMPUTED = ("certificate_id", *PER_ENVIRONMENT, UNDEPLOYED)
#: The documented answer of a create with a taken name: ``Certificate (name: X) is already exist!``.
_ALREADY_EXISTS = re.compile(r"^Certificate \(name: .*\) is already exist", re.DOTALL)


SECRETS = SecretInputs(SECRET_INPUTS)
plain = SECRETS.plain
secret = SECRETS.secret


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:Certificate <name> in <project>`` for messages, from the props or else the id."""
    return _named.subject("Certificate", props, id_)


def _taken(error: BadRequestError) -> bool:
    return bool(_ALREADY_EXISTS.search(error.error_description or ""))


def _missing(error: APIStatusError) -> bool:
    from apinizer_pulumi.client import NotFoundError
    from apinizer_pulumi.client._keys import key_object_not_found

    from ._errors import container_gone

    if isinstance(error, NotFoundError):
        return container_gone(error)
    return key_object_not_found(error, "Certificate")


def content_sha256(inputs: Mapping[str, Any]) -> Any:
    """The sha256 of the declared certificate's DER (``pem`` or ``file``); unknown while ``pem`` is,
    None when neither reads (check reports why)."""
    from pulumi.runtime import rpc

    from ._certificate_inputs import certificate_der, sha256_of
    from ._files import read_file

    pem, file = inputs.get("pem"), inputs.get("file")
    if is_unknown(pem) or is_unknown(file):
        return rpc.UNKNOWN
    try:
        if isinstance(pem, str):
            return sha256_of(certificate_der(pem.encode("utf-8"), "pem"))
        if isinstance(file, str):
            return sha256_of(certificate_der(read_file(file, "file"), "file"))
    except ValueError:
        pass
    return None


def _declared(props: Mapping[str, Any]) -> tuple[CertificateInputs, bytes]:
    """The inputs and the certificate's DER as sent now; refused (nothing sent) when the content is
    not the one the preview hashed (a file changed between them)."""
    from ._certificate_inputs import CertificateInputs

    declared = CertificateInputs.model_validate(
        {key: value for key, value in inputs_of(props).items()
         if key not in (CONNECTION, "sha256", *COMPUTED) and value is not None})
    try:
        der = declared.der()
    except ValueError as error:
        raise ApinizerResourceError(str(error)) from None
    refuse_if_changed(der, props.get("sha256"), f"file {declared.file!r}", read_by="the preview")
    return declared, der


def _made_by(live: LiveCertificate, declared: CertificateInputs, der: bytes) -> bool:
    """Whether a certificate read whole (``get``) is what this declaration's create makes."""
    environments = live.certificate_environment_list
    return (
        (live.description or "") == declared.description
        and {item.environment_name for item in environments} == set(declared.environment_names)
        and all(item.alias == declared.alias for item in environments)
        and all(item.base64_encoded_content is None or base64.b64decode(item.base64_encoded_content) == der
                for item in environments)
    )


def _computed(live: LiveCertificate) -> dict[str, Any]:
    """The outputs only the gateway gives: the id a policy's ``certificate_id`` names, and per
    environment the subject, the end of validity and the SHA-1 thumbprint."""
    environments = live.certificate_environment_list
    computed: dict[str, Any] = {"certificate_id": live.id}
    for output in PER_ENVIRONMENT:
        computed[output] = {item.environment_name: getattr(item, output) for item in environments
                            if getattr(item, output) is not None}
    return computed


def _send_update(client: ApinizerClient, project: str, spec: CertificateSpec,
                 props: Mapping[str, Any]) -> DeploymentResponse:
    """The update page's ``PUT``; with ``update_referenced_jwks`` (a scope), the JWKs made from the
    certificate are made again from the new one, as a keystore's and a key's are."""
    from ._key_material import PerEnvironmentMaterial

    sent = PerEnvironmentMaterial.send_update(client.certificates, project, spec, props)
    return cast("DeploymentResponse", sent)


def _sha1(der: bytes) -> str:
    # The gateway's thumbprint: SHA-1 of the DER, upper-case hex (the list page's example).
    return hashlib.sha1(der, usedforsecurity=False).hexdigest().upper()


class CertificateProvider(HoldsSecrets, NamedObject):
    """Create (exactly once) and deploy, update in place (a new PEM too), refresh from the project's
    list, delete and undeploy; with ``adopt``, create takes over a certificate of that name."""

    kind = "Certificate"
    inputs_model = lazy_model("apinizer_pulumi.resources._certificate_inputs", "CertificateInputs")
    #: The content is compared by its ``sha256``; where it comes from (text or a path) is no change,
    #: nor is whether a rotation remakes the JWKs made from the certificate.
    ignored_fields = (CONNECTION, "adopt", "pem", "file", "update_referenced_jwks")
    secrets = SECRETS

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        result = super().check_inputs(olds, news)
        inputs = dict(result.inputs)
        digest = content_sha256(plain(news))
        if digest is not None:
            inputs["sha256"] = digest
        return dyn.CheckResult(inputs, result.failures)

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        """The declared changes; and a change when the last write's deployment failed somewhere."""
        return redeploy_diff(super().diff(id_, olds, news), olds)

    @translated(lambda self, props: subject(plain(props)))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import ExactlyOnce, after_create
        from ._reads import key_objects_writing

        props = plain(props)
        project, name = self.identity("", props)
        client = self.client(props)
        declared, der = _declared(props)
        spec = declared.spec(der)
        who = subject(props)
        # Until a create is answered, its deployment is unknown: one confirmed by the look-up after a
        # lost answer lost the deployment's result with it, so every environment is recorded as not
        # deployed, and the next `pulumi up` deploys it again.
        undeployed: list[str] | None = None

        def send() -> None:
            nonlocal undeployed
            undeployed = deployed(who, "created", lambda: client.certificates.create(project, spec))

        def take_over() -> None:
            nonlocal undeployed
            # The update page writes every field, the file too.
            undeployed = deployed(who, "taken over", lambda: _send_update(client, project, spec, props))

        create = ExactlyOnce[Any](
            send=send,
            look_up=lambda: client.certificates.find(project, name),
            made_by=lambda live: _made_by(live, declared, der),
            already_exists=_taken,
            noun="certificate",
            namesake="a certificate with this name",
        )
        self.create_once(create, _taken, props, who, take_over,
                         writing=key_objects_writing(client, "certificates", project),
                         forced=False, adopted_gets=" (it then gets every declared field and this file)")
        if undeployed is None:
            undeployed = sorted(declared.environment_names)
            pulumi.log.warn(f"{who}: created, but the answer that reports its deployment was lost; "
                            "the next `pulumi up` deploys it again")
        computed: dict[str, Any] = {}
        with after_create(who, "reading its id back", "the next `pulumi refresh` reads it"):
            computed = self._read_back(client, project, name)
        return dyn.CreateResult(f"{project}/{name}",
                                self._outputs(props, {**computed, **undeployed_outputs(undeployed)}))

    @translated(lambda self, id_, olds, news: subject(plain(news), id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import key_objects_writing

        news = plain(news)
        project, name = self.identity(id_, news)
        client = self.client(news)
        declared, der = _declared(news)
        with key_objects_writing(client, "certificates", project):
            # The update page replaces the certificate whole (the product deletes and makes it again).
            undeployed = deployed(subject(news, id_), "updated",
                                  lambda: _send_update(client, project, declared.spec(der), news))
        # Read again: the id a policy names may be the new certificate's.
        computed = self._read_back(client, project, name)
        return dyn.UpdateResult(self._outputs(news, {**computed, **undeployed_outputs(undeployed)}))

    @translated(lambda self, id_, props: subject(plain(props), id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import listed_key_object

        props = plain(props)
        project, name = self.identity(id_, props)

        def look(client: ApinizerClient) -> tuple[LiveCertificate | None, str | None]:
            live = listed_key_object(client, "certificates", project, name)
            if live is None:
                return None, None
            return live, self._changed_content(client, project, name, live, props)

        live, changed_sha256 = self.read_recorded(props, look)
        if live is None:
            return dyn.ReadResult(None, {})  # the gateway said it is gone: dropped from the state
        inputs = self.recorded_inputs(id_, props, COMPUTED)
        inputs["description"] = live.description or ""
        environments = live.certificate_environment_list
        live_names = [item.environment_name for item in environments]
        recorded_names = list(props.get("environment_names") or [])
        # The declared order is kept while the same environments hold it: an order is no drift.
        inputs["environment_names"] = recorded_names if set(recorded_names) == set(live_names) else live_names
        aliases = [item.alias for item in environments if item.alias]
        if aliases:
            inputs["alias"] = aliases[0] if props.get("alias") not in aliases else props["alias"]
        if changed_sha256 is not None:
            inputs["sha256"] = changed_sha256
        # The list shows no deployments: what the last write's answer said is kept.
        outs = self._outputs(inputs, {**_computed(live), **undeployed_outputs(props.get(UNDEPLOYED) or [])})
        return dyn.ReadResult(id_, outs, secret(inputs) if self.drifted(props, outs) else None)

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import key_objects_writing

        with key_objects_writing(client, "certificates", project):
            # Deleted whatever its undeployment says: a failed one is a warning, as for the writes.
            deployed(subject({"project_name": project, "name": name}), "deleted",
                     lambda: client.certificates.delete(project, name))

    gone = staticmethod(_missing)

    # -- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _read_back(client: ApinizerClient, project: str, name: str) -> dict[str, Any]:
        """The computed outputs after a write: from the project's shared list, sent after the write,
        read again after failures that may pass (a 500 the client never repeats)."""
        from ._create import read_retried
        from ._reads import listed_key_object

        live = read_retried(lambda: listed_key_object(client, "certificates", project, name)
                            or client.certificates.get(project, name))
        return _computed(live)

    @staticmethod
    def _changed_content(client: ApinizerClient, project: str, name: str, live: LiveCertificate,
                         props: Mapping[str, Any]) -> str | None:
        """The sha256 of the live certificate when its thumbprint is not the recorded one (it was
        replaced outside Pulumi), read with one ``get``; None when it is the recorded one."""
        from ._certificate_inputs import sha256_of

        recorded = props.get("sha1_thumbprint") or {}
        if not isinstance(recorded, Mapping) or not recorded:
            return None
        for item in live.certificate_environment_list:
            if item.sha1_thumbprint in (None, recorded.get(item.environment_name)):
                continue
            whole = client.certificates.get(project, name)
            for each in whole.certificate_environment_list:
                if each.environment_name == item.environment_name and each.base64_encoded_content:
                    der = base64.b64decode(each.base64_encoded_content)
                    return sha256_of(der) if _sha1(der) == item.sha1_thumbprint else None
            return None
        return None

    def _outputs(self, inputs: Mapping[str, Any], computed: Mapping[str, Any]) -> dict[str, Any]:
        # The PEM stays in the (secret) inputs only: the outputs hold its sha256.
        return self.outputs({key: value for key, value in inputs.items() if key not in SECRET_INPUTS},
                            **computed)


class Certificate(dyn.Resource, module="apinizer", name="Certificate"):
    """A certificate: one X.509 certificate of a project, deployed under an alias to environments, for
    mTLS, the truststore, JWKs made from it and the policies' ``certificate_id``.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new one is made
    first); ``alias``, ``description``, ``environment_names`` and the certificate itself (a new PEM
    or file) change in place, with the update page's one request, which deploys to every named
    environment. The content is given as ``pem`` (text, an Output is fine) or ``file`` (PEM or DER)
    and recorded only as ``sha256``, the hash of its DER. Refresh reads the project's certificate
    list (once per project) and shows drift of every field, a certificate replaced outside Pulumi
    included (its ``sha256``, ``subject_dn`` and ``end_date``). Destroy deletes and undeploys it.
    With ``adopt=True`` a certificate of that name is taken over and gets every declared field.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the certificate."""
    name: pulumi.Output[str]
    """The certificate's name, unique within the project."""
    alias: pulumi.Output[str]
    """Its alias, unique per environment."""
    description: pulumi.Output[str]
    """Free text."""
    environment_names: pulumi.Output[list[str]]
    """The environments it is deployed to."""
    file: pulumi.Output[str | None]
    """The absolute path of the certificate file, when given as ``file``."""
    sha256: pulumi.Output[str]
    """The sha256 of the certificate's DER (hex): what the state records of its content."""
    certificate_id: pulumi.Output[str | None]
    """The gateway's id of the certificate: what a policy's ``certificate_id`` names."""
    subject_dn: pulumi.Output[dict[str, str]]
    """Per environment, the certificate's subject DN, as the gateway answers it."""
    end_date: pulumi.Output[dict[str, str]]
    """Per environment, the end of its validity (ISO 8601, UTC), as the gateway answers it."""
    sha1_thumbprint: pulumi.Output[dict[str, str]]
    """Per environment, its SHA-1 thumbprint (upper-case hex), as the gateway answers it."""
    undeployed_environments: pulumi.Output[list[str] | None]
    """Where the last write's deployment failed (absent when it passed everywhere)."""
    update_referenced_jwks: pulumi.Output[str | None]
    """Whether (and in which scope) an update remakes the JWKs made from this certificate."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a certificate that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        alias: pulumi.Input[str],
        environment_names: pulumi.Input[Sequence[pulumi.Input[str]]],
        pem: pulumi.Input[str] | None = None,
        file: str | os.PathLike[str] | None = None,
        description: pulumi.Input[str] | None = None,
        update_referenced_jwks: pulumi.Input[str] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a certificate; give exactly one of ``pem`` and ``file``.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the certificate.
        :param name: Unique within the project; it cannot change in place.
        :param alias: Its alias, unique per environment within the project.
        :param environment_names: The environments to deploy it to (at least one, each once).
        :param pem: The certificate as PEM text (its first ``CERTIFICATE`` block is sent), e.g. an
            Output of a CA the program makes; kept secret in the state, only its sha256 in the outputs.
        :param file: A certificate file, PEM or DER, relative to the program's folder; read when sent.
        :param description: Free text (default empty: the form requires the field).
        :param update_referenced_jwks: ``SAME_PROJECT`` or ``ALL_PROJECTS``: an update (a rotation) also
            remakes the JWKs made from this certificate in that scope (the update page's
            ``updateReferencedJwks``). Default: none, they keep the key they were made from. Never a
            change by itself.
        :param adopt: Take over an existing certificate of that name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(
            project_name=project_name, name=name, alias=alias, environment_names=environment_names,
            description=description, update_referenced_jwks=update_referenced_jwks, adopt=adopt,
            file=str(Path(file).absolute()) if file is not None else None,
        )
        # Secret in the inputs the state keeps; the outputs hold only its hash.
        props["pem"] = pulumi.Output.secret(pem) if pem is not None else None
        props["sha256"] = None
        for output in COMPUTED:
            props[output] = None
        props[CONNECTION] = connection_props(connection)
        options = pulumi.ResourceOptions.merge(
            resource_options(opts), pulumi.ResourceOptions(additional_secret_outputs=list(SECRET_INPUTS)))
        super().__init__(CertificateProvider(), resource_name, props, options)
