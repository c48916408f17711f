"""The partners' certificate authority and one partner's client certificate, made by the program.

Pulumi runs the program on every `preview`, `up` and `refresh`, so what it makes must come out the same
each time, or every run would show a new certificate. Both keys are therefore derived from a secret of the
stack (`caKeySeed`) and the key generation (`keyGeneration`): EC P-256 keys derived from a hash of the two,
deterministic ECDSA signatures (RFC 6979), fixed validity dates and a serial number from the same hash.
A new generation is a new CA and a new client certificate; the seed never leaves the stack's secrets.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

#: Fixed, so that the same seed and generation give the same certificate on every run.
VALID_FROM = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
VALID_UNTIL = datetime.datetime(2036, 1, 1, tzinfo=datetime.UTC)
ORGANIZATION = "Example Payouts"


@dataclass(frozen=True)
class Issued:
    """A certificate and its private key, both PEM text."""

    certificate_pem: str
    private_key_pem: str


def _digest(seed: str, generation: int, role: str) -> bytes:
    return hashlib.sha256(f"{seed}\0{generation}\0{role}".encode()).digest()


def _key(seed: str, generation: int, role: str) -> ec.EllipticCurvePrivateKey:
    # A P-256 private value is any integer in [1, n-1]; a 256-bit hash reduced into that range is one.
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    value = int.from_bytes(_digest(seed, generation, role), "big") % (order - 1) + 1
    return ec.derive_private_key(value, ec.SECP256R1())


def _serial(seed: str, generation: int, role: str) -> int:
    # Positive and at most 20 octets (RFC 5280 4.1.2.2).
    return int.from_bytes(_digest(seed, generation, f"{role}/serial")[:16], "big") >> 1 | 1


def _name(common_name: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANIZATION),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


def _pem(certificate: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> Issued:
    return Issued(
        certificate_pem=certificate.public_bytes(serialization.Encoding.PEM).decode(),
        private_key_pem=key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode(),
    )


def certificate_authority(seed: str, generation: int) -> Issued:
    """The CA that issues the partners' client certificates (the gateway trusts what it signed)."""
    key = _key(seed, generation, "ca")
    name = _name(f"Partners CA {generation}")
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(_serial(seed, generation, "ca"))
        .not_valid_before(VALID_FROM)
        .not_valid_after(VALID_UNTIL)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return _pem(certificate, key)


def client_certificate(seed: str, generation: int, partner: str) -> Issued:
    """A partner's client certificate, issued by :func:`certificate_authority` of the same generation."""
    ca_key = _key(seed, generation, "ca")
    key = _key(seed, generation, f"client/{partner}")
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name(partner))
        .issuer_name(_name(f"Partners CA {generation}"))
        .public_key(key.public_key())
        .serial_number(_serial(seed, generation, f"client/{partner}"))
        .not_valid_before(VALID_FROM)
        .not_valid_after(VALID_UNTIL)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return _pem(certificate, key)
