"""HTTP handlers of geolocation (upload the MMDB file, enable, disable), and their routes.

The three need a system administrator (or ROLE_ADMIN); anyone else gets the pages' 401 ``User does
not have privilege to access admin settings!``:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import DeploymentResponse

from . import geolocation, mmdb
from .auth import ROLE_ADMIN, SYSTEM_ADMIN
from .errors import BadRequestError
from .web import MULTIPART, Route, json_response, principal, write

MMDB = "/apiops/settings/geolocation/mmdb"
ENABLE = "/apiops/settings/geolocation/enable"
DISABLE = "/apiops/settings/geolocation/disable"


def _admin(request: Request) -> None:
    caller = principal(request)
    if not (caller.has_role(ROLE_ADMIN) or caller.system_role == SYSTEM_ADMIN):
        raise geolocation.AdminSettingsError()


async def _upload(request: Request) -> tuple[bytes, str]:
    """``(the file part's bytes, fileName or the part's own file name)``."""
    if not request.headers.get("content-type", "").lower().startswith(MULTIPART):
        raise BadRequestError(f"Content-Type must be {MULTIPART} with the parts file and fileName")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > mmdb.MAX_MMDB_BYTES + (1 << 20):
        raise mmdb.InvalidMmdbError(f"it is larger than {mmdb.MAX_MMDB_BYTES} bytes")
    try:
        form = await request.form(max_files=1, max_fields=4, max_part_size=1 << 20)
    except MultiPartException as exc:
        raise BadRequestError(f"The multipart body cannot be read: {exc.message}") from None
    try:
        part = form.get("file")
        if part is None:
            raise mmdb.EmptyFileError()
        if not isinstance(part, UploadFile):
            raise BadRequestError("file must be a file part")
        content = await part.read(mmdb.MAX_MMDB_BYTES + 1)
        name = form.get("fileName")
        file_name = name.strip() if isinstance(name, str) and name.strip() else part.filename or ""
    finally:
        await form.close()
    return content, file_name


async def upload_mmdb(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/upload-mmdb-file.md"""
    _admin(request)
    content, file_name = await _upload(request)
    parsed = await run_in_threadpool(mmdb.parse_mmdb, content, file_name)
    return json_response(await write(request, geolocation.upload, parsed))


async def enable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/enable-geolocation.md"""
    _admin(request)
    return json_response(await write(request, geolocation.set_enabled, True))


async def disable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/disable-geolocation.md"""
    _admin(request)
    return json_response(await write(request, geolocation.set_enabled, False))


ROUTES: list[Route] = [
    ("PUT", MMDB, upload_mmdb, "Upload the MMDB file (multipart: file, fileName)", None, DeploymentResponse),
    ("PUT", ENABLE, enable, "Enable geolocation in every environment", None, DeploymentResponse),
    ("PUT", DISABLE, disable, "Disable geolocation in every environment", None, DeploymentResponse),
]
