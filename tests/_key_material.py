"""Real key material for tests, made with ``cryptography`` (and ``pyjks`` for JKS files): a CA, the
certificates it signs (valid or expired), keys, PKCS#12 and JKS keystores, JWKs."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import jks
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

NOW = datetime.now(UTC)


@dataclass(frozen=True)
class Issued:
    key: Any
    certificate: x509.Certificate

    @property
    def pem(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.PEM)

    @property
    def der(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.DER)

    def private_pem(self) -> str:
        return self.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()

    def private_b64(self) -> str:
        der = self.key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        return base64.b64encode(der).decode()

    def public_b64(self) -> str:
        der = self.key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return base64.b64encode(der).decode()


def _name(common_name: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Example Inc"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


def rsa_key(size: int = 2048) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=size)


def ec_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def issue(
    common_name: str,
    *,
    issuer: Issued | None = None,
    key: Any = None,
    not_before: datetime | None = None,
    not_after: datetime | None = None,
    ca: bool = False,
) -> Issued:
    """A certificate for ``common_name``, signed by ``issuer`` (self-signed without one)."""
    key = key or ec_key()
    start = not_before or NOW - timedelta(days=1)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(common_name))
        .issuer_name(issuer.certificate.subject if issuer else _name(common_name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(not_after or start + timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    signer = issuer.key if issuer else key
    return Issued(key, builder.sign(signer, hashes.SHA256()))


def ca() -> Issued:
    return issue("Example CA", ca=True)


def expired(issuer: Issued) -> Issued:
    return issue("old.example.com", issuer=issuer, not_before=NOW - timedelta(days=400),
                 not_after=NOW - timedelta(days=35))


def pkcs12_file(issued: Issued, alias: str, password: str) -> bytes:
    encryption = (
        serialization.BestAvailableEncryption(password.encode()) if password else serialization.NoEncryption()
    )
    return pkcs12.serialize_key_and_certificates(
        alias.encode(), issued.key, issued.certificate, None, encryption
    )


def jks_file(issued: Issued, alias: str, password: str, trusted: dict[str, Issued] | None = None) -> bytes:
    private = issued.key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    entries: list[Any] = [jks.PrivateKeyEntry.new(alias, [issued.der], private, "pkcs8")]
    for name, cert in (trusted or {}).items():
        entries.append(jks.TrustedCertEntry.new(name, cert.der))
    store = jks.KeyStore.new("jks", entries)
    data: bytes = store.saves(password)
    return data


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
