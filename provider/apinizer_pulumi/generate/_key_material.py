"""Keystores and crypto keys for ``apinizer-pulumi generate``: read them, write ``Keystore`` and
``CryptoKey`` declarations with ``adopt=True``.

One list per kind and project. What they hold is key material, which a program must never carry in
clear: each keystore file (as its base64), each keystore password and each private key comes from the
stack's config as a secret (``config.require_secret("<key>")``), and the CLI lists the keys to set.
The gateway answers the files and keys but not the passwords, so the password keys must be set from
what the team knows. Public keys are written as they are.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence

from apinizer_pulumi.client import ApinizerClient

from ._lines import adopted_end, declaration_head, every, slug
from ._snapshot import listed_or_none

_NOTE = """\
# Keystores and crypto keys, each taken over as it is (adopt=True). Their files, passwords and private
# keys are secrets the program never holds: each comes from the stack's config, set once with
# `pulumi config set --secret <key> <value>` (a keystore file as its base64: "$(base64 -w0 <file>)",
# a private key as its PEM text: "$(cat <key.pem>)"). The gateway cannot give back a keystore's
# password: set the one it was made with."""


@dataclasses.dataclass(frozen=True)
class MaterialEnvironment:
    """One environment of a keystore (its ``type``) or of a key (its public key, and whether it has a
    private one)."""

    name: str
    type: str | None = None
    public_key: str | None = None
    private_key: bool = False


@dataclasses.dataclass(frozen=True)
class MaterialRecord:
    """A keystore (``key_type`` None) or a crypto key as its declaration writes it."""

    kind: str
    project: str
    name: str
    description: str | None
    environments: tuple[MaterialEnvironment, ...]
    key_type: str | None = None

    @property
    def slug(self) -> str:
        prefix = "keystore" if self.kind == "Keystore" else "key"
        return slug(prefix, self.project, self.name)

    def config_key(self, environment: str, what: str) -> str:
        """``keystore-demo-signing-test-file``: the stack config key of one secret."""
        return slug(self.slug, environment, what)


def read_key_material(
    client: ApinizerClient, project: str, progress: Callable[[str], None] = lambda _line: None,
    *, unread: set[str] | None = None,
) -> list[MaterialRecord]:
    """The project's keystores and crypto keys; a kind this account may not read (401, 403), or that the
    gateway has no list of (404), is skipped and reported."""
    records: list[MaterialRecord] = []
    for keystore in listed_or_none(lambda: client.keystores.list(project), f"keystores of {project}",
                                   progress, unread, "Keystore") or []:
        environments = tuple(
            MaterialEnvironment(item.environment_name, str(getattr(item.type, "value", item.type)))
            for item in keystore.key_store_environment_list)
        records.append(MaterialRecord("Keystore", project, keystore.name, keystore.description or None,
                                      environments))
    for key in listed_or_none(lambda: client.crypto_keys.list(project), f"crypto keys of {project}",
                              progress, unread, "CryptoKey") or []:
        records.append(MaterialRecord(
            "CryptoKey", project, key.name, key.description or None,
            tuple(MaterialEnvironment(item.environment_name, public_key=item.public_key or None,
                                      private_key=bool(item.private_key))
                  for item in key.crypto_key_info_environment_list),
            key_type=str(getattr(key.key_type, "value", key.key_type))))
    if records:
        progress(f"keystores and crypto keys of {project}: {len(records)}")
    return records


def _secrets(record: MaterialRecord, environment: MaterialEnvironment) -> list[tuple[str, str]]:
    """(argument, config key) of each secret of one environment."""
    if record.kind == "Keystore":
        return [("content_base64", record.config_key(environment.name, "file")),
                ("password", record.config_key(environment.name, "password"))]
    if not environment.private_key:
        return []
    return [("private_key", record.config_key(environment.name, "private-key"))]


def material_secret_keys(records: Sequence[MaterialRecord]) -> list[str]:
    """Every stack config key the program reads, in order."""
    return [key for record in records for environment in record.environments
            for _, key in _secrets(record, environment)]


def key_material_section(records: Sequence[MaterialRecord], *, indent: str, retain_option: str | None,
                         literal: Callable[..., str]) -> list[str]:
    """The ``Keystore`` and ``CryptoKey`` declarations; empty when there are none."""
    if not records:
        return []
    out = ["", _NOTE, "config = pulumi.Config()"]
    inner = indent + "    "
    for kind, args, title in (("Keystore", "KeystoreEnvironmentArgs", "keystores"),
                              ("CryptoKey", "CryptoKeyEnvironmentArgs", "crypto_keys")):
        mine = [record for record in records if record.kind == kind]
        if not mine:
            continue
        out += every(title.replace("_", " ")[:-1], title, kind)
        for record in mine:
            out += declaration_head(kind, record.slug, record.project, record.name,
                                    literal=literal, indent=indent)
            if record.key_type is not None:
                out.append(f"{indent}key_type={literal(record.key_type)},")
            if record.description is not None:
                out.append(f"{indent}description={literal(record.description)},")
            out.append(f"{indent}environments=[")
            for environment in record.environments:
                out += [f"{inner}apinizer.{args}(",
                        f"{inner}    environment_name={literal(environment.name)},"]
                if environment.type is not None:
                    out.append(f"{inner}    type={literal(environment.type)},")
                if environment.public_key is not None:
                    out.append(f"{inner}    public_key={literal(environment.public_key, inner + '    ')},")
                out += [f"{inner}    {argument}=config.require_secret({json.dumps(key)}),"
                        for argument, key in _secrets(record, environment)]
                out.append(f"{inner}),")
            out += [f"{indent}],", *adopted_end(retain_option, indent=indent)]
        out.append("}")
    return out
