"""The pydantic model of ``Certificate`` inputs, named lazily by its provider (see _proxy_inputs), and
the reading of a certificate's bytes (PEM or DER) that check, create and update share.

The provider has no X.509 parser (``cryptography`` is the emulator's, not the provider's): offline it
reads what the form needs, the first ``CERTIFICATE`` block of a PEM text or a DER file's bytes, and
the gateway judges the certificate itself (a bad one, or an expired one, is its 400).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
import zipfile

from pydantic import Field, field_validator, model_validator

from apinizer_pulumi.models import ApiModel, CertificateSpec, Name, ReferencedJwkUpdateScope
from apinizer_pulumi.models._base import field_errors
from apinizer_pulumi.models._keystore import environment_names_problem

from ._files import read_file

_PEM_BLOCK = re.compile(rb"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", re.DOTALL)
#: Every X.509 certificate in DER is one ASN.1 SEQUENCE: its first byte.
_SEQUENCE = 0x30


def certificate_der(content: bytes, where: str) -> bytes:
    """The DER bytes of the first certificate of ``content`` (a PEM text or a DER file); a
    ``ValueError`` that names ``where`` and what is wrong otherwise."""
    if not content.strip():
        raise ValueError(f"{where} is empty: give a PEM or DER certificate")
    if b"-----BEGIN" in content:
        block = _PEM_BLOCK.search(content)
        if block is None:
            raise ValueError(f"{where} is PEM but holds no -----BEGIN CERTIFICATE----- ... "
                             "-----END CERTIFICATE----- block")
        try:
            der = base64.b64decode(b"".join(block[1].split()), validate=True)
        except binascii.Error:
            raise ValueError(f"{where}: its CERTIFICATE block is not base64") from None
    else:
        der = content
    if not der or der[0] != _SEQUENCE:
        raise ValueError(f"{where} is neither a PEM certificate (-----BEGIN CERTIFICATE-----) nor a DER "
                         "one (an X.509 certificate in DER starts with an ASN.1 SEQUENCE, byte 0x30)")
    return der


def pem_of(der: bytes) -> bytes:
    """``der`` as one PEM block (64 characters a line), what the create page asks to upload."""
    text = base64.b64encode(der).decode()
    lines = [text[start:start + 64] for start in range(0, len(text), 64)]
    return ("-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n").encode()


def sha256_of(der: bytes) -> str:
    """What the state records of a certificate's content: the sha256 of its DER, hex. A PEM text and
    a DER file of one certificate have the same."""
    return hashlib.sha256(der).hexdigest()


def exported_pem(archive: bytes, name: str, environment_name: str | None = None) -> bytes:
    """The PEM of one certificate of an export's ZIP (``<name>-<environment>.cer``, DER each):
    ``environment_name``'s, or by default the first file's; a ``ValueError`` naming what it holds
    when there is no such file."""
    with zipfile.ZipFile(io.BytesIO(archive)) as files:
        names = files.namelist()
        wanted = f"{name}-{environment_name}.cer" if environment_name is not None else None
        chosen = wanted if wanted is not None else (names[0] if names else None)
        if chosen is None or chosen not in names:
            raise ValueError(f"the export of certificate {name!r} holds no {wanted or 'file'} "
                             f"(it holds: {', '.join(names) or 'nothing'})")
        return pem_of(certificate_der(files.read(chosen), chosen))


class CertificateInputs(ApiModel):
    """One certificate under one alias, deployed to ``environment_names``; its content is exactly one
    of ``pem`` (text) or ``file`` (a path, PEM or DER), read offline as far as
    :func:`certificate_der` goes."""

    project_name: Name
    name: Name
    alias: Name
    description: str = ""
    environment_names: list[Name]
    pem: str | None = Field(default=None, repr=False)
    file: str | None = None
    update_referenced_jwks: ReferencedJwkUpdateScope | None = None
    adopt: bool = False

    @field_validator("environment_names")
    @classmethod
    def _each_environment_once(cls, names: list[str]) -> list[str]:
        problem = environment_names_problem(names)
        if problem is not None:
            raise ValueError(problem)
        return names

    @field_validator("pem")
    @classmethod
    def _pem_holds_a_certificate(cls, pem: str | None) -> str | None:
        if pem is not None:
            certificate_der(pem.encode("utf-8"), "pem")
        return pem

    @field_validator("file")
    @classmethod
    def _file_holds_a_certificate(cls, file: str | None) -> str | None:
        if file is not None:
            certificate_der(read_file(file, "file"), f"file {file!r}")
        return file

    @model_validator(mode="after")
    def _exactly_one_source(self) -> CertificateInputs:
        if self.pem is None and self.file is None:
            raise field_errors(type(self).__name__, [("pem", "give the certificate as pem (its PEM text) "
                                                              "or file (a path to a PEM or DER file)", None)])
        if self.pem is not None and self.file is not None:
            raise field_errors(type(self).__name__, [("file", "give either pem or file, not both", None)])
        return self

    def der(self) -> bytes:
        """The certificate's DER bytes, from ``pem`` or read from ``file`` now."""
        if self.pem is not None:
            return certificate_der(self.pem.encode("utf-8"), "pem")
        assert self.file is not None
        return certificate_der(read_file(self.file, "file"), f"file {self.file!r}")

    def spec(self, der: bytes) -> CertificateSpec:
        """The create and update form, the certificate sent as PEM whatever it was given as."""
        return CertificateSpec(certificate_name=self.name, alias=self.alias,
                               certificate_description=self.description,
                               environment_list=list(self.environment_names), pem_encoded_file=pem_of(der))
