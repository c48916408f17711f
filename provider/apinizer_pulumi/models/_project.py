"""Projects, and the two success envelopes that the product's list answers use.

The documentation disagrees with itself on the envelope: the projects and API proxies lists
answer ``status: "SUCCESS"`` (EnumStatus), the environments lists and the writes ``success:
true``. :class:`ResultEnvelope` accepts either, and :attr:`ResultEnvelope.ok` reads whichever
came. Sources:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/02-projects/list-projects.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/03-environments/list-environments.md
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from ._base import ApiModel


class ResponseStatus(StrEnum):
    """EnumStatus: the ``status`` of an answer that carries one instead of ``success``."""

    SUCCESS = "SUCCESS"
    FAILURE = "FAILURE"


class ResultEnvelope(ApiModel):
    """``success: boolean`` or ``status: SUCCESS|FAILURE``; a body may carry either (or both)."""

    success: bool | None = None
    status: ResponseStatus | None = None

    @property
    def ok(self) -> bool:
        """True unless the body says it failed (``success: false`` or ``status: FAILURE``)."""
        return not (self.success is False or self.status is ResponseStatus.FAILURE)


class Project(ApiModel):
    """A project as ``GET /apiops/projects/`` lists it: only its name and description are shown."""

    name: str
    description: str | None = None


class ProjectList(ResultEnvelope):
    """``GET /apiops/projects/``: the projects the caller is a member of."""

    result_list: list[Project] = Field(default_factory=list)
    result_count: int = 0
