"""Keys and secrets: ``client.jwks``, ``client.keystores``, ``client.crypto_keys`` and
``client.certificates`` (the 28 operations of 02-api-reference/08-keys-secrets/).

Every write deploys to (or undeploys from) the environments at once and answers
``{success, deploymentResult}``; a failed environment raises
:class:`~apinizer_pulumi.client.DeploymentFailedError`, as the other families' writes do.

What is retried (see :mod:`._retry`): reads, and updates that keep the object's name (they set
values). Creates, generate and the parse-from operations are not (a repeat answers "is already
exist"), nor deletes (a repeat answers "is not found"), nor a renaming update: those are repeated
only when the request never reached the server.

Reads of keystores, keys and JWKs carry key material: an answer that does not parse is never
quoted into an error. Certificates are created and updated with a multipart form, whose answer
waits as a spec upload's does (:func:`._constants.upload_timeout`).

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/index.md
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar
from urllib.parse import urlencode

from .. import models
from ._api_proxies import _Parts
from ._exceptions import APIResponseValidationError, APIStatusError, InvalidArgumentError
from ._parsing import parse_success
from ._resources import _coerce, _problems, _Resource, _segment

if TYPE_CHECKING:
    import pydantic

__all__ = [
    "CERTIFICATES_PATH",
    "CERTIFICATE_EXPORT_PATH",
    "CERTIFICATE_PATH",
    "CRYPTO_KEYS_PATH",
    "CRYPTO_KEY_PATH",
    "JWKS_PATH",
    "JWK_OPERATION_PATH",
    "JWK_PATH",
    "KEYSTORES_PATH",
    "KEYSTORE_PATH",
    "TRUSTSTORE_PATH",
    "Certificates",
    "CryptoKeys",
    "Jwks",
    "Keystores",
    "key_object_not_found",
]

JWKS_PATH = "/apiops/projects/{project}/jwks/"
JWK_PATH = "/apiops/projects/{project}/jwks/{name}/"
#: ``generate`` and the five ``parse-from-...`` operations.
JWK_OPERATION_PATH = "/apiops/projects/{project}/jwks/{operation}"
KEYSTORES_PATH = "/apiops/projects/{project}/keystores/"
KEYSTORE_PATH = "/apiops/projects/{project}/keystores/{name}/"
CRYPTO_KEYS_PATH = "/apiops/projects/{project}/keys/"
CRYPTO_KEY_PATH = "/apiops/projects/{project}/keys/{name}/"
CERTIFICATES_PATH = "/apiops/projects/{project}/certificates/"
CERTIFICATE_PATH = "/apiops/projects/{project}/certificates/{name}/"
CERTIFICATE_EXPORT_PATH = "/apiops/projects/{project}/certificates/{name}/export/"
TRUSTSTORE_PATH = "/apiops/projects/{project}/certificates/truststore/{environment}/"

#: How each kind names itself in the gateway's messages (``JWK (name: my-jwk) is not found!``).
_KINDS = ("JWK", "Keystore", "Key", "Certificate")


def key_object_not_found(error: APIStatusError, kind: str | None = None) -> bool:
    """True for the documented 400 ``<Kind> (name: <name>) is not found!`` of a JWK, keystore,
    key or certificate (``kind`` one of ``JWK``, ``Keystore``, ``Key``, ``Certificate``: that
    kind only), and for a 404 naming one."""
    text = error.error_description
    kinds = _KINDS if kind is None else (kind,)
    named = any(text.startswith(f"{each} (name:") for each in kinds)
    return error.status_code in (400, 404) and named and "not found" in text


_Item = TypeVar("_Item", bound="pydantic.BaseModel")
_Spec = TypeVar("_Spec", bound="pydantic.BaseModel")


class _Objects(_Resource, Generic[_Item]):
    """What the four kinds share: a list, a get that answers a list of one, a find, a delete."""

    _kind: ClassVar[str]
    _collection: ClassVar[str]
    _item: ClassVar[str]
    #: The names of this kind's models, looked up when first used: importing the client must not
    #: build the models of every family (``tests/unit/test_import_cost.py``).
    _list_model_name: ClassVar[str]

    def list(self, project: str) -> builtins.list[_Item]:
        """Every object of this kind in the project."""
        return self._read(self._collection.format(project=_segment(project, "project")))

    def get(self, project: str, name: str) -> _Item:
        """One object by name; an unknown name answers 400 ``<Kind> (name: <name>) is not found!``."""
        path = self._path(project, name)
        found = self._read(path)
        if not found:
            raise APIResponseValidationError("GET", path, 200, f"the answer lists no {self._kind}")
        return found[0]

    def find(self, project: str, name: str) -> _Item | None:
        """Like :meth:`get`, but None when there is no such object; a missing project still raises."""
        try:
            return self.get(project, name)
        except APIStatusError as error:
            if key_object_not_found(error, self._kind):
                return None
            raise

    def delete(self, project: str, name: str) -> models.DeploymentResponse:
        """Delete and undeploy from every environment. Retried only when the request never
        reached the server: a repeat answers ``... is not found!``."""
        return self._send("DELETE", self._path(project, name), None, idempotent=False)

    def _path(self, project: str, name: str) -> str:
        return self._item.format(project=_segment(project, "project"), name=_segment(name, "name"))

    def _read(self, path: str) -> builtins.list[_Item]:
        response = self._client._request("GET", path, idempotent=True)
        # Never quoted into an error: the answers carry key material.
        list_model: type[pydantic.BaseModel] = getattr(models, self._list_model_name)
        parsed = parse_success(list_model, response, "GET", path, quote_body=False)
        # Each kind's list model holds its own items; the envelope base class names none.
        items: builtins.list[_Item] = getattr(parsed, "result_list")  # noqa: B009
        return items

    def _send(
        self, method: str, path: str, body: dict[str, Any] | None, *, idempotent: bool
    ) -> models.DeploymentResponse:
        response = self._client._request(method, path, body=body, idempotent=idempotent)
        # The API proxy family's reading of a deployment answer: a failed environment is an error.
        return self._client.api_proxies._result(response, method, path)


def _referenced_jwks(update_referenced_jwks: bool, update_scope: str | None) -> str:
    """The query of a keystore, key or certificate update (``?updateReferencedJwks=...``), or ''."""
    import pydantic

    try:
        query = models.ReferencedJwkUpdate(
            update_referenced_jwks=update_referenced_jwks, update_scope=update_scope
        )
    except pydantic.ValidationError as error:
        raise InvalidArgumentError("update_scope", _problems(error, "", {})) from None
    params = query.to_params()
    return "?" + urlencode(params) if params else ""


class _Stored(_Objects[_Item], Generic[_Item, _Spec]):
    """Keystores and keys: JSON bodies of the whole object, renamed by an update's body."""

    _spec_model_name: ClassVar[str]
    _argument: ClassVar[str]

    def create(self, project: str, spec: _Spec | Mapping[str, Any]) -> models.DeploymentResponse:
        """``POST``: the object, one entry per environment, deployed to each. A taken name answers
        400 ``<Kind> (name: <name>) is already exist! Try update operation ...``."""
        path = self._collection.format(project=_segment(project, "project"))
        body = _coerce(getattr(models, self._spec_model_name), spec, self._argument)
        return self._send("POST", path, body.to_api(), idempotent=False)

    def update(
        self,
        project: str,
        spec: _Spec | Mapping[str, Any],
        *,
        current_name: str | None = None,
        update_referenced_jwks: bool = False,
        update_scope: models.ReferencedJwkUpdateScope | str | None = None,
    ) -> models.DeploymentResponse:
        """``PUT .../{current_name}/``: the whole object; its body's ``name`` renames it when it
        differs from ``current_name`` (by default the same). With ``update_referenced_jwks``, the
        JWKs made from it follow, in ``update_scope`` (``SAME_PROJECT`` or ``ALL_PROJECTS``, then
        required)."""
        body = _coerce(getattr(models, self._spec_model_name), spec, self._argument)
        name: str = getattr(body, "name")  # noqa: B009  (every spec is named)
        path = self._path(project, current_name if current_name is not None else name)
        path += _referenced_jwks(update_referenced_jwks, update_scope)
        renames = current_name is not None and current_name != name
        return self._send("PUT", path, body.to_api(), idempotent=not renames)


class Keystores(_Stored["models.Keystore", "models.KeystoreSpec"]):
    """A project's keystores (``.../keystores/``): list, get, find, create, update, delete. A
    keystore's files (JKS or PKCS#12, base64) and passwords are secrets; the list and get answers
    carry the files. Messages name it ``Keystore (name: <name>)``."""

    _kind = "Keystore"
    _collection = KEYSTORES_PATH
    _item = KEYSTORE_PATH
    _list_model_name = "KeystoreList"
    _spec_model_name = "KeystoreSpec"
    _argument = "keystore"


class CryptoKeys(_Stored["models.CryptoKey", "models.CryptoKeySpec"]):
    """A project's crypto keys (``.../keys/``): list, get, find, create, update, delete. Private
    keys are secrets; the list and get answers carry them. Messages name it ``Key (name: <name>)``."""

    _kind = "Key"
    _collection = CRYPTO_KEYS_PATH
    _item = CRYPTO_KEY_PATH
    _list_model_name = "CryptoKeyList"
    _spec_model_name = "CryptoKeySpec"
    _argument = "key"


class Jwks(_Objects["models.Jwk"]):
    """A project's JWKs: list (no key material), get (with it), create from a source, generate,
    the five parse-from operations, update, delete."""

    _kind = "JWK"
    _collection = JWKS_PATH
    _item = JWK_PATH
    _list_model_name = "JwkList"

    def create(self, project: str, jwk: models.JwkCreate | Mapping[str, Any]) -> models.DeploymentResponse:
        """``POST .../jwks/``: a JWK from its ``source_type``'s source (a URL, a pasted JWK, a
        certificate, key or keystore alias of the project), deployed to every environment. A taken
        name answers 400 ``JWK (name: <name>) is already exist! ...``."""
        return self._create(project, JWKS_PATH, models.JwkCreate, jwk)

    def generate(
        self, project: str, jwk: models.JwkGenerate | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/generate``: a new key of ``type`` RSA, EC, OCT or OKP made by the gateway."""
        return self._operation(project, "generate", models.JwkGenerate, jwk)

    def parse_from_url(
        self, project: str, jwk: models.JwkFromUrl | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/parse-from-url``: the JWK (or the ``kid`` of a JWK Set) an http(s) URL serves."""
        return self._operation(project, "parse-from-url", models.JwkFromUrl, jwk)

    def parse_from_clipboard(
        self, project: str, jwk: models.JwkFromClipboard | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/parse-from-clipboard``: a JWK (or the ``kid`` of a JWK Set) given as JSON text."""
        return self._operation(project, "parse-from-clipboard", models.JwkFromClipboard, jwk)

    def parse_from_certificate(
        self, project: str, jwk: models.JwkFromCertificate | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/parse-from-certificate``: the public key of a certificate of the project."""
        return self._operation(project, "parse-from-certificate", models.JwkFromCertificate, jwk)

    def parse_from_key(
        self, project: str, jwk: models.JwkFromKey | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/parse-from-key``: a crypto key of the project."""
        return self._operation(project, "parse-from-key", models.JwkFromKey, jwk)

    def parse_from_keystore(
        self, project: str, jwk: models.JwkFromKeystore | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../jwks/parse-from-keystore``: the key of one alias of a keystore of the project."""
        return self._operation(project, "parse-from-keystore", models.JwkFromKeystore, jwk)

    def update(
        self, project: str, name: str, jwk: models.JwkUpdate | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``PUT .../jwks/{name}/``: a new name and/or description; the JWK is detached from its
        source. An unknown JWK answers 400 ``JWK (name: <name>) is not found! Try create operation.``."""
        path = self._path(project, name)
        body = _coerce(models.JwkUpdate, jwk, "jwk")
        renames = body.name is not None and body.name != name
        return self._send("PUT", path, body.to_api(), idempotent=not renames)

    def _operation(
        self, project: str, operation: str, model: type[models.ApiModel], jwk: Any
    ) -> models.DeploymentResponse:
        template = JWK_OPERATION_PATH.replace("{operation}", operation)
        return self._create(project, template, model, jwk)

    def _create(
        self, project: str, template: str, model: type[models.ApiModel], jwk: Any
    ) -> models.DeploymentResponse:
        path = template.format(project=_segment(project, "project"))
        body = _coerce(model, jwk, "jwk")
        return self._send("POST", path, body.to_api(), idempotent=False)


#: The form's text fields, in UTF-8 (names and descriptions may hold any character).
_TEXT = "text/plain; charset=utf-8"
#: The first bytes of a ZIP file: a local file header, or the end record of an empty archive.
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


class Certificates(_Objects["models.Certificate"]):
    """A project's certificates: list, get, create and update (multipart, a PEM file), delete,
    export (a ZIP of DER files); and an environment's truststore."""

    _kind = "Certificate"
    _collection = CERTIFICATES_PATH
    _item = CERTIFICATE_PATH
    _list_model_name = "CertificateList"

    def create(
        self, project: str, certificate: models.CertificateSpec | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../certificates/`` (multipart): a PEM certificate deployed under ``alias`` to each
        environment of ``environment_list``. A taken name answers 400 ``Certificate (name: <name>)
        is already exist!``, a taken alias ``Alias (<alias>) is already used for another
        certificate, try changing this value!``."""
        spec = _coerce(models.CertificateSpec, certificate, "certificate")
        path = CERTIFICATES_PATH.format(project=_segment(project, "project"))
        return self._upload("POST", path, spec, idempotent=False)

    def update(
        self,
        project: str,
        certificate: models.CertificateSpec | Mapping[str, Any],
        *,
        update_referenced_jwks: bool = False,
        update_scope: models.ReferencedJwkUpdateScope | str | None = None,
    ) -> models.DeploymentResponse:
        """``PUT .../certificates/{certificate_name}/`` (multipart, every field): the certificate is
        replaced (it cannot be renamed). With ``update_referenced_jwks``, the JWKs made from it
        follow, in ``update_scope`` (then required)."""
        spec = _coerce(models.CertificateSpec, certificate, "certificate")
        path = self._path(project, spec.certificate_name)
        path += _referenced_jwks(update_referenced_jwks, update_scope)
        return self._upload("PUT", path, spec, idempotent=True)

    def export(self, project: str, name: str) -> bytes:
        """``GET .../certificates/{name}/export/``: a ZIP holding ``<name>-<environment>.cer`` (DER)
        per environment. An answer that is not a ZIP raises :class:`APIResponseValidationError`."""
        path = CERTIFICATE_EXPORT_PATH.format(
            project=_segment(project, "project"), name=_segment(name, "name")
        )
        response = self._client._request("GET", path, idempotent=True)
        if not response.content.startswith(_ZIP_MAGIC):
            raise APIResponseValidationError(
                "GET",
                path,
                response.status_code,
                "the body is not a ZIP file",
                snippet=repr(response.content[:40]),
            )
        return response.content

    def truststore(self, project: str, environment: str) -> builtins.list[models.Certificate]:
        """``GET .../certificates/truststore/{environment}/``: the certificates of the environment's
        truststore; ``project`` must be the admin project. An unknown environment answers 400
        ``Environment (<name>) is not found or user does not have privilege to access it!``."""
        path = TRUSTSTORE_PATH.format(
            project=_segment(project, "project"), environment=_segment(environment, "environment")
        )
        return self._read(path)

    def _upload(
        self, method: str, path: str, spec: models.CertificateSpec, *, idempotent: bool
    ) -> models.DeploymentResponse:
        fields, files = spec.to_form()
        parts: _Parts = [(key, (None, value.encode(), _TEXT)) for key, value in fields.items()]
        parts += [(key, (filename, content, media)) for key, (filename, content, media) in files.items()]
        return self._client.api_proxies._send_multipart(method, path, parts, idempotent=idempotent)
