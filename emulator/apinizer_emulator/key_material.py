"""Key material as the gateway reads it: certificates, keys, keystores and JWKs.

The one door through which the keys and secrets families (:mod:`certificates`, :mod:`crypto_keys`,
:mod:`keystores`, :mod:`jwks`) read what a user uploads: pure functions over bytes and text, no
store. Everything is parsed by well-kept libraries: certificates and keys by ``cryptography``
(PEM or DER), PKCS#12 keystores by ``cryptography`` too, JKS keystores by ``pyjks`` (the one JKS
reader for Python; the format has been frozen since Java 9 made PKCS#12 the default), JWKs and JWK
Sets by ``joserfc``. They are imported inside the functions: the emulator's start-up pays for them
only when a key is read.

A refusal is a :class:`KeyMaterialError`, a 400 whose message names the field and what failed and
never quotes the material, a password or a library's message that could (a library's message is
kept only where it describes the format). The product's pages:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/index.md
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from .errors import BadRequestError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes, PublicKeyTypes

#: Largest JWK, JWK Set or key text read (a JWK Set of a hundred 4096-bit keys is ~100 KB).
MAX_JWK_TEXT = 1 << 20
#: The shortest oct key read, in bits (NIST SP 800-131A; joserfc warns below it).
MIN_OCT_BITS = 112
#: Largest certificate file read (a certificate is a few KB; a PEM chain of hundreds, well under this).
MAX_CERTIFICATE_BYTES = 1 << 20
#: The most rounds of key derivation a keystore may ask for. OpenSSL writes 2048, Java 10,000,
#: OWASP's advice for PBKDF2 is 600,000; the libraries derive as many as the file says (10 million
#: held a CPU for 2 s, 2**31 - 1 would hold it for minutes), so the file's counts are read first.
MAX_KEY_DERIVATION_ITERATIONS = 1_000_000
#: How deep :func:`derivation_iterations` reads DER (a PKCS#12 file nests about 12 levels).
_MAX_DER_DEPTH = 32
#: A JKS file opens with 0xFEEDFEED; a JCEKS file, which pyjks opens too, with 0xCECECECE.
_JKS_MAGIC, _JCEKS_MAGIC = bytes.fromhex("feedfeed"), bytes.fromhex("cececece")


class KeyMaterialError(BadRequestError):
    """Uploaded key material that cannot be used; the message says which field and why."""


# -- certificates ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certificate:
    """An X.509 certificate, read: its DER bytes and what the pages answer of it."""

    der: bytes
    start: datetime
    end: datetime
    sha1_thumbprint: str
    subject_dn: str

    def expired(self, now: datetime) -> bool:
        return now > self.end

    def iso(self, when: datetime) -> str:
        """The pages' format: ``2024-01-01T00:00:00.000Z``."""
        return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


_PEM_CERTIFICATE = re.compile(rb"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", re.DOTALL)


def parse_certificate(content: bytes, field: str) -> Certificate:
    """The first certificate of ``content``: PEM (its first ``CERTIFICATE`` block) or DER."""
    from cryptography import x509

    if not content.strip():
        raise KeyMaterialError(f"{field} value can not be empty!")
    pem = _PEM_CERTIFICATE.search(content)
    try:
        if pem:
            parsed = x509.load_pem_x509_certificate(pem.group(0))
        else:
            parsed = x509.load_der_x509_certificate(content)
    except ValueError:
        shape = "its CERTIFICATE block" if pem else "it is neither a PEM nor a DER X.509 certificate"
        raise KeyMaterialError(f"{field} is not a valid X.509 certificate: {shape} cannot be read") from None
    return certificate_of(parsed)


def certificate_of_der(der: bytes) -> Certificate:
    """A stored certificate (DER, read before it was stored) read again."""
    from cryptography import x509

    return certificate_of(x509.load_der_x509_certificate(der))


def certificate_of(parsed: Any) -> Certificate:
    """A :class:`Certificate` of a ``cryptography`` certificate object."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.serialization import Encoding

    # Java's DN order and separator (CN first, ", "), as the pages show it.
    subject = ", ".join(
        attribute.rfc4514_string() for rdn in reversed(list(parsed.subject.rdns)) for attribute in rdn
    )
    return Certificate(
        der=parsed.public_bytes(Encoding.DER),
        start=parsed.not_valid_before_utc,
        end=parsed.not_valid_after_utc,
        sha1_thumbprint=parsed.fingerprint(hashes.SHA1()).hex().upper(),
        subject_dn=subject,
    )


def certificate_public_key(der: bytes) -> PublicKeyTypes:
    from cryptography import x509

    return x509.load_der_x509_certificate(der).public_key()


# -- keys -----------------------------------------------------------------------------------------

def _key_bytes(value: str, field: str) -> tuple[bytes, bool]:
    """(bytes, is PEM) of a key written as PEM text or as base64 of DER (the pages' "base64-encoded")."""
    text = value.strip()
    if text.startswith("-----BEGIN "):
        return text.encode(), True
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise KeyMaterialError(f"{field} is neither PEM nor base64-encoded DER") from None
    if raw.lstrip().startswith(b"-----BEGIN "):
        return raw, True
    return raw, False


def key_type_of(key: PublicKeyTypes | PrivateKeyTypes) -> str:
    """``RSA``, ``EC`` or ``OKP`` (Ed25519, X25519 and their 448 kin); another kind is refused."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa, x448, x25519

    if isinstance(key, rsa.RSAPublicKey | rsa.RSAPrivateKey):
        return "RSA"
    if isinstance(key, ec.EllipticCurvePublicKey | ec.EllipticCurvePrivateKey):
        return "EC"
    okp = (
        ed25519.Ed25519PublicKey, ed25519.Ed25519PrivateKey, x25519.X25519PublicKey,
        x25519.X25519PrivateKey, ed448.Ed448PublicKey, ed448.Ed448PrivateKey,
        x448.X448PublicKey, x448.X448PrivateKey,
    )
    if isinstance(key, okp):
        return "OKP"
    raise KeyMaterialError(f"a {type(key).__name__} key is of no JWK type (RSA, EC or OKP)")


def parse_public_key(value: str, field: str) -> PublicKeyTypes:
    """A public key: SubjectPublicKeyInfo (or PKCS#1 RSA) in PEM or base64 DER."""
    from cryptography.hazmat.primitives import serialization

    raw, is_pem = _key_bytes(value, field)
    try:
        if is_pem:
            return serialization.load_pem_public_key(raw)
        return serialization.load_der_public_key(raw)
    except (ValueError, TypeError):
        raise KeyMaterialError(f"{field} is not a valid public key") from None
    except Exception as exc:  # an unsupported algorithm is a library-specific exception class
        raise KeyMaterialError(f"{field} is not a supported public key ({type(exc).__name__})") from None


def parse_private_key(value: str, field: str, *, stored: bool = False) -> PrivateKeyTypes:
    """An unencrypted private key: PKCS#8 (or the traditional RSA/EC form) in PEM or base64 DER.

    ``stored``: a key read again from the store, checked whole when it was written; its RSA
    consistency check (a fifth of a second for a 2048-bit key) is not repeated.
    """
    from cryptography.hazmat.primitives import serialization

    raw, is_pem = _key_bytes(value, field)
    load = serialization.load_pem_private_key if is_pem else serialization.load_der_private_key
    try:
        return load(raw, password=None, unsafe_skip_rsa_key_validation=stored)
    except TypeError:
        raise KeyMaterialError(f"{field} is encrypted: give it unencrypted (PKCS#8)") from None
    except ValueError:
        raise KeyMaterialError(f"{field} is not a valid private key") from None
    except Exception as exc:
        raise KeyMaterialError(f"{field} is not a supported private key ({type(exc).__name__})") from None


def public_der(key: PublicKeyTypes | PrivateKeyTypes) -> bytes:
    """The SubjectPublicKeyInfo DER of a key, or of a private key's public half."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    # Typed loosely: the union of every key class cryptography has is wider than what is read here.
    loose: Any = key
    public = loose.public_key() if hasattr(key, "private_bytes") else loose
    der: bytes = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return der


def private_der(key: PrivateKeyTypes) -> bytes:
    """The unencrypted PKCS#8 DER of a private key."""
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    return key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())


def load_private_der(der: bytes) -> PrivateKeyTypes:
    """A stored PKCS#8 key (read whole when its keystore was uploaded), without the RSA check again."""
    from cryptography.hazmat.primitives import serialization

    return serialization.load_der_private_key(der, password=None, unsafe_skip_rsa_key_validation=True)


# -- keystores ------------------------------------------------------------------------------------

KEYSTORE_TYPES = ("JKS", "PKCS12")


@dataclass(frozen=True)
class KeystoreEntry:
    """One alias of a keystore: its private key (PKCS#8 DER) if any, and its certificate (DER)."""

    private_key: bytes | None
    certificate: bytes | None


def read_keystore(content: bytes, kind: str, password: str, field: str) -> dict[str, KeystoreEntry]:
    """The aliases of a ``JKS`` or ``PKCS12`` keystore opened with ``password``."""
    if not content:
        raise KeyMaterialError(f"{field} value can not be empty!")
    if kind == "PKCS12":
        return _read_pkcs12(content, password, field)
    if kind == "JKS":
        return _read_jks(content, password, field)
    raise KeyMaterialError(f"{field}: keystore type ({kind}) is not one of {', '.join(KEYSTORE_TYPES)}")


class _UnreadableDerError(ValueError):
    pass


def _walk_der(data: bytes, at: int, end: int | None, depth: int, counts: list[int]) -> int:
    """Read the DER elements of ``data`` from ``at`` to ``end`` (to an end-of-contents marker when
    ``end`` is None: BER's indefinite length) once, each byte once, adding to ``counts`` every
    INTEGER that follows an OCTET STRING in one constructed element; where they stop."""
    if depth > _MAX_DER_DEPTH:
        raise _UnreadableDerError("nested too deep")
    previous = None
    while end is None or at < end:
        if at + 2 > len(data):
            raise _UnreadableDerError("cut short")
        tag, length = data[at], data[at + 1]
        if end is None and tag == 0 and length == 0:
            return at + 2
        if tag & 0x1F == 0x1F:
            raise _UnreadableDerError("high tag numbers are not read")
        at += 2
        if length == 0x80:  # indefinite: constructed, up to its end-of-contents marker
            start, at = at, _walk_der(data, at, None, depth + 1, counts)
            stop = at - 2
        else:
            if length & 0x80:
                size = length & 0x7F
                if size > 4 or at + size > len(data):
                    raise _UnreadableDerError("bad length")
                length, at = int.from_bytes(data[at:at + size], "big"), at + size
            start, stop = at, at + length
            if stop > (len(data) if end is None else end):
                raise _UnreadableDerError("cut short")
            if tag & 0x20:
                _walk_der(data, start, stop, depth + 1, counts)
            elif tag == 0x04:  # an OCTET STRING may hold DER (a PKCS#12 file's parts do)
                held: list[int] = []
                try:
                    _walk_der(data, start, stop, depth + 1, held)
                    counts += held
                except _UnreadableDerError:
                    pass
            at = stop
        if previous is not None and previous & 0xDF == 0x04 and tag == 0x02:
            counts.append(int.from_bytes(data[start:stop], "big", signed=True))
        previous = tag
    return at


def derivation_iterations(data: bytes) -> list[int]:
    """The iteration counts of key derivation that DER ``data`` shows in clear: in a PKCS#12 file,
    its MAC's and those of each encrypted part and of each shrouded key outside one. Each is the
    INTEGER that follows a salt's OCTET STRING in one SEQUENCE (RFC 7292's ``MacData`` and
    ``pkcs-12PbeParams``, RFC 8018's ``PBEParameter`` and ``PBKDF2-params``). What cannot be read
    as DER is left to the library that opens the file, which refuses it."""
    counts: list[int] = []
    with contextlib.suppress(_UnreadableDerError):
        _walk_der(data, 0, len(data), 0, counts)
    return counts


def _check_iterations(content: bytes, field: str) -> None:
    for count in derivation_iterations(content):
        if count > MAX_KEY_DERIVATION_ITERATIONS:
            raise KeyMaterialError(
                f"{field} asks for {count} iterations of key derivation:"
                f" at most {MAX_KEY_DERIVATION_ITERATIONS} are read"
            )


def _read_pkcs12(content: bytes, password: str, field: str) -> dict[str, KeystoreEntry]:
    from cryptography.hazmat.primitives.serialization import Encoding, pkcs12

    _check_iterations(content, field)
    try:
        bundle = pkcs12.load_pkcs12(content, password.encode() or None)
    except ValueError:
        raise KeyMaterialError(
            f"{field} cannot be opened: it is not a PKCS12 keystore or the password is wrong"
        ) from None
    entries: dict[str, KeystoreEntry] = {}
    if bundle.cert is not None or bundle.key is not None:
        certificate = bundle.cert.certificate if bundle.cert is not None else None
        alias = _alias(bundle.cert.friendly_name if bundle.cert is not None else None, "1")
        entries[alias] = KeystoreEntry(
            private_key=private_der(bundle.key) if bundle.key is not None else None,
            certificate=certificate.public_bytes(Encoding.DER) if certificate is not None else None,
        )
    for index, extra in enumerate(bundle.additional_certs, start=2):
        alias = _alias(extra.friendly_name, str(index))
        entries.setdefault(alias, KeystoreEntry(None, extra.certificate.public_bytes(Encoding.DER)))
    return entries


def _alias(name: bytes | None, fallback: str) -> str:
    return name.decode("utf-8", "replace") if name else fallback


def _read_jks(content: bytes, password: str, field: str) -> dict[str, KeystoreEntry]:
    import jks
    from cryptography.hazmat.primitives import serialization

    refused = f"{field} cannot be opened: it is not a JKS keystore or the password is wrong"
    # pyjks opens JCEKS too, deriving each sealed key with the file's iteration count in pure
    # Python: the type is read off the magic number before anything is opened.
    if content[:4] == _JCEKS_MAGIC:
        raise KeyMaterialError(f"{field} is a JCEKS keystore, not a JKS keystore")
    if content[:4] != _JKS_MAGIC:
        raise KeyMaterialError(f"{field} is not a valid JKS keystore")
    try:
        store = jks.KeyStore.loads(content, password)
    except jks.util.KeystoreSignatureException:
        raise KeyMaterialError(refused) from None
    except Exception:  # pyjks raises what its parser meets (struct, ASN.1, its own errors)
        raise KeyMaterialError(f"{field} is not a valid JKS keystore") from None
    if store.store_type != "jks":
        raise KeyMaterialError(f"{field} is a {store.store_type.upper()} keystore, not a JKS keystore")
    entries: dict[str, KeystoreEntry] = {}
    for alias, entry in store.private_keys.items():
        if not entry.is_decrypted():
            try:
                entry.decrypt(password)
            except Exception:
                raise KeyMaterialError(
                    f"{field}: the key of alias ({alias}) cannot be opened with the keystore's password"
                ) from None
        certificate = entry.cert_chain[0][1] if entry.cert_chain else None
        private_key = bytes(entry.pkey_pkcs8)
        try:  # read whole once here, as PKCS#12 keys are by cryptography: later reads skip the check
            serialization.load_der_private_key(private_key, password=None)
        except Exception:
            raise KeyMaterialError(
                f"{field}: the key of alias ({alias}) is not a valid private key"
            ) from None
        entries[alias] = KeystoreEntry(private_key=private_key, certificate=certificate)
    for alias, trusted in store.certs.items():
        entries[alias] = KeystoreEntry(private_key=None, certificate=bytes(trusted.cert))
    return entries


# -- JWKs -----------------------------------------------------------------------------------------

JWK_TYPES = ("RSA", "EC", "OCT", "OKP")
USE_TYPES = ("SIGNATURE", "ENCRYPTION")
_ECDH = (
    "ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW",
    "ECDH-1PU", "ECDH-1PU+A128KW", "ECDH-1PU+A192KW", "ECDH-1PU+A256KW",
)
#: The create page's algorithms per (key type, use type).
ALGORITHMS: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("RSA", "SIGNATURE"): ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"),
    ("RSA", "ENCRYPTION"): ("RSA1_5", "RSA-OAEP", "RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512"),
    ("EC", "SIGNATURE"): ("ES256", "ES384", "ES512", "ES256K"),
    ("EC", "ENCRYPTION"): _ECDH,
    ("OCT", "SIGNATURE"): ("HS256", "HS384", "HS512"),
    ("OCT", "ENCRYPTION"): (
        "A128KW", "A192KW", "A256KW", "A128GCMKW", "A192GCMKW", "A256GCMKW", "DIR",
        "PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW",
    ),
    ("OKP", "SIGNATURE"): ("EdDSA",),
    ("OKP", "ENCRYPTION"): _ECDH,
}
#: The generate page's names of the same algorithms (``RSA256``, ``ECDH_ES_A128KW``...).
GENERATE_ALGORITHMS: Mapping[str, str] = {
    "RSA256": "RS256", "RSA384": "RS384", "RSA512": "RS512",
    "RSA_OAEP": "RSA-OAEP", "RSA_OAEP_256": "RSA-OAEP-256", "RSA_OAEP_384": "RSA-OAEP-384",
    "RSA_OAEP_512": "RSA-OAEP-512",
    **{name.replace("-", "_").replace("+", "_"): name for name in (*_ECDH, "PBES2-HS256+A128KW",
       "PBES2-HS384+A192KW", "PBES2-HS512+A256KW")},
}
_USE = {"SIGNATURE": "sig", "ENCRYPTION": "enc"}
#: The JWK members that are private (RFC 7518 section 6, RFC 8037): never in ``/_emulator/state``.
PRIVATE_MEMBERS = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth", "k"})


def check_algorithm(key_type: str, use_type: str, algorithm: str, field: str = "algorithm") -> str:
    """``algorithm`` as JOSE names it, if it fits the key type and use (the create page's table)."""
    if use_type not in USE_TYPES:
        raise KeyMaterialError(f"useType ({use_type}) is not one of {', '.join(USE_TYPES)}")
    name = "dir" if algorithm == "DIR" else GENERATE_ALGORITHMS.get(algorithm, algorithm)
    allowed = ALGORITHMS[(key_type, use_type)]
    if name not in allowed and not (name == "dir" and "DIR" in allowed):
        raise KeyMaterialError(
            f"{field} ({algorithm}) does not fit a key of type {key_type} for {use_type}:"
            f" use one of {', '.join(allowed)}"
        )
    return name


def jwk_type(jwk: Mapping[str, Any]) -> str:
    return "OCT" if jwk.get("kty") == "oct" else str(jwk.get("kty"))


def _imported(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``data`` checked as a JWK by joserfc (members, curve, key sizes); its members as given."""
    from joserfc.errors import JoseError
    from joserfc.jwk import JWKRegistry

    if data.get("kty") not in ("RSA", "EC", "oct", "OKP"):
        raise KeyMaterialError(f"{where}: kty ({data.get('kty')}) is not one of RSA, EC, oct, OKP")
    if data.get("kty") == "oct":
        _check_oct_size(data.get("k"), where)
    try:
        JWKRegistry.import_key(dict(data))
    except (JoseError, ValueError, TypeError, KeyError, AttributeError):
        raise KeyMaterialError(f"{where} is not a valid {data.get('kty')} JWK") from None
    return dict(data)


def _check_oct_size(k: Any, where: str) -> None:
    """An oct key of fewer than 112 bits (NIST SP 800-131A) is refused here, as joserfc would only
    warn of it: a warning is an exception under some filters (a 500) and nothing under others."""
    if not isinstance(k, str):
        return  # joserfc names what is wrong with it
    try:
        size = len(base64.urlsafe_b64decode(k + "=" * (-len(k) % 4))) * 8
    except (binascii.Error, ValueError):
        return
    if 0 < size < MIN_OCT_BITS:
        raise KeyMaterialError(f"{where}: an oct key of {size} bits is too short: at least {MIN_OCT_BITS}")


def parse_jwk(text: str, kid: str | None, field: str) -> dict[str, Any]:
    """The JWK of ``text``, a JWK or a JWK Set; of a set, the key whose ``kid`` is ``kid``
    (required when the set holds more than one key)."""
    if not text.strip():
        raise KeyMaterialError(f"{field} value can not be empty!")
    if len(text) > MAX_JWK_TEXT:
        raise KeyMaterialError(f"{field} is larger than {MAX_JWK_TEXT} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise KeyMaterialError(f"{field} is not valid JSON") from None
    if not isinstance(data, dict):
        raise KeyMaterialError(f"{field} must be a JWK or a JWK Set (a JSON object)")
    if "keys" in data:
        keys = data["keys"]
        if not isinstance(keys, list) or not keys or not all(isinstance(k, dict) for k in keys):
            raise KeyMaterialError(f"{field} is a JWK Set whose keys is not a non-empty array of JWKs")
        if kid:
            chosen = [k for k in keys if k.get("kid") == kid]
            if not chosen:
                raise KeyMaterialError(f"JWK with kid ({kid}) is not found in the JWK Set of {field}!")
            return _imported(chosen[0], f"{field} (kid {kid})")
        if len(keys) > 1:
            raise KeyMaterialError(
                f"kid is required: the JWK Set of {field} holds {len(keys)} keys"
            )
        return _imported(keys[0], field)
    if kid and data.get("kid") not in (None, kid):
        raise KeyMaterialError(f"JWK with kid ({kid}) is not found in {field}!")
    jwk = _imported(data, field)
    if kid and "kid" not in jwk:
        jwk["kid"] = kid
    return jwk


def jwk_from_key(
    key: PublicKeyTypes | PrivateKeyTypes, use_type: str, algorithm: str, kid: str | None = None
) -> dict[str, Any]:
    """The JWK of a ``cryptography`` key (a private key's JWK has its private members too)."""
    from joserfc.jwk import ECKey, OKPKey, RSAKey

    kind = key_type_of(key)
    alg = check_algorithm(kind, use_type, algorithm)
    # joserfc takes cryptography's key objects as they are (no PEM round trip, no second key check).
    key_class: Any = {"RSA": RSAKey, "EC": ECKey, "OKP": OKPKey}[kind]
    imported = key_class.import_key(key)
    jwk: dict[str, Any] = dict(imported.as_dict(private=imported.is_private))
    _check_curve(kind, str(jwk.get("crv", "")), use_type, alg, "algorithm")
    jwk.update({"use": _USE[use_type], "alg": alg})
    jwk["kid"] = kid or imported.thumbprint()
    return jwk


#: The generate page's curves, as JOSE names them.
EC_CURVES = {"P256": "P-256", "P384": "P-384", "P521": "P-521", "SECP256K1": "secp256k1"}
OKP_CURVES: Mapping[str, Literal["Ed25519", "X25519"]] = {"ED25519": "Ed25519", "X25519": "X25519"}
RSA_SIZES = (2048, 3072, 4096)
OCT_SIZES = (128, 192, 256)
KEY_ID_TYPES = ("TIMESTAMP", "SHA256", "SHA1", "ISO_DATE", "NONE")
_DEFAULT_ALGORITHMS = {
    ("RSA", "SIGNATURE"): "RS256", ("RSA", "ENCRYPTION"): "RSA-OAEP-256",
    ("EC", "ENCRYPTION"): "ECDH-ES", ("OCT", "SIGNATURE"): "HS256", ("OCT", "ENCRYPTION"): "A256KW",
    ("OKP", "SIGNATURE"): "EdDSA", ("OKP", "ENCRYPTION"): "ECDH-ES",
}
_EC_SIGNATURE = {"P-256": "ES256", "P-384": "ES384", "P-521": "ES512", "secp256k1": "ES256K"}


def _check_curve(kind: str, curve: str, use_type: str, alg: str, field: str) -> None:
    """An ECDSA algorithm on its own curve (RFC 7518, RFC 8812); an Ed25519 or Ed448 key signs and an
    X25519 or X448 key agrees keys (RFC 8037)."""
    if kind == "EC" and use_type == "SIGNATURE" and _EC_SIGNATURE.get(curve, alg) != alg:
        raise KeyMaterialError(f"{field} ({alg}) is not for curve {curve}: {_EC_SIGNATURE[curve]} is")
    if kind == "OKP":
        signs = curve.startswith("Ed")
        if signs and use_type != "SIGNATURE":
            raise KeyMaterialError(f"an {curve} key signs: its useType is SIGNATURE")
        if not signs and use_type != "ENCRYPTION":
            raise KeyMaterialError(f"an {curve} key agrees keys: its useType is ENCRYPTION")


def _when(value: Any, field: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise KeyMaterialError(f"{field} must be an ISO 8601 date-time string")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise KeyMaterialError(f"{field} ({value}) is not an ISO 8601 date-time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def generate_jwk(kind: str, params: Mapping[str, Any], kid: str | None, now: datetime) -> dict[str, Any]:
    """A new key of ``kind`` (RSA, EC, OCT or OKP) by the generate page's parameters, as a JWK with
    its private members, ``use``, ``alg``, ``kid`` (given, or made by ``keyIdType``), ``iat``, ``nbf``
    and ``exp`` (one year after ``nbf`` unless given)."""
    from joserfc.jwk import ECKey, OctKey, OKPKey, RSAKey

    where = kind.lower()
    # keyUseType defaults to SIGNATURE, but the page's Example 7 generates an X25519 key "for key
    # exchange" with the curve alone: without a use, that curve's only use is meant.
    agrees_keys = kind == "OKP" and params.get("curveType") == "X25519"
    use_type = params.get("keyUseType") or ("ENCRYPTION" if agrees_keys else "SIGNATURE")
    if use_type not in USE_TYPES:
        raise KeyMaterialError(f"{where}.keyUseType ({use_type}) is not one of {', '.join(USE_TYPES)}")
    key: Any
    if kind == "RSA":
        size = params.get("keySize")
        if size not in RSA_SIZES:
            raise KeyMaterialError(f"rsa.keySize ({size}) is not one of {', '.join(map(str, RSA_SIZES))}")
        key = RSAKey.generate_key(size, private=True)
        default = _DEFAULT_ALGORITHMS[(kind, use_type)]
    elif kind == "EC":
        curve = EC_CURVES.get(str(params.get("curveType")))
        if curve is None:
            raise KeyMaterialError(
                f"ec.curveType ({params.get('curveType')}) is not one of {', '.join(EC_CURVES)}"
            )
        key = ECKey.generate_key(curve, private=True)
        default = _EC_SIGNATURE[curve] if use_type == "SIGNATURE" else "ECDH-ES"
    elif kind == "OCT":
        size = params.get("keySize")
        if size not in OCT_SIZES:
            raise KeyMaterialError(f"oct.keySize ({size}) is not one of {', '.join(map(str, OCT_SIZES))}")
        key = OctKey.generate_key(size, private=True)
        default = _DEFAULT_ALGORITHMS[(kind, use_type)]
    elif kind == "OKP":
        curve = OKP_CURVES.get(str(params.get("curveType")))
        if curve is None:
            raise KeyMaterialError(
                f"okp.curveType ({params.get('curveType')}) is not one of {', '.join(OKP_CURVES)}"
            )
        if (curve == "X25519") != (use_type == "ENCRYPTION"):
            raise KeyMaterialError(
                f"okp.curveType ({params.get('curveType')}) is not for {use_type}: "
                "ED25519 signs, X25519 encrypts"
            )
        key = OKPKey.generate_key(curve, private=True)
        default = _DEFAULT_ALGORITHMS[(kind, use_type)]
    else:
        raise KeyMaterialError(f"type ({kind}) is not one of {', '.join(JWK_TYPES)}")
    algorithm = params.get("algorithm")
    alg = check_algorithm(kind, use_type, algorithm, f"{where}.algorithm") if algorithm else default
    if kind == "EC" and use_type == "SIGNATURE" and alg != default:
        raise KeyMaterialError(
            f"{where}.algorithm ({algorithm}) is not for curve {params.get('curveType')}: {default} is"
        )
    not_before = _when(params.get("notBeforeTime"), f"{where}.notBeforeTime") or now
    expires = _when(params.get("expirationTime"), f"{where}.expirationTime")
    expires = expires or not_before + timedelta(days=365)
    if expires <= not_before:
        raise KeyMaterialError(f"{where}.expirationTime must be after notBeforeTime")
    jwk: dict[str, Any] = dict(key.as_dict(private=True))
    jwk.update({
        "use": _USE[use_type], "alg": alg, "iat": int(now.timestamp()),
        "nbf": int(not_before.timestamp()), "exp": int(expires.timestamp()),
    })
    key_id = kid or _key_id(str(params.get("keyIdType") or "TIMESTAMP"), key, now, where)
    if key_id is not None:
        jwk["kid"] = key_id
    return jwk


#: RFC 7638's members of a thumbprint, per key type.
_THUMBPRINT_MEMBERS = {
    "RSA": ("e", "kty", "n"), "EC": ("crv", "kty", "x", "y"), "oct": ("k", "kty"), "OKP": ("crv", "kty", "x"),
}


def _key_id(kind: str, key: Any, now: datetime, where: str) -> str | None:
    if kind == "TIMESTAMP":
        return str(int(now.timestamp() * 1000))
    if kind == "ISO_DATE":
        return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if kind == "SHA256":
        return str(key.thumbprint())
    if kind == "SHA1":
        public = key.as_dict(private=False)
        members = {name: public[name] for name in _THUMBPRINT_MEMBERS[public["kty"]]}
        digest = hashlib.sha1(json.dumps(members, separators=(",", ":"), sort_keys=True).encode())
        return base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()
    if kind == "NONE":
        return None
    raise KeyMaterialError(f"{where}.keyIdType ({kind}) is not one of {', '.join(KEY_ID_TYPES)}")


def public_jwk(jwk: Mapping[str, Any]) -> dict[str, Any]:
    """``jwk`` without its private members (an ``oct`` key is all secret: only its metadata stays)."""
    return {name: value for name, value in jwk.items() if name not in PRIVATE_MEMBERS}
