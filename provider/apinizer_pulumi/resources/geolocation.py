"""``Geolocation``: the gateway's geolocation settings (its MMDB file and whether it is on), and its
dynamic provider.

The API uploads the MMDB file, enables and disables geolocation, each deployed to every environment
at once, and has no operation that reads any of it back: a settings object of the management API
itself (one per gateway, id ``geolocation``), whose refresh keeps what was last written
(docs/resources/geolocation.md).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md

The file's bytes never enter the state: ``mmdb_file`` is recorded as its path and sha256 (the
provider reads it when it uploads, as ``ApiProxy`` reads ``spec_file``); ``mmdb_base64`` is a
secret input, left out of the outputs. Diffs compare the sha256.

The provider's module path and class name (``apinizer_pulumi.resources.geolocation.GeolocationProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, lazy_model
from ._connection import ConnectionArgs
from ._errors import ApinizerResourceError, refuse_if_changed, translated
from ._settings import SettingsOfParent

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient

#: The one id: the management API has one geolocation setting.
GEOLOCATION_ID = "geolocation"
#: The file's source inputs: compared through ``mmdb_sha256``, never themselves.
SOURCES = ("mmdb_file", "mmdb_base64")
#: What every MaxMind DB file holds before its metadata, near its end (the MaxMind DB format's spec).
MMDB_METADATA_MARKER = b"\xab\xcd\xefMaxMind.com"


def mmdb_problem(content: bytes) -> str | None:
    """Why ``content`` cannot be a MaxMind DB file, offline and cheap, or None. The gateway (and the
    emulator, with ``maxminddb``) parses it whole; this catches a wrong file before a request."""
    if not content:
        return "is empty"
    if MMDB_METADATA_MARKER not in content[-128 * 1024:]:
        return "is not a MaxMind DB (.mmdb) file: it has no MaxMind metadata section"
    return None


def read_mmdb(mmdb_file: str | os.PathLike[str]) -> bytes:
    """The bytes of an MMDB file, or a one-line error naming it (relative paths: the program's folder)."""
    from ._args import InputValueError
    from ._files import read_file

    content = read_file(mmdb_file, "mmdb_file", error=InputValueError)
    problem = mmdb_problem(content)
    if problem is not None:
        raise InputValueError(f"mmdb_file {str(mmdb_file)!r} {problem}")
    return content


def mmdb_upload(props: Mapping[str, Any]) -> tuple[bytes, str | None] | None:
    """``(bytes, file name)`` of the MMDB these inputs declare, as the program hashed it; None for none."""
    import base64

    from ._connection import unwrap_secret

    if props.get("mmdb_base64") is not None:
        return base64.b64decode(str(unwrap_secret(props["mmdb_base64"]))), None
    if props.get("mmdb_file") is None:
        return None
    path = str(props["mmdb_file"])
    try:
        content = read_mmdb(path)
    except ValueError as error:
        raise ApinizerResourceError(f"apinizer:Geolocation: {error}") from None
    refuse_if_changed(content, props.get("mmdb_sha256"), f"apinizer:Geolocation: mmdb_file {path!r}")
    return content, Path(path).name


def _toggle(client: ApinizerClient, enabled: bool) -> None:
    if enabled:
        client.geolocation.enable()
    else:
        client.geolocation.disable()


class GeolocationProvider(SettingsOfParent):
    """Upload the MMDB file and turn geolocation on or off; destroy turns it off."""

    kind = "Geolocation"
    inputs_model = lazy_model("apinizer_pulumi.resources._geolocation_inputs", "GeolocationInputs")
    replace_fields = ()
    ignored_fields = (CONNECTION, *SOURCES)
    settings_field = "enabled"

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        from pulumi.runtime import rpc

        from ._base import is_unknown
        from ._connection import unwrap_secret

        given = unwrap_secret(news.get("mmdb_base64"))
        result = super().check_inputs(olds, {**news, "mmdb_base64": given} if given is not None else news)
        inputs = dict(result.inputs)
        if given is not None and not is_unknown(inputs.get("mmdb_base64")):
            # Secret again in the inputs that the state keeps.
            inputs["mmdb_base64"] = rpc.wrap_rpc_secret(inputs["mmdb_base64"])
        return dyn.CheckResult(inputs, result.failures)

    def normalize(self, model: Any) -> dict[str, Any]:
        inputs = super().normalize(model)
        if inputs.get("mmdb_base64") is not None:
            import base64

            inputs["mmdb_sha256"] = hashlib.sha256(base64.b64decode(inputs["mmdb_base64"])).hexdigest()
        return inputs

    # --- the parent: the management API itself, there as long as it answers ---------------------

    def target(self, id_: str, props: Mapping[str, Any]) -> str:
        return GEOLOCATION_ID

    def resource_id(self, target: Any) -> str:
        return GEOLOCATION_ID

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        return "apinizer:Geolocation"

    def parent_gone(self, client: ApinizerClient, target: Any) -> bool:
        return False

    # --- the settings -------------------------------------------------------------------------

    def declared(self, props: Mapping[str, Any]) -> Mapping[str, Any]:
        return props

    def defaults(self, props: Mapping[str, Any]) -> Mapping[str, Any]:
        # The API cannot delete the file: destroy turns geolocation off and leaves the file there.
        return {"enabled": False}

    def send(self, client: ApinizerClient, target: Any, settings: Any) -> None:
        upload = mmdb_upload(settings)
        if upload is not None:
            client.geolocation.upload_mmdb(upload[0], file_name=upload[1])
        _toggle(client, bool(settings.get("enabled", True)))

    @staticmethod
    def outputs(inputs: Mapping[str, Any], **computed: Any) -> dict[str, Any]:
        # The file's bytes stay out of the outputs: its sha256 stands for it.
        outs = SettingsOfParent.outputs(inputs, **computed)
        outs.pop("mmdb_base64", None)
        return outs

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._base import same

        client = self.client(news)
        if not same(olds.get("mmdb_sha256"), news.get("mmdb_sha256")):
            upload = mmdb_upload(news)
            if upload is not None:
                client.geolocation.upload_mmdb(upload[0], file_name=upload[1])
        if olds.get("enabled", True) != news.get("enabled", True):
            _toggle(client, bool(news.get("enabled", True)))
        return dyn.UpdateResult(self.outputs(news))


class Geolocation(dyn.Resource, module="apinizer", name="Geolocation"):
    """The gateway's geolocation: its MMDB file (MaxMind GeoIP2) and whether it is on.

    One per management API; id ``geolocation``. Nothing replaces it: a new file is uploaded in place
    (when its sha256 changed) and ``enabled`` toggles through enable or disable. Every change deploys
    to every environment at once (the product's pages). The API cannot read geolocation back, so
    refresh keeps the recorded state. Destroy disables geolocation; the uploaded file stays on the
    gateway (the API cannot delete it).
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md
    """

    mmdb_file: pulumi.Output[str | None]
    """The MMDB file's absolute path, as the program gave it."""
    mmdb_sha256: pulumi.Output[str | None]
    """The sha256 of the MMDB file last uploaded (hex); diffs compare it, never the bytes."""
    enabled: pulumi.Output[bool]
    """Whether geolocation is on."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        mmdb_file: str | os.PathLike[str] | None = None,
        mmdb_base64: pulumi.Input[str] | None = None,
        enabled: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the gateway's geolocation settings.

        :param resource_name: The Pulumi name of this resource.
        :param mmdb_file: A MaxMind DB file (``GeoLite2-Country.mmdb``), relative to the program's
            folder; read and hashed when the program runs, uploaded when its sha256 changes.
        :param mmdb_base64: The MMDB file's bytes in base64 (an Output is fine), instead of
            ``mmdb_file``; kept secret in the state's inputs and left out of the outputs.
        :param enabled: Whether geolocation is on (default true).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``. Geolocation needs a system administrator.
        :param opts: Pulumi resource options.
        """
        path = sha256 = None
        if mmdb_file is not None:
            path = str(Path(mmdb_file).absolute())
            sha256 = hashlib.sha256(read_mmdb(path)).hexdigest()
        props = resource_props(mmdb_file=path, mmdb_sha256=sha256, enabled=enabled)
        if mmdb_base64 is not None:
            # Secret in the inputs the state keeps; the outputs never hold it.
            props["mmdb_base64"] = pulumi.Output.secret(mmdb_base64)
        props[CONNECTION] = connection_props(connection)
        super().__init__(GeolocationProvider(), resource_name, props,
                         resource_options(opts, delete_first=True))
