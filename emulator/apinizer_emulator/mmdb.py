"""The MMDB reader: an uploaded geolocation file opened with ``maxminddb`` (the MaxMind reader, in
the ``emulator`` extra) as the gateway would load it, and what it says of itself.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/upload-mmdb-file.md
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import maxminddb
from maxminddb.errors import InvalidDatabaseError

from .errors import BadRequestError

#: The largest MMDB file taken: GeoLite2-City, the largest of the usual files, is about 70 MB.
MAX_MMDB_BYTES = 128 * 1024 * 1024
#: The name a file uploaded without one gets (the upload page).
DEFAULT_FILE_NAME = "geolocation.mmdb"
#: Addresses looked up once a file opens, so that a corrupt search tree or data section fails now.
_PROBES = ("1.1.1.1", "8.8.8.8", "81.214.0.1", "2001:4860:4860::8888")


class EmptyFileError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("File can not be empty!")


class InvalidMmdbError(BadRequestError):
    """Not shown by the pages; the emulator's words, with the reader's reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"File is not a valid MMDB (MaxMind DB) file: {reason}")


@dataclass(frozen=True)
class MmdbFile:
    """What an uploaded MMDB file says of itself."""

    file_name: str
    size: int
    sha256: str
    database_type: str
    ip_version: int
    node_count: int
    build_epoch: int


def parse_mmdb(content: bytes, file_name: str) -> MmdbFile:
    """``content`` opened with ``maxminddb`` and probed; a 400 naming what failed otherwise."""
    if not content:
        raise EmptyFileError()
    if len(content) > MAX_MMDB_BYTES:
        raise InvalidMmdbError(f"it is larger than {MAX_MMDB_BYTES} bytes")
    try:
        with maxminddb.open_database(io.BytesIO(content), maxminddb.MODE_FD) as reader:
            metadata = reader.metadata()
            for address in _PROBES:
                if metadata.ip_version == 4 and ":" in address:
                    continue
                reader.get(address)
    except (InvalidDatabaseError, ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        raise InvalidMmdbError(str(exc) or type(exc).__name__) from None
    return MmdbFile(
        file_name=file_name or DEFAULT_FILE_NAME,
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
        database_type=str(metadata.database_type),
        ip_version=int(metadata.ip_version),
        node_count=int(metadata.node_count),
        build_epoch=int(metadata.build_epoch),
    )
