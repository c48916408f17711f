"""Certificates for ``apinizer-pulumi generate``: read them, write their PEM files and ``Certificate``s.

The list answers a certificate's name, description, environments and alias but not its content; the
export operation does (a ZIP of DER files, one per environment). So each certificate costs one export,
and its PEM is written to a file beside the generated program, ``certificates/<resource name>.pem``,
which the declaration names with ``file=``. A file, not the stack's config: a certificate is public
(no ``--secret`` value to keep), a PEM block is many lines that a config value holds badly, and a
file is what a reviewer diffs when the certificate is renewed.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/export-certificate.md
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from apinizer_pulumi.client import ApinizerClient

from ._lines import adopted_end, declaration_head, every, slug
from ._snapshot import listed_or_none

#: The folder, beside the program, that holds the certificates' PEM files.
FOLDER = "certificates"

_NOTE = f"""\
# Certificates, each taken over as it is (adopt=True). The API answers a certificate's content only
# through its export: each is in {FOLDER}/ beside this program, as PEM."""


@dataclasses.dataclass(frozen=True)
class CertificateRecord:
    """One certificate as ``Certificate(..., adopt=True)`` declares it, with its exported PEM."""

    project: str
    name: str
    alias: str
    description: str | None
    environments: tuple[str, ...]
    pem: bytes = dataclasses.field(repr=False)

    @property
    def resource_name(self) -> str:
        """``certificate-demo-ca`` for the certificate ca of project Demo."""
        return slug("certificate", self.project, self.name)

    @property
    def file(self) -> str:
        """The PEM file's path, relative to the program's folder."""
        return f"{FOLDER}/{self.resource_name}.pem"


def read_certificates(client: ApinizerClient, project: str,
                      progress: Callable[[str], None] = lambda _line: None,
                      *, unread: set[str] | None = None) -> list[CertificateRecord]:
    """The project's certificates: one list, and one export per certificate; none where the account
    may not read them (401, 403) or the gateway has no such list (404), which ``progress`` reports."""
    from apinizer_pulumi.resources._certificate_inputs import exported_pem

    records = []
    for item in listed_or_none(lambda: client.certificates.list(project), f"certificates of {project}",
                               progress, unread, "Certificate") or []:
        environments = item.certificate_environment_list
        if not environments:
            continue  # deployed nowhere: a Certificate names at least one environment
        pem = exported_pem(client.certificates.export(project, item.name), item.name,
                           environments[0].environment_name)
        records.append(CertificateRecord(
            project, item.name, environments[0].alias or item.name, item.description or None,
            tuple(each.environment_name for each in environments), pem))
    if records:
        progress(f"certificates of {project}: {len(records)}")
    return records


def write_certificate_files(records: Sequence[CertificateRecord], program_folder: Path) -> list[Path]:
    """Write each certificate's PEM beside the program (:attr:`CertificateRecord.file`); the paths written."""
    written = []
    for record in records:
        path = program_folder / record.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(record.pem)
        written.append(path)
    return written


def certificate_section(records: Sequence[CertificateRecord], *, indent: str, retain_option: str | None,
                        literal: Callable[[str], str]) -> list[str]:
    """The ``Certificate`` declarations, each with ``adopt=True``; empty when there are none."""
    if not records:
        return []
    out = ["", _NOTE, *every("certificate", "certificates", "Certificate")]
    for record in records:
        name = record.resource_name
        out += [*declaration_head("Certificate", name, record.project, record.name,
                                  literal=literal, indent=indent),
                f"{indent}alias={literal(record.alias)},"]
        if record.description is not None:
            out.append(f"{indent}description={literal(record.description)},")
        environments = ", ".join(literal(environment) for environment in record.environments)
        out += [f"{indent}environment_names=[{environments}],", f"{indent}file={json.dumps(record.file)},",
                *adopted_end(retain_option, indent=indent)]
    out.append("}")
    return out
