"""Policy settings that name another object of the gateway, given that object's resource itself.

A policy names JWKs, crypto keys and certificates by id and keystores and certificates by name (the
type pages: 02-api-reference/05-policies/policies/policy-jose-validation.md, policy-encryption.md,
policy-api-call.md, policy-saml-validation.md, policy-ws-security-*.md). Each such field of the typed
settings (``apinizer_pulumi.policies``) takes an id or name (a string or an ``Output``), or the
resource that makes the object: ``jwk_id_for_validation_and_sign=jwk`` is ``jwk.jwk_id``. Given a
resource, the program checks its kind before anything is sent: a ``Certificate`` given to a JWK
field stops the program with one line naming the field and the kinds it takes. An id string cannot
be checked offline (the gateway's ids do not say their kind); the gateway refuses one that names
nothing of its kind (docs/resources/policy.md, "Key material and connections in policies").

Either way the id or name reaches the policy as an ``Output`` of the resource, so Pulumi creates
the object before the policy and destroys the policy before the object. No documented policy field
names a connection (06-connections).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

#: Per settings field (snake_case, at any depth of a policy's settings): the resource kind it names
#: and the output of that resource that holds what the field takes (its id, or its name).
REFERENCE_FIELDS: Mapping[str, tuple[str, str]] = {
    "jwk_id_for_validation_and_sign": ("Jwk", "jwk_id"),
    "jwk_id_for_decryption_and_encryption": ("Jwk", "jwk_id"),
    "crypto_key_info_id": ("CryptoKey", "crypto_key_id"),
    "certificate_id": ("Certificate", "certificate_id"),
    "certificate_name": ("Certificate", "name"),
    **{field: ("Keystore", "name") for field in (
        "key_store_name", "dec_key_store_name", "enc_key_store_name", "sig_key_store_name",
        "ver_key_store_name")},
}


def resource_kind(value: Any) -> str | None:
    """The kind of an ``apinizer`` resource (``Jwk``), or None for anything that is not a resource."""
    import pulumi

    if not isinstance(value, pulumi.Resource):
        return None
    type_name = getattr(type(value), "_resource_type_name", None)  # dynamic/apinizer:<Kind>
    if isinstance(type_name, str) and type_name.startswith("dynamic/apinizer:"):
        return type_name.rsplit(":", 1)[-1]
    return type(value).__name__


def _resolved_field(where: str, field: str, value: Any) -> Any:
    if field not in REFERENCE_FIELDS:
        return resolve_references(value, f"{where}.{field}")
    wanted, output = REFERENCE_FIELDS[field]
    return referenced(value, f"{where}.{field}", wanted, output)


def referenced(value: Any, where: str, wanted: str, output: str) -> Any:
    """``value`` as a field that names a ``wanted`` object takes it: an id or name (or an Output of one)
    as it is, a ``wanted`` resource as its ``output``; a resource of another kind stops the program
    with one line naming ``where`` and both kinds."""
    kind = resource_kind(value)
    if kind is None:
        return value  # an id or a name, or an Output of one
    if kind != wanted:
        from ._args import ArgumentError

        raise ArgumentError(
            f"{where}: given the {kind} resource {value._name!r}, but it names a {wanted}: give an "
            f"apinizer.{wanted} (its {output} is used) or the {wanted}'s {output}")
    return getattr(value, output)


def resolve_references(settings: Any, where: str) -> Any:
    """``settings`` (a settings class, a dict, or lists of them) with each resource given to a reference
    field replaced by the output that the field takes; ``where`` names the settings in messages
    (``apinizer.policies.Encryption``), each nested field's path added to it."""
    if dataclasses.is_dataclass(settings) and not isinstance(settings, type):
        changes = {item.name: _resolved_field(where, item.name, getattr(settings, item.name))
                   for item in dataclasses.fields(settings) if getattr(settings, item.name) is not None}
        return dataclasses.replace(settings, **changes) if changes else settings
    if isinstance(settings, Mapping):
        return {key: _resolved_field(where, str(key), value) for key, value in settings.items()}
    if isinstance(settings, Sequence) and not isinstance(settings, str | bytes):
        return [resolve_references(item, f"{where}[{index}]") for index, item in enumerate(settings)]
    return settings
