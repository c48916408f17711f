"""JWKs for ``generate``: read the project's JWKs and write each as ``Jwk(..., adopt=True)``.

One list, and one get per JWK that the list cannot describe (the list answers no key material):

* a generated key is written as ``generate=apinizer.JwkGenerateArgs(...)`` with its type, kid and
  size or curve, read from its public part (adoption never generates another);
* a key from a URL, as ``url`` (and ``kid``);
* any other (pasted, or made from a certificate, key or keystore alias, or detached from its source by
  an update) as ``jwk_json``: the API answers neither the environment, use nor algorithm it was made
  with. Where the gateway holds a private part, the program takes the JWK's JSON from the stack's
  config as a secret (``config.require_secret("<key>")``, set with ``pulumi config set --secret``);
  a public key's JSON is written as it is.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

from apinizer_pulumi.client import ApinizerClient, NotFoundError, PermissionDeniedError
from apinizer_pulumi.resources._jwk_parts import key_parts

from ._lines import adopted_end, declaration_head, every, slug
from ._snapshot import not_read

_NOTE = """\
# JWKs, each taken over as it is (adopt=True): adopting never makes another key. A JWK whose key
# has a private part takes its JSON from the stack's config as a secret (`pulumi config set --secret
# <key> "$(curl ... /jwks/<name>/)"`: the JWK as the gateway's get answers it)."""
#: JOSE's curve names as generate spells them.
_CURVES = {"P-256": "P256", "P-384": "P384", "P-521": "P521", "secp256k1": "SECP256K1",
           "Ed25519": "ED25519", "X25519": "X25519"}


@dataclasses.dataclass(frozen=True)
class JwkRecord:
    """One JWK as ``Jwk(..., adopt=True)`` declares it: by exactly one of ``generate``, ``url`` or
    ``jwk_json`` (None with ``secret``: the JWK is taken from the stack's config)."""

    project: str
    name: str
    description: str | None = None
    generate: dict[str, Any] | None = None
    url: str | None = None
    kid: str | None = None
    jwk_json: str | None = None
    secret: bool = False

    @property
    def slug(self) -> str:
        return slug(self.project, self.name)

    @property
    def secret_key(self) -> str:
        """The stack config key of its JSON: ``demo-partner-jwk``."""
        return f"{self.slug}-jwk"


def _bits(value: str) -> int:
    return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) * 8


def _generated(parts: dict[str, Any]) -> dict[str, Any] | None:
    """``JwkGenerateArgs``' keywords for a generated key, from its public (or, for OCT, private) part."""
    kind = parts["key_type"]
    whole = parts["private_jwk"] or parts["public_jwk"] or {}
    generate: dict[str, Any] = {"type": kind}
    if parts["kid"]:
        generate["kid"] = parts["kid"]
    if kind == "RSA" and whole.get("n"):
        size = _bits(whole["n"])
        generate["rsa"] = {"key_size": min((2048, 3072, 4096), key=lambda wanted: abs(wanted - size))}
    elif kind == "OCT" and whole.get("k"):
        generate["oct"] = {"key_size": _bits(whole["k"])}  # the key's length, never the key
    elif kind in ("EC", "OKP") and whole.get("crv") in _CURVES:
        generate[kind.lower()] = {"curve_type": _CURVES[whole["crv"]]}
    else:
        return None
    return generate


def read_jwks(client: ApinizerClient, project: str, progress: Callable[[str], None] = lambda _line: None,
              *, unread: set[str] | None = None) -> list[JwkRecord]:
    """The project's JWKs; none where this account may not read them (it lacks ROLE_API_SECURITY) or the
    gateway has no such list, which ``progress`` reports."""
    try:
        listed = client.jwks.list(project)
    except (PermissionDeniedError, NotFoundError) as error:
        progress(f"JWKs of {project}: not read ({error.error_description or error.error})")
        not_read(unread, "Jwk")
        return []
    records = []
    for item in listed:
        description = item.description or None
        source = item.source_type.value if item.source_type is not None else None
        if source == "URL" and item.source_url:
            records.append(JwkRecord(project, item.name, description, url=item.source_url, kid=item.kid))
            continue
        parts = key_parts(client.jwks.get(project, item.name))
        generated = _generated(parts) if source == "GENERATE" else None
        if generated is not None:
            records.append(JwkRecord(project, item.name, description, generate=generated))
        elif parts["private_jwk"] is not None:
            records.append(JwkRecord(project, item.name, description, secret=True))
        else:
            records.append(JwkRecord(project, item.name, description,
                                     jwk_json=json.dumps(parts["public_jwk"], sort_keys=True)))
    if records:
        progress(f"JWKs of {project}: {len(records)}")
    return records


def jwk_secret_keys(records: Sequence[JwkRecord]) -> list[str]:
    """The config key of every JWK that the program reads from the stack config, in order."""
    return [record.secret_key for record in records if record.secret]


def _generate_lines(generate: dict[str, Any], indent: str) -> list[str]:
    """``generate=apinizer.JwkGenerateArgs(...)``, one keyword a line, its parameters' class on one."""
    classes = {"rsa": "JwkRsaArgs", "ec": "JwkEcArgs", "oct": "JwkOctArgs", "okp": "JwkOkpArgs"}
    out = [f"{indent}generate=apinizer.JwkGenerateArgs("]
    for key, value in generate.items():
        if key in classes:
            fields = ", ".join(f"{name}={json.dumps(item)}" for name, item in value.items())
            out.append(f"{indent}    {key}=apinizer.{classes[key]}({fields}),")
        else:
            out.append(f"{indent}    {key}={json.dumps(value, ensure_ascii=False)},")
    return [*out, f"{indent}),"]


def _json_text(text: str, indent: str, width: int) -> str:
    """``text`` (JSON, full of quotes) as a literal whose lines, escaped, fit ``width``."""
    room = width - len(indent) - 4
    if len(indent) + len(json.dumps(text)) + 11 <= width:  # ``jwk_json=`` and the comma
        return json.dumps(text)
    parts, part = [], ""
    for char in text:
        if len(json.dumps(part + char)) > room:
            parts.append(part)
            part = ""
        part += char
    parts.append(part)
    return "(\n" + "".join(f"{indent}    {json.dumps(item)}\n" for item in parts) + f"{indent})"


def jwk_section(records: Sequence[JwkRecord], *, retain: bool, indent: str, retain_option: str,
                literal: Callable[[str], str], width: int) -> list[str]:
    """The program's lines for ``records`` (none when there are none)."""
    if not records:
        return []
    out = ["", _NOTE]
    if any(record.secret for record in records):
        out.append("config = pulumi.Config()")
    out += every("JWK", "jwks", "Jwk")
    for record in records:
        name = f"jwk-{record.slug}"
        out += declaration_head("Jwk", name, record.project, record.name, literal=literal, indent=indent)
        if record.description is not None:
            out.append(f"{indent}description={literal(record.description)},")
        if record.generate is not None:
            out += _generate_lines(record.generate, indent)
        elif record.url is not None:
            out.append(f"{indent}url={literal(record.url)},")
        elif record.secret:
            out.append(f"{indent}jwk_json=config.require_secret({json.dumps(record.secret_key)}),")
        else:
            out.append(f"{indent}jwk_json={_json_text(record.jwk_json or '', indent, width)},")
        if record.kid is not None:
            out.append(f"{indent}kid={literal(record.kid)},")
        out += adopted_end(retain_option if retain else None, indent=indent)
    out.append("}")
    return out
