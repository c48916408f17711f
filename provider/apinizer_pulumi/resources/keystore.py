"""``Keystore``: a project's keystore, a JKS or PKCS#12 file per environment, and its dynamic provider.

Create, update and delete deploy (or undeploy) the keystore to the environments it names at once,
as the API does. The lifecycle is the per-environment key material's (``_key_material``): files
read by the provider and kept in the state as their sha256, passwords secret.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md

The provider's module path and class name (``apinizer_pulumi.resources.keystore.KeystoreProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, one_line_arguments, resource_options, resource_props
from ._base import lazy_model
from ._connection import ConnectionArgs
from ._files import read_file
from ._key_material import PerEnvironmentMaterial, checked_file, digest, secret_environments

#: An environment's fields that hold a secret.
SECRET_KEYS = ("content_base64", "password")


def _content(entry: Mapping[str, Any], where: str, *, checked: bool) -> bytes:
    if entry.get("file") is not None:
        path = str(entry["file"])
        return checked_file(path, entry.get("sha256"), f"{where}.file") if checked \
            else read_file(path, f"{where}.file")
    try:
        return base64.b64decode("".join(str(entry["content_base64"]).split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{where}.content_base64 is not base64") from None


class KeystoreProvider(PerEnvironmentMaterial):
    """A keystore: one file per environment, each with its type and password."""

    kind = "Keystore"
    inputs_model = lazy_model("apinizer_pulumi.resources._key_inputs", "KeystoreInputs")
    family = "keystores"
    kind_word = "Keystore"
    list_field = "keyStoreEnvironmentList"
    id_output = "keystore_id"
    noun = "keystore"
    secret_keys = SECRET_KEYS
    source_keys = ("file", "content_base64")

    def digest_sources(self, entry: dict[str, Any], where: str) -> list[tuple[str, str]]:
        source = "file" if entry.get("file") is not None else "content_base64"
        try:
            entry["sha256"] = digest(_content(entry, where, checked=False))
        except ValueError as error:
            entry.pop("sha256", None)
            return [(source, str(error))]
        return []

    def body_item(self, entry: Mapping[str, Any], where: str) -> dict[str, Any]:
        item = {"environmentName": entry["environment_name"], "type": entry["type"],
                "file": base64.b64encode(_content(entry, where, checked=True)).decode()}
        if entry.get("password") is not None:
            item["password"] = entry["password"]
        return item

    def live_entries(self, live: Any) -> list[dict[str, Any]]:
        entries = []
        for item in live.key_store_environment_list:
            entry: dict[str, Any] = {"environment_name": item.environment_name}
            if item.type is not None:
                entry["type"] = str(getattr(item.type, "value", item.type))
            if item.file:
                try:
                    entry["sha256"] = digest(base64.b64decode("".join(item.file.split())))
                except (binascii.Error, ValueError):
                    entry["sha256"] = "not base64"
            entries.append(entry)
        return entries


@dataclasses.dataclass(kw_only=True, frozen=True)
class KeystoreEnvironmentArgs:
    """One environment's keystore: its ``type`` (``JKS`` or ``PKCS12``), the file (``file``, a path
    in the program's folder, or ``content_base64``, its bytes in base64, e.g. a secret Output) and
    the ``password`` that opens it. A plain dict with the same keys does as well."""

    environment_name: pulumi.Input[str]
    type: pulumi.Input[str]
    file: pulumi.Input[str] | None = None
    content_base64: pulumi.Input[str] | None = None
    password: pulumi.Input[str] | None = None


class Keystore(dyn.Resource, module="apinizer", name="Keystore"):
    """A keystore: a JKS or PKCS#12 file per environment, the source of JWKs made from its aliases.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new one is made
    first); ``description`` and ``environments`` (a new file, type or password, an environment added
    or removed) change in place, and the gateway deploys the keystore to each environment it names.
    A file is read by the provider when it is sent; the state keeps its path and its sha256, never
    its bytes, and diffs show the sha256. Passwords and ``content_base64`` are secrets. Refresh reads
    the project's keystore list (once per project) and shows a changed file (its sha256), type,
    description or environment list; the passwords cannot be read back. With ``adopt=True`` a
    keystore of that name that exists already is taken over (written whole).
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the keystore."""
    name: pulumi.Output[str]
    """The keystore's name, unique within the project."""
    description: pulumi.Output[str | None]
    """Free text."""
    environments: pulumi.Output[list[dict[str, Any]]]
    """Per environment: ``environment_name``, ``type``, the source (``file`` path or
    ``content_base64``, secret), ``password`` (secret) and ``sha256`` of the file."""
    keystore_id: pulumi.Output[str | None]
    """The gateway's id of the keystore."""
    update_referenced_jwks: pulumi.Output[str | None]
    """Whether (and in which scope) an update remakes the JWKs made from this keystore."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a keystore that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        environments: Sequence[KeystoreEnvironmentArgs | Mapping[str, Any]],
        description: pulumi.Input[str] | None = None,
        update_referenced_jwks: pulumi.Input[str] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a keystore.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the keystore.
        :param name: Unique within the project; it cannot change in place.
        :param environments: One :class:`KeystoreEnvironmentArgs` (or dict) per environment, each
            environment once: the whole list (an environment left out is removed from the keystore).
        :param description: Free text.
        :param update_referenced_jwks: ``SAME_PROJECT`` or ``ALL_PROJECTS``: an update also remakes the
            JWKs made from this keystore in that scope (the update page's ``updateReferencedJwks``). Default:
            none, they keep the material they were made from. Never a change by itself.
        :param adopt: Take over an existing keystore of that name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, name=name, description=description,
                               update_referenced_jwks=update_referenced_jwks, adopt=adopt, keystore_id=None)
        props["environments"] = secret_environments(environments, SECRET_KEYS)
        props["connection"] = connection_props(connection)
        super().__init__(KeystoreProvider(), resource_name, props, resource_options(opts))


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(KeystoreEnvironmentArgs, prefix="apinizer")
