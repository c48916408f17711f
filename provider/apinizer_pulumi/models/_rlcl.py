"""The RLCL record itself: what create and update send.

The spec shows no field of the RLCL record beyond its name; the product's documentation fills
that gap: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from ._base import ApiModel, Name, PositiveInt
from ._enums import CacheErrorHandlingType, ExecutionOrder, IntervalWindowType
from ._policy import ConditionRule
from ._variable import RateLimitVariable, as_rate_limit_variable


class RlclUpdate(ApiModel):
    """The body of ``PUT .../rlcl/{rlclName}/`` (update): every field of :class:`RlclSpec`, with
    ``name`` optional, since the path names the RLCL and the documented example leaves it out:
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md

    Defaults are the documented ones. A ``target_variable`` of None rate-limits per credential.
    """

    name: Name | None = None
    description: str | None = None
    enabled: bool = True
    execution_order: ExecutionOrder = ExecutionOrder.FIRST
    cache_connection_timeout_in_seconds: PositiveInt = 3
    cache_error_handling_type: CacheErrorHandlingType = CacheErrorHandlingType.FAIL
    time_interval_window_type: IntervalWindowType = IntervalWindowType.FIXED
    show_rate_limit_statistics_in_response_header: bool = False
    target_variable: RateLimitVariable | None = None

    @field_validator("target_variable", mode="before")
    @classmethod
    def _plain_variable_as_rate_limit_variable(cls, value: Any) -> Any:
        # The documented targetVariable needs a script for CUSTOM variables, as in the entries.
        return as_rate_limit_variable(value)

    def to_api(self) -> dict[str, Any]:
        """The API's JSON; ``targetVariable`` stays an explicit null, as the documented samples send it."""
        body = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        body.setdefault("targetVariable", None)
        return body


class RlclSpec(RlclUpdate):
    """The body of ``POST .../rlcl/`` (create) and ``PUT .../rlcl/{rlclName}/`` (update).

    Defaults are the documented ones. ``name`` is the RLCL's identifier within its project and
    cannot be changed by an update. The RLCL is created empty: its endpoints and credentials are
    managed by their own operations. A ``target_variable`` of None rate-limits per credential.
    """

    name: Name


class RlclCredentialNames(ApiModel):
    """The body of add, update (replace) and delete under ``.../rlcl/{rlclName}/credentials/``:
    credential usernames (not ids) that exist in the project.
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/credentials/add-credentials.md
    """

    credential_name_list: list[Name] = Field(min_length=1)


class RlclCondition(ApiModel):
    """The body of add and update under ``.../rlcl/{rlclName}/condition/``: the RLCL applies only
    when the rules hold. An empty list is the default condition (an AND of nothing: always).
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/condition/add-condition.md
    """

    condition_rule_list: list[ConditionRule]

    def to_api(self) -> dict[str, Any]:
        return {"conditionRuleList": [rule.to_api() for rule in self.condition_rule_list]}
