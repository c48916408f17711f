"""HTTP handlers of certificates (multipart create and update, export, the environment truststore),
and their routes:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md

The uploaded file is read (and refused if it is no certificate or is expired by the emulator's
clock) before the write. An update with ``updateReferencedJwks=true`` makes the JWKs made from the
certificate again in the same transaction; a delete detaches them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import CertificateList, CertificateResponse

from . import certificates, jwks, key_material
from .errors import BadRequestError, FieldRequiredError
from .key_family_routes import listed, now, off_loop, remakes_jwks, security
from .rules import check_path_name
from .web import Route, json_response, multipart_parts, project_name, read, write

CERTIFICATES = "/apiops/projects/{projectName}/certificates/"
CERTIFICATE = CERTIFICATES + "{certificateName}/"
EXPORT = CERTIFICATE + "export/"
TRUSTSTORE = CERTIFICATES + "truststore/{environmentName}/"
FILE_FIELD = "pemEncodedFile"

#: What the form gives: name, description, alias, environments, the certificate read.
CertificateForm = tuple[str, str, str, list[str], key_material.Certificate]


def _name(request: Request) -> str:
    return str(request.path_params["certificateName"])


async def _form(request: Request, path_name: str | None = None) -> CertificateForm:
    """The create (and update) form, in the order of the create page's errors."""
    security(request, writes=True)
    described = "certificateName, alias, certificateDescription, environmentList and pemEncodedFile"
    parts = await multipart_parts(request, described, FILE_FIELD, key_material.MAX_CERTIFICATE_BYTES)

    def text(field: str) -> str:
        raw, _ = parts.get(field, (b"", ""))
        try:
            return raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise BadRequestError(f"{field} is not UTF-8 text") from None

    name = text("certificateName") or (path_name or "")
    if not name:
        raise certificates.EmptyFieldError("certificateName")
    check_path_name("certificateName", name)
    if path_name is not None and name != path_name:
        raise BadRequestError(f"Certificate name can not be changed: ({name}) is not ({path_name})!")
    alias = text("alias")
    if not alias:
        raise certificates.EmptyFieldError("alias")
    content = parts.get(FILE_FIELD, (b"", ""))[0]
    if not content.strip():
        raise certificates.EmptyFieldError(FILE_FIELD)
    environments = [item.strip() for item in text("environmentList").split(",") if item.strip()]
    if not environments:
        raise certificates.EmptyFieldError("environmentList")
    if "certificateDescription" not in parts:
        raise FieldRequiredError("certificateDescription")
    certificate = await off_loop(certificates.read_upload, content, now(request))
    return name, text("certificateDescription"), alias, environments, certificate


async def list_certificates(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-certificates.md"""
    security(request)
    return listed(read(request, certificates.list_certificates, project_name(request)))


async def get_certificate(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-certificate.md"""
    security(request)
    return listed([read(request, certificates.get_certificate, project_name(request), _name(request))])


async def create_certificate(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md"""
    name, description, alias, environments, certificate = await _form(request)
    project = project_name(request)
    return json_response(
        await write(
            request, certificates.create, project, name, description, alias, environments, certificate
        ),
    )


def _updated(db: sqlite3.Connection, project: str, form: CertificateForm, remake: bool) -> dict[str, Any]:
    certificate_id, answer = certificates.update(db, project, *form)
    if remake:
        jwks.remake_from(db, project, certificate_id)
    return answer


async def update_certificate(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-certificate.md"""
    remake = remakes_jwks(request)
    form = await _form(request, _name(request))
    return json_response(await write(request, _updated, project_name(request), form, remake))


def _deleted(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    certificate_id, answer = certificates.delete(db, project, name)
    jwks.detach_from(db, certificate_id)
    return answer


async def delete_certificate(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-certificate.md"""
    security(request, writes=True)
    return json_response(await write(request, _deleted, project_name(request), _name(request)))


async def export_certificate(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/export-certificate.md"""
    security(request)
    name = _name(request)
    content = read(request, certificates.export, project_name(request), name)
    return Response(
        content,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{name}-certificates.zip"'},
    )


async def truststore(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-truststore-certificates.md"""
    security(request)
    environment = str(request.path_params["environmentName"])
    return listed(read(request, certificates.truststore, project_name(request), environment))


ROUTES: list[Route] = [
    (
        "GET",
        CERTIFICATES,
        list_certificates,
        "List a project's certificates (no content)",
        None,
        CertificateList,
    ),
    (
        "GET",
        TRUSTSTORE,
        truststore,
        "List the certificates of an environment's truststore (admin project)",
        None,
        CertificateList,
    ),
    ("GET", CERTIFICATE, get_certificate, "Get a certificate", None, CertificateList),
    (
        "POST",
        CERTIFICATES,
        create_certificate,
        "Create a certificate (multipart) and deploy it",
        None,
        CertificateResponse,
    ),
    (
        "PUT",
        CERTIFICATE,
        update_certificate,
        "Replace a certificate (multipart) and deploy it",
        None,
        CertificateResponse,
    ),
    (
        "DELETE",
        CERTIFICATE,
        delete_certificate,
        "Delete a certificate and undeploy it",
        None,
        CertificateResponse,
    ),
    ("GET", EXPORT, export_certificate, "Export a certificate as a ZIP of DER files", None, None),
]
