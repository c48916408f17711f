"""Geolocation: ``client.geolocation`` (upload the MMDB file, enable, disable).

The three operations are PUTs of the admin settings; each is deployed to every environment at
once and answers ``{success, deploymentResult}`` (a failed environment raises
:class:`DeploymentFailedError`). They need a system administrator. The MMDB file goes up as
``multipart/form-data`` (part ``file``, and ``fileName`` when given), and waits for its answer as
long as a spec upload of its size does (:func:`._constants.upload_timeout`). All three set a state,
so all are retried.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/upload-mmdb-file.md,
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/enable-geolocation.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/disable-geolocation.md
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import models
from ._exceptions import InvalidArgumentError, InvalidArgumentTypeError
from ._resources import _Resource

__all__ = ["GEOLOCATION_DISABLE_PATH", "GEOLOCATION_ENABLE_PATH", "GEOLOCATION_MMDB_PATH", "Geolocation"]

GEOLOCATION_MMDB_PATH = "/apiops/settings/geolocation/mmdb"
GEOLOCATION_ENABLE_PATH = "/apiops/settings/geolocation/enable"
GEOLOCATION_DISABLE_PATH = "/apiops/settings/geolocation/disable"

#: The name the gateway gives a file uploaded without one (the upload page).
DEFAULT_MMDB_NAME = "geolocation.mmdb"


def _mmdb(file: bytes | str | os.PathLike[str]) -> tuple[str, bytes]:
    """``(the file's own name, its bytes)``; bytes have no name of their own."""
    if isinstance(file, bytes | bytearray):
        return DEFAULT_MMDB_NAME, bytes(file)
    if not isinstance(file, str | os.PathLike):
        raise InvalidArgumentTypeError("file", f"must be bytes or a path, got {type(file).__name__}")
    path = Path(file)
    try:
        return path.name, path.read_bytes()
    except OSError as exc:
        raise InvalidArgumentError("file", f"cannot read {path}: {exc.strerror or exc}") from None


class Geolocation(_Resource):
    """The gateway's geolocation: its MMDB file (MaxMind GeoIP2) and whether it is on."""

    def upload_mmdb(
        self, file: bytes | str | os.PathLike[str], *, file_name: str | None = None
    ) -> models.DeploymentResponse:
        """``PUT /apiops/settings/geolocation/mmdb``: the MMDB file (bytes, or a path to read),
        replacing the one there. ``file_name`` is sent as ``fileName`` when given; otherwise the
        gateway keeps the file's own name. A file that is no MMDB database answers 400."""
        own_name, content = _mmdb(file)
        if not content:
            raise InvalidArgumentError("file", "must not be empty")
        if file_name is not None and (not isinstance(file_name, str) or not file_name.strip()):
            raise InvalidArgumentError("file_name", "must be a non-empty string when given")
        files: list[tuple[str, tuple[str | None, bytes, str]]] = [
            ("file", (own_name, content, "application/octet-stream"))
        ]
        if file_name is not None:
            files.append(("fileName", (None, file_name.encode(), "text/plain")))
        return self._client.api_proxies._send_multipart("PUT", GEOLOCATION_MMDB_PATH, files, idempotent=True)

    def enable(self) -> models.DeploymentResponse:
        """``PUT /apiops/settings/geolocation/enable``: geolocation on, in every environment."""
        return self._client.api_proxies._answer("PUT", GEOLOCATION_ENABLE_PATH, idempotent=True)

    def disable(self) -> models.DeploymentResponse:
        """``PUT /apiops/settings/geolocation/disable``: geolocation off, in every environment."""
        return self._client.api_proxies._answer("PUT", GEOLOCATION_DISABLE_PATH, idempotent=True)
