"""The pydantic models of provider inputs that the resource modules name lazily.

Kept apart from the resource modules so that declaring a resource in a Pulumi program does not
import pydantic and the API's models; the provider process imports this on its first check.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from apinizer_pulumi.models import EndpointSpec, Name


class ConnectionInput(BaseModel):
    """The shape of the ``connection`` input; every field may come from config or env instead."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(default=None, min_length=1)
    token: str | None = Field(default=None, min_length=1, repr=False)
    username: str | None = Field(default=None, min_length=1)
    password: str | None = Field(default=None, min_length=1, repr=False)


class EndpointInputs(EndpointSpec):
    """The inputs of an ``Endpoint`` resource, validated offline by ``check``."""

    project_name: Name
    api_proxy_name: Name
    active: bool = True
    adopt: bool = False
