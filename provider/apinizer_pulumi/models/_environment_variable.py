"""Environment variables: a project's configuration values, one for all environments or one per environment.

A value marked not visible is a secret: the gateway masks it (``null``) in its answers. The list
page's own example shows a secret global value in clear; the client accepts both
(docs/docs-disagreements.md). Sources:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from ._api_proxy import DeploymentResponse
from ._base import ApiModel, Name, field_errors
from ._project import ResultEnvelope

__all__ = [
    "EnvironmentValue",
    "EnvironmentVariable",
    "EnvironmentVariableList",
    "EnvironmentVariableResponse",
    "EnvironmentVariableSpec",
]


class EnvironmentValue(ApiModel):
    """One environment's value (``environmentValueList`` items). ``value`` is None when the
    gateway masks a secret; ``visible`` false marks the value secret (the documented default)."""

    environment_name: Name
    value: str | None = None
    visible: bool = False

    def __repr_args__(self) -> Any:
        # A secret value never reaches a repr, a log line or an error message.
        for key, item in super().__repr_args__():
            yield key, ("***" if key == "value" and not self.visible and item is not None else item)


class EnvironmentVariableSpec(ApiModel):
    """The body of create (``POST .../environmentVariables/{name}/``) and update (``PUT``, same path,
    where the body's ``name`` may differ from the path's to rename).

    Global (``global_=True``): ``global_value`` for every environment. Environment-specific
    (``global_=False``, the default): ``environment_value_list`` with at least one value.
    """

    name: Name
    description: str | None = None
    global_: bool = Field(default=False, alias="global")
    global_value: str | None = None
    global_visible: bool = True
    environment_value_list: list[EnvironmentValue] | None = None

    @model_validator(mode="after")
    def _one_kind_of_value(self) -> EnvironmentVariableSpec:
        if self.global_ and self.global_value is None:
            raise field_errors(
                "EnvironmentVariableSpec", [("global_value", "is required when global is true", None)]
            )
        if not self.global_ and not self.environment_value_list:
            raise field_errors(
                "EnvironmentVariableSpec",
                [
                    (
                        "environment_value_list",
                        "needs at least one value when global is false",
                        self.environment_value_list,
                    )
                ],
            )
        return self

    def to_api(self) -> dict[str, Any]:
        """The API's JSON, with ``globalValue`` and ``environmentValueList`` explicit nulls where
        unused, as the documented examples send them."""
        body = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        body.setdefault("globalValue", None)
        body.setdefault("environmentValueList", None)
        return body

    def __repr_args__(self) -> Any:
        for key, item in super().__repr_args__():
            yield (
                key,
                ("***" if key == "global_value" and not self.global_visible and item is not None else item),
            )


class EnvironmentVariable(EnvironmentVariableSpec):
    """A variable as get and list answer it: secret values masked (None)."""

    project_id: str | None = None
    project_name: str | None = None

    @model_validator(mode="after")
    def _one_kind_of_value(self) -> EnvironmentVariable:
        return self  # answers carry masked values: nothing to require


class EnvironmentVariableList(ResultEnvelope):
    """``GET .../environmentVariables/`` and ``GET .../environmentVariables/{name}/`` (a list of one)."""

    result_list: list[EnvironmentVariable] = Field(default_factory=list)
    result_count: int = 0


class EnvironmentVariableResponse(DeploymentResponse):
    """The answer of create, update and delete: ``success`` and the (un)deployment's result."""
