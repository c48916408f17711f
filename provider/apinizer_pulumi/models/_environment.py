"""Environments: the deployment targets of API proxies.

The pages list EnumEnvironmentType (PRODUCTION, SANDBOX, TEST) and EnumPublishStatus
(PUBLISHED, UNPUBLISHED, REPUBLISH_REQUIRED), while their own examples answer ``type:
"KUBERNETES"``/``"DOCKER"`` and ``status: "DRAFT"``. Both enums hold every value the pages
show, so that every documented answer parses.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/03-environments/list-environments.md
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from ._base import ApiModel
from ._project import ResultEnvelope


class EnvironmentType(StrEnum):
    """EnumEnvironmentType, with the two values that only the examples show."""

    PRODUCTION = "PRODUCTION"
    SANDBOX = "SANDBOX"
    TEST = "TEST"
    KUBERNETES = "KUBERNETES"
    DOCKER = "DOCKER"


class PublishStatus(StrEnum):
    """EnumPublishStatus, with ``DRAFT``, which only an example shows."""

    PUBLISHED = "PUBLISHED"
    UNPUBLISHED = "UNPUBLISHED"
    REPUBLISH_REQUIRED = "REPUBLISH_REQUIRED"
    DRAFT = "DRAFT"


class Environment(ApiModel):
    """An environment as the lists show it. ``deployed`` and ``redeployRequired`` may be null."""

    name: str
    description: str | None = None
    type: EnvironmentType | None = None
    status: PublishStatus | None = None
    access_url: str | None = None
    deployed: bool | None = None
    redeploy_required: bool | None = None


class EnvironmentList(ResultEnvelope):
    """``GET /apiops/environments/`` (admin) and ``GET /apiops/environments/{projectName}``."""

    result_list: list[Environment] = Field(default_factory=list)
    result_count: int = 0
