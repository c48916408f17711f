"""Certificates and the environment truststore: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md

A certificate is one X.509 certificate (the form's ``pemEncodedFile``, read by
:func:`key_material.parse_certificate`) and one alias, deployed to the environments of the form's
``environmentList``; the answers repeat it per environment. Choices where the pages are silent
(docs/emulator.md lists them): a file that is no certificate, or one already expired by the
emulator's clock ("invalid certificates will cause creation to fail"), is a 400; the alias is
unique per environment within the project; the truststore of an environment lists the
certificates of every project deployed to it; deleting a certificate that a JWK was made from
leaves the JWK (a copy of its key) detached from it.
"""

from __future__ import annotations

import base64
import io
import sqlite3
import zipfile
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from . import key_material, key_references
from .deployments import deployment
from .errors import BadRequestError
from .key_families import (
    object_row,
    require_environments,
    require_project,
)
from .models import new_id

SCHEMA = """
CREATE TABLE IF NOT EXISTS certificates (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    alias TEXT NOT NULL,
    der BLOB NOT NULL,
    UNIQUE (project, name)
);
CREATE TABLE IF NOT EXISTS certificate_environments (
    certificate_id TEXT NOT NULL REFERENCES certificates(id) ON DELETE CASCADE,
    environment TEXT NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
    PRIMARY KEY (certificate_id, environment)
);
"""
#: The family's tables, children first (the order the emulator's reset deletes them in).
DATA_TABLES = ("certificate_environments", "certificates")

#: The project whose truststore reads are allowed (the truststore page: "only available for admin project").
ADMIN_PROJECT = "admin"


KIND = "Certificate"


class CertificateExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Certificate (name: {name}) is already exist!")


class AliasUsedError(BadRequestError):
    def __init__(self, alias: str) -> None:
        super().__init__(f"Alias ({alias}) is already used for another certificate, try changing this value!")


class EmptyFieldError(BadRequestError):
    def __init__(self, field: str) -> None:
        super().__init__(f"{field} value can not be empty!")


class CertificateExpiredError(BadRequestError):
    """Not shown by the pages ("invalid certificates will cause creation to fail"): our wording."""

    def __init__(self, field: str, end: str) -> None:
        super().__init__(f"{field} is an expired certificate (valid until {end})!")


class TruststoreProjectError(BadRequestError):
    """Not shown by the pages ("regular projects cannot access truststore certificates"): our wording."""

    def __init__(self, project: str) -> None:
        super().__init__(
            f"Truststore certificates are read in the {ADMIN_PROJECT} project only, not in ({project})!"
        )


def read_upload(content: bytes, now: datetime) -> key_material.Certificate:
    """The form's ``pemEncodedFile``, refused if unreadable or expired at ``now``."""
    certificate = key_material.parse_certificate(content, "pemEncodedFile")
    if certificate.expired(now):
        raise CertificateExpiredError("pemEncodedFile", certificate.iso(certificate.end))
    return certificate


def _row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    return object_row(db, "certificates", KIND, project, name)


def _environments(db: sqlite3.Connection, certificate_id: str) -> list[str]:
    return [
        r["environment"] for r in db.execute(
            "SELECT c.environment FROM certificate_environments c JOIN environments e"
            " ON e.name = c.environment WHERE c.certificate_id = ? ORDER BY e.seq",
            (certificate_id,),
        )
    ]


def _check_alias(
    db: sqlite3.Connection, project: str, alias: str, environments: Sequence[str], itself: str | None
) -> None:
    marks = ",".join("?" * len(environments))
    clash = db.execute(
        "SELECT 1 FROM certificates c JOIN certificate_environments e ON e.certificate_id = c.id"
        f" WHERE c.project = ? AND c.alias = ? AND c.id IS NOT ? AND e.environment IN ({marks})",
        (project, alias, itself, *environments),
    ).fetchone()
    if clash:
        raise AliasUsedError(alias)


def _store_environments(db: sqlite3.Connection, certificate_id: str, environments: Sequence[str]) -> None:
    db.execute("DELETE FROM certificate_environments WHERE certificate_id = ?", (certificate_id,))
    db.executemany(
        "INSERT INTO certificate_environments (certificate_id, environment) VALUES (?, ?)",
        [(certificate_id, name) for name in dict.fromkeys(environments)],
    )


def create(
    db: sqlite3.Connection,
    project: str,
    name: str,
    description: str | None,
    alias: str,
    environments: Sequence[str],
    certificate: key_material.Certificate,
) -> dict[str, Any]:
    require_project(db, project)
    if db.execute("SELECT 1 FROM certificates WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise CertificateExistsError(name)
    require_environments(db, environments)
    _check_alias(db, project, alias, environments, None)
    certificate_id = new_id()
    db.execute(
        "INSERT INTO certificates (id, project, name, description, alias, der) VALUES (?, ?, ?, ?, ?, ?)",
        (certificate_id, project, name, description, alias, certificate.der),
    )
    _store_environments(db, certificate_id, environments)
    return deployment(db, _environments(db, certificate_id))


def update(
    db: sqlite3.Connection,
    project: str,
    name: str,
    description: str | None,
    alias: str,
    environments: Sequence[str],
    certificate: key_material.Certificate,
) -> tuple[str, dict[str, Any]]:
    """(the certificate's id, the deployment answer); the caller remakes the JWKs made from it."""
    row = _row(db, project, name)
    require_environments(db, environments)
    _check_alias(db, project, alias, environments, row["id"])
    db.execute(
        "UPDATE certificates SET description = ?, alias = ?, der = ? WHERE id = ?",
        (description, alias, certificate.der, row["id"]),
    )
    _store_environments(db, row["id"], environments)
    return row["id"], deployment(db, _environments(db, row["id"]))


def delete(db: sqlite3.Connection, project: str, name: str) -> tuple[str, dict[str, Any]]:
    """(the certificate's id, the undeployment answer)."""
    row = _row(db, project, name)
    key_references.refuse_if_named(db, project, KIND, name, row["id"])
    environments = _environments(db, row["id"])
    db.execute("DELETE FROM certificates WHERE id = ?", (row["id"],))
    return row["id"], deployment(db, environments, undeploy=True)


def _answer(
    db: sqlite3.Connection,
    row: sqlite3.Row,
    environments: Sequence[str] | None = None,
    *,
    content: bool = True,
) -> dict[str, Any]:
    """A certificate as the pages show it; the list leaves out the content ("excluded from list
    response for performance", though its example shows it)."""
    parsed = key_material.certificate_of_der(bytes(row["der"]))
    encoded = base64.b64encode(row["der"]).decode() if content else None
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "certificateEnvironmentList": [
            {
                "environmentName": environment,
                "startDate": parsed.iso(parsed.start),
                "endDate": parsed.iso(parsed.end),
                "base64EncodedContent": encoded,
                "sha1Thumbprint": parsed.sha1_thumbprint,
                "subjectDn": parsed.subject_dn,
                "alias": row["alias"],
            }
            for environment in (environments if environments is not None else _environments(db, row["id"]))
        ],
    }


def list_certificates(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    require_project(db, project)
    return [
        _answer(db, row, content=False)
        for row in db.execute("SELECT * FROM certificates WHERE project = ? ORDER BY name", (project,))
    ]


def get_certificate(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    return _answer(db, _row(db, project, name))


def export(db: sqlite3.Connection, project: str, name: str) -> bytes:
    """The export page's ZIP: ``{name}-{environment}.cer`` in DER, one per environment."""
    row = _row(db, project, name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for environment in _environments(db, row["id"]):
            info = zipfile.ZipInfo(f"{name}-{environment}.cer", date_time=(1980, 1, 1, 0, 0, 0))
            archive.writestr(info, bytes(row["der"]))
    return buffer.getvalue()


def truststore(db: sqlite3.Connection, project: str, environment: str) -> list[dict[str, Any]]:
    if project != ADMIN_PROJECT:
        raise TruststoreProjectError(project)
    if not environment.strip():
        raise EmptyFieldError("environmentName")
    require_environments(db, [environment])
    return [
        _answer(db, row, [environment])
        for row in db.execute(
            "SELECT c.* FROM certificates c JOIN certificate_environments e ON e.certificate_id = c.id"
            " WHERE e.environment = ? ORDER BY c.project, c.name",
            (environment,),
        )
    ]


def certificate_der(db: sqlite3.Connection, project: str, name: str, environment: str) -> tuple[str, bytes]:
    """(id, DER) of a certificate deployed to ``environment``: what a JWK is made from."""
    row = _row(db, project, name)
    if environment not in _environments(db, row["id"]):
        raise BadRequestError(f"Certificate (name: {name}) is not deployed to environment ({environment})!")
    return row["id"], bytes(row["der"])


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's certificates for ``/_emulator/state`` (public material only: answered whole)."""
    return list_certificates(db, project)
