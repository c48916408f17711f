"""The pydantic model of ``Geolocation`` inputs, named lazily by its provider (see _proxy_inputs)."""

from __future__ import annotations

import base64
import binascii

from pydantic import Field, model_validator

from apinizer_pulumi.models import ApiModel

from .geolocation import mmdb_problem


def decoded_mmdb(value: str) -> bytes:
    """The bytes of an ``mmdb_base64`` input; a ValueError that never repeats the value."""
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("is not valid base64") from None


class GeolocationInputs(ApiModel):
    """The gateway's geolocation settings: at most one MMDB source, and whether geolocation is on."""

    mmdb_file: str | None = Field(default=None, min_length=1)
    mmdb_base64: str | None = Field(default=None, repr=False)
    mmdb_sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    enabled: bool = True

    @model_validator(mode="after")
    def _one_source(self) -> GeolocationInputs:
        if self.mmdb_file is not None and self.mmdb_base64 is not None:
            raise ValueError("give mmdb_file or mmdb_base64, not both")
        if self.mmdb_base64 is not None:
            problem = mmdb_problem(decoded_mmdb(self.mmdb_base64))
            if problem is not None:
                raise ValueError(f"mmdb_base64 {problem}")
        return self
