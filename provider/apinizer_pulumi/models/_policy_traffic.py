"""Traffic policies: quota and throttling, IP lists, client ban, time restriction, message size,
API call, business rule and policy group."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from ._base import PositiveInt
from ._enums import IntervalWindowType
from ._policy import PolicyBase, PolicyModel, PolicyVariable

__all__ = [
    "ApiBasedThrottlingPolicy",
    "PolicyCacheErrorHandlingType",
    "ThrottlingDetail",
    "ThrottlingInterval",
    "WhiteIpPolicy",
]


class ThrottlingInterval(StrEnum):
    """The interval a throttling count applies to (Enum: throttlingInterval)."""

    ONE_SECOND = "ONE_SECOND"
    ONE_MINUTE = "ONE_MINUTE"
    ONE_HOUR = "ONE_HOUR"
    ONE_DAY = "ONE_DAY"


class PolicyCacheErrorHandlingType(StrEnum):
    """What a rate-limiting policy does when its cache fails (Enum: cacheErrorHandlingType):
    FAIL the request or ALLOW it. (The RLCL's enum of the same name says CONTINUE.)"""

    FAIL = "FAIL"
    ALLOW = "ALLOW"


class ThrottlingDetail(PolicyModel):
    """A per-value override of a throttling limit (a ``detailList`` item)."""

    target_value: str = Field(description="The identity value this limit applies to (e.g. VIP).")
    regex_expression: bool = Field(False, description="Whether target_value is a regular expression.")
    message_count_for_interval: PositiveInt = Field(
        description="Requests allowed per interval for this value."
    )
    interval_period_length: PositiveInt = Field(1, description="How many intervals make one period.")
    quota_interval: ThrottlingInterval = Field(description="The interval of this limit.")


class ApiBasedThrottlingPolicy(PolicyBase):
    """Limits the requests a client (identified by a variable: API key, user ID, IP address)
    may make within an interval.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-api-based-throttling.md
    """

    policy_type = "policy-api-based-throttling"
    type: Literal["policy-api-based-throttling"] = Field(
        "policy-api-based-throttling", description="The policy type: policy-api-based-throttling."
    )
    target_variable_for_identity: PolicyVariable = Field(
        description="The variable that identifies a client for throttling."
    )
    message_count_for_interval: PositiveInt = Field(
        description="The most requests a client may make in one period."
    )
    throttling_interval: ThrottlingInterval = Field(
        description="The interval: ONE_SECOND, ONE_MINUTE, ONE_HOUR or ONE_DAY."
    )
    interval_period_length: PositiveInt = Field(1, description="How many intervals make one period.")
    interval_window_type: IntervalWindowType = Field(
        IntervalWindowType.FIXED, description="FIXED windows (minute 1:00-1:59) or a SLIDING window."
    )
    cache_connection_timeout_in_seconds: PositiveInt = Field(
        3, description="Seconds to wait for the counters' cache."
    )
    cache_error_handling_type: PolicyCacheErrorHandlingType = Field(
        PolicyCacheErrorHandlingType.FAIL, description="When the cache fails: FAIL the request or ALLOW it."
    )
    show_rate_limit_statistics_in_response_header: bool = Field(
        False, description="Add the rate limit statistics to the response headers."
    )
    detail_list: list[ThrottlingDetail] = Field(
        default_factory=list, description="Other limits for given identity values."
    )


class WhiteIpPolicy(PolicyBase):
    """Lets through only requests from the listed IP addresses or CIDR ranges; others are
    refused before they reach the backend.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-white-ip.md
    """

    policy_type = "policy-white-ip"
    type: Literal["policy-white-ip"] = Field(
        "policy-white-ip", description="The policy type: policy-white-ip."
    )
    target_variable_for_ip: PolicyVariable | None = Field(
        None,
        alias="targetVariableForIP",
        description="Where to read the client IP from; left out: the gateway's detection.",
    )
    ip_list: list[str] = Field(
        min_length=1, description="The IP addresses or CIDR ranges allowed (at least one)."
    )
