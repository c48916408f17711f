"""A JWK's computed outputs from its read: what ``Jwk`` records and ``apinizer-pulumi generate`` writes.

Kept apart from ``jwk.py``, which imports the Pulumi SDK: generate writes a program's text and never
needs the SDK (docs/performance.md, "Import time").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apinizer_pulumi.models import Jwk as LiveJwk

#: JOSE's ``kty`` of each type (RFC 7518 spells the symmetric one ``oct``).
_KTY = {"RSA": "RSA", "EC": "EC", "OCT": "oct", "OKP": "OKP"}
#: The members a JWK may publish (RFC 7518 6.2.1, 6.3.1; RFC 8037 2); every other member is private.
_PUBLIC_MEMBERS = ("n", "e", "crv", "x", "y")


def key_parts(live: LiveJwk) -> dict[str, Any]:
    """The computed outputs of a JWK read with its key material (get): its id, type and source, its
    public part as a JWK (None for a symmetric key, which has none) and its private part as a JWK
    (None where the gateway answers no private member)."""
    kind = live.type.value if live.type is not None else None
    part = getattr(live, kind.lower()) if kind is not None else None
    members: dict[str, Any] = part.model_dump(exclude_none=True) if part is not None else {}
    head = {"kty": _KTY[kind], **({"kid": live.kid} if live.kid else {})} if kind is not None else {}
    public = {**head, **{name: value for name, value in members.items() if name in _PUBLIC_MEMBERS}}
    private = any(name not in _PUBLIC_MEMBERS for name in members)
    return {
        "jwk_id": live.id,
        "kid": live.kid,
        "key_type": kind,
        "source_type": live.source_type.value if live.source_type is not None else None,
        "public_jwk": public if kind not in (None, "OCT") and members else None,
        "private_jwk": {**head, **members} if private else None,
    }
