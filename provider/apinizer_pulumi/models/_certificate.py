"""Certificates: one PEM certificate deployed to some environments under an alias, the source of JWKs
made from a certificate and of the policies' ``certificate_id``; and the environment truststore.

Every field is the product documentation's:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-certificate.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-certificates.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-truststore-certificates.md

Create and update take a multipart form, not JSON: :meth:`CertificateSpec.to_form` gives its
fields and its file.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from ._api_proxy import DeploymentResponse
from ._base import ApiModel, Name, field_errors
from ._keystore import environment_names_problem
from ._project import ResultEnvelope

__all__ = [
    "Certificate",
    "CertificateEnvironment",
    "CertificateList",
    "CertificateResponse",
    "CertificateSpec",
    "pem_certificate_problem",
]

#: A file of a multipart form, as httpx takes it: its name, its content and its media type.
FormFile = tuple[str, bytes, str]

_BEGIN, _END = b"-----BEGIN CERTIFICATE-----", b"-----END CERTIFICATE-----"


def pem_certificate_problem(content: bytes) -> str | None:
    """Why ``content`` is not a PEM certificate file as the create page asks (not empty, its BEGIN
    and END markers in that order), or None. Whether the certificate itself parses is the gateway's."""
    if not content.strip():
        return "is empty: give a PEM-encoded certificate file"
    begin = content.find(_BEGIN)
    if begin < 0 or content.find(_END, begin) < 0:
        return "is not PEM: a certificate holds -----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----"
    return None


def _comma_separated(value: Any) -> Any:
    # The form's own spelling, "production,staging", is read as the list it stands for.
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")]
    return value


def _as_bytes(value: Any) -> Any:
    return value.encode("utf-8") if isinstance(value, str) else value


class CertificateSpec(ApiModel):
    """The form of create (``POST .../certificates/``) and update (``PUT .../certificates/{name}/``,
    whose path names the certificate; it cannot be renamed): every field required.

    ``environment_list`` is sent comma-separated; ``pem_encoded_file`` is the file's content.
    """

    certificate_name: Name
    alias: Name
    certificate_description: str
    environment_list: Annotated[list[Name], BeforeValidator(_comma_separated)]
    pem_encoded_file: Annotated[bytes, BeforeValidator(_as_bytes)] = Field(repr=False)

    @model_validator(mode="after")
    def _environments_and_file(self) -> CertificateSpec:
        problems: list[tuple[str, str, Any]] = []
        problem = environment_names_problem(self.environment_list)
        if problem is not None:
            problems.append(("environment_list", problem, self.environment_list))
        problem = pem_certificate_problem(self.pem_encoded_file)
        if problem is not None:
            problems.append(("pem_encoded_file", problem, None))
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self

    def to_form(self, filename: str | None = None) -> tuple[dict[str, str], dict[str, FormFile]]:
        """The multipart form: its text fields, and its file (named ``filename``, by default the
        certificate's name with ``.pem``)."""
        fields = {
            "certificateName": self.certificate_name,
            "alias": self.alias,
            "certificateDescription": self.certificate_description,
            "environmentList": ",".join(self.environment_list),
        }
        name = filename or f"{self.certificate_name}.pem"
        return fields, {"pemEncodedFile": (name, self.pem_encoded_file, "application/x-pem-file")}

    def to_api(self) -> dict[str, Any]:
        """The form's fields as JSON (the file as text), for comparing and for state."""
        fields, files = self.to_form()
        return {**fields, "pemEncodedFile": files["pemEncodedFile"][1].decode("utf-8", "replace")}


class CertificateEnvironment(ApiModel):
    """One environment's certificate (``certificateEnvironmentList`` items): validity, content
    (base64 DER; left out of some answers), SHA-1 thumbprint, subject and alias."""

    environment_name: str
    start_date: str | None = None
    end_date: str | None = None
    base64_encoded_content: str | None = Field(default=None, repr=False)
    sha1_thumbprint: str | None = None
    subject_dn: str | None = None
    alias: str | None = None


class Certificate(ApiModel):
    """A certificate as list, get and the truststore answer it. ``id`` is what a policy's
    ``certificate_id`` names; the pages do not show it, so it may be absent."""

    id: str | None = None
    name: str
    description: str | None = None
    project_id: str | None = None
    certificate_environment_list: list[CertificateEnvironment] = Field(default_factory=list)


class CertificateList(ResultEnvelope):
    """``GET .../certificates/``, ``GET .../certificates/{name}/`` (a list of one) and
    ``GET .../certificates/truststore/{environmentName}/``."""

    result_list: list[Certificate] = Field(default_factory=list)


class CertificateResponse(DeploymentResponse):
    """The answer of create, update and delete: ``success`` and the (un)deployment's result."""
