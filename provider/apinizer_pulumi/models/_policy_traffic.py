"""Traffic policies: quota and throttling, IP lists, client ban, time restriction, message size,
API call, business rule and policy group."""

from __future__ import annotations

import ipaddress
import re
from enum import StrEnum
from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, Field, model_validator

from ._api_proxy import ErrorThresholdType
from ._base import PositiveInt
from ._enums import CacheErrorHandlingType, CacheStorageType, HttpMethod, IntervalWindowType
from ._policy import (
    CriteriaCondition,
    PolicyBase,
    PolicyModel,
    PolicyVariable,
    SecretField,
    raise_problems,
    require_field,
)
from ._variable import is_iana_zone

__all__: list[str] = []  # filled at the end from the module's public classes


def _ip_problem(entry: str) -> str | None:
    """Why ``entry`` is no IP address or CIDR range (``10.0.0.0/8``, ``2001:db8::/32``), or None."""
    try:
        if "/" in entry:
            ipaddress.ip_network(entry, strict=False)
        else:
            ipaddress.ip_address(entry)
    except ValueError as exc:
        return str(exc)
    return None


def _check_ip_list(entries: list[str]) -> list[str]:
    problems = [
        f"{entry!r} is not an IP address or CIDR range ({why})"
        for entry in entries
        if (why := _ip_problem(entry))
    ]
    if problems:
        raise ValueError("; ".join(problems))
    return entries


#: IP addresses and CIDR ranges, IPv4 or IPv6, at least one (the IP pages' "IP Address Formats").
IpList = Annotated[list[str], Field(min_length=1), AfterValidator(_check_ip_list)]

#: Java's ZoneId offsets: Z, +h, +hh, +hh:mm, +hhmm, +hh:mm:ss, optionally after UTC, GMT or UT.
_ZONE_OFFSET = re.compile(r"(?:(?:UTC|GMT|UT)?[+-]\d{1,2}(?::?\d{2}(?::?\d{2})?)?|Z|UTC|GMT|UT)")


def _check_zone_id(value: str) -> str:
    if not (_ZONE_OFFSET.fullmatch(value) or is_iana_zone(value)):
        raise ValueError(f"{value!r} is not a Java zone ID: an offset (+03:00) or a region (Europe/Istanbul)")
    return value


ZoneId = Annotated[str, AfterValidator(_check_zone_id)]


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
    ip_list: IpList = Field(description="The IP addresses or CIDR ranges allowed (at least one).")


# -- quota ------------------------------------------------------------------------------------------


class QuotaInterval(StrEnum):
    """The interval a quota counts over (Enum: quotaInterval)."""

    ONE_HOUR = "ONE_HOUR"
    ONE_DAY = "ONE_DAY"
    ONE_MONTH = "ONE_MONTH"


class QuotaDetail(PolicyModel):
    """A per-value override of a quota (a ``detailList`` item)."""

    target_value: str = Field(description="The identity value this quota applies to (e.g. VIP).")
    regex_expression: bool = Field(False, description="Whether target_value is a regular expression.")
    message_count_for_interval: PositiveInt = Field(
        description="Requests allowed per interval for this value."
    )
    interval_period_length: PositiveInt = Field(1, description="How many intervals make one period.")
    quota_interval: QuotaInterval = Field(description="The interval: ONE_HOUR, ONE_DAY or ONE_MONTH.")


class ApiBasedQuotaPolicy(PolicyBase):
    """Limits the total requests a client (identified by a variable: API key, user ID, IP
    address) may make in an hour, a day or a month; throttling limits the rate, quota the count.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-api-based-quota.md
    """

    policy_type = "policy-api-based-quota"
    type: Literal["policy-api-based-quota"] = Field(
        "policy-api-based-quota", description="The policy type: policy-api-based-quota."
    )
    target_variable_for_identity: PolicyVariable = Field(description="The variable that identifies a client.")
    message_count_for_interval: PositiveInt = Field(
        description="The most requests a client may make in one period."
    )
    quota_interval: QuotaInterval = Field(description="The interval: ONE_HOUR, ONE_DAY or ONE_MONTH.")
    interval_period_length: PositiveInt = Field(1, description="How many intervals make one period.")
    interval_window_type: IntervalWindowType = Field(
        IntervalWindowType.FIXED,
        description="FIXED windows (a calendar day) or a SLIDING window (the last 24 hours).",
    )
    cache_connection_timeout_in_seconds: PositiveInt = Field(
        3, description="Seconds to wait for the counters' cache."
    )
    cache_error_handling_type: CacheErrorHandlingType = Field(
        CacheErrorHandlingType.FAIL,
        description="When the cache fails: FAIL the request or CONTINUE it (the quota is then not enforced).",
    )
    show_rate_limit_statistics_in_response_header: bool = Field(
        False, description="Add the quota statistics to the response headers."
    )
    detail_list: list[QuotaDetail] = Field(
        default_factory=list, description="Other quotas for given identity values."
    )


# -- IP lists ---------------------------------------------------------------------------------------


class BlackIpPolicy(PolicyBase):
    """Refuses requests from the listed IP addresses or CIDR ranges before they reach the backend.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-black-ip.md
    """

    policy_type = "policy-black-ip"
    type: Literal["policy-black-ip"] = Field(
        "policy-black-ip", description="The policy type: policy-black-ip."
    )
    target_variable_for_ip: PolicyVariable | None = Field(
        None,
        alias="targetVariableForIP",
        description="Where to read the client IP; left out: X-Forwarded-For, else the connection's address.",
    )
    ip_list: IpList = Field(description="The IP addresses or CIDR ranges refused (at least one).")


# -- client ban -------------------------------------------------------------------------------------


class ClientBanPolicy(PolicyBase):
    """Bans a client (identified by variables: API key, IP address, user ID) for a while once
    the messages matching ``assertion_condition`` pass a threshold within a window.

    The page documents this type's body flat (the policy's fields beside ``operationMetadata``)
    and its conditions as ``{criteria, rules}``; both are accepted.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-client-ban.md
    """

    policy_type = "policy-client-ban"
    type: Literal["policy-client-ban"] = Field(
        "policy-client-ban", description="The policy type: policy-client-ban."
    )
    client_identity_variable_list: list[PolicyVariable] = Field(
        min_length=1, description="The variables that identify a client (at least one)."
    )
    threshold_window_in_seconds: PositiveInt = Field(
        10, description="The window, in seconds, the threshold counts over."
    )
    threshold_count_per_window: PositiveInt = Field(
        1,
        description="Matching messages (COUNT) or their percentage (PERCENT) per window that ban the client.",
    )
    threshold_calculation_type: ErrorThresholdType = Field(
        ErrorThresholdType.COUNT, description="COUNT the matching messages or take their PERCENT of all."
    )
    ban_time_in_seconds: PositiveInt = Field(10, description="How long, in seconds, a client stays banned.")
    enable_retry_after_header: bool = Field(False, description="Send a Retry-After header in the ban answer.")
    ignore_when_key_is_empty: bool = Field(
        False, description="Do not count messages whose identity is empty."
    )
    assertion_condition: CriteriaCondition = Field(description="Which messages count towards the ban.")
    condition: CriteriaCondition | None = Field(
        None, description="When the policy runs, in the page's {criteria, rules} shape."
    )


# -- time restriction -------------------------------------------------------------------------------


class RestrictionType(StrEnum):
    """Whether the listed periods are the only ones allowed or the ones refused (EnumRestrictionType)."""

    ALLOW = "ALLOW"
    RESTRICT = "RESTRICT"


class DayType(StrEnum):
    """Whether a restriction names weekdays or a date (EnumDayType)."""

    WEEK = "WEEK"
    CUSTOM = "CUSTOM"


class WeekDays(StrEnum):
    """A day of the week, or ALL of them (EnumWeekDays)."""

    MONDAY = "MONDAY"
    TUESDAY = "TUESDAY"
    WEDNESDAY = "WEDNESDAY"
    THURSDAY = "THURSDAY"
    FRIDAY = "FRIDAY"
    SATURDAY = "SATURDAY"
    SUNDAY = "SUNDAY"
    ALL = "ALL"


_TIME_FIELDS = ("start_hour", "start_minute", "start_second", "end_hour", "end_minute", "end_second")


class TimeRestriction(PolicyModel):
    """A period of a time restriction (a ``restrictionList`` item): weekdays or a day of a month,
    the whole day or from a start to an end time."""

    hour_name: str | None = Field(None, description="A name for this period.")
    description: str | None = Field(None, description="What the period is.")
    day_type: DayType = Field(description="WEEK: the weekdays of enum_week_day_list; CUSTOM: day and month.")
    enum_week_day_list: list[WeekDays] | None = Field(
        None, description="The weekdays (required when day_type is WEEK)."
    )
    day: int | None = Field(
        None, ge=0, le=31, description="Day of the month, 0 for every day (day_type CUSTOM)."
    )
    month: int | None = Field(
        None, ge=0, le=12, description="Month, 1-12, 0 for every month (day_type CUSTOM)."
    )
    whole_day: bool = Field(False, description="The whole day; otherwise from the start to the end time.")
    start_hour: int | None = Field(
        None, ge=0, le=24, description="Start hour, 0-24 (required unless whole_day)."
    )
    start_minute: int | None = Field(
        None, ge=0, le=60, description="Start minute, 0-60 (required unless whole_day)."
    )
    start_second: int | None = Field(
        None, ge=0, le=60, description="Start second, 0-60 (required unless whole_day)."
    )
    end_hour: int | None = Field(None, ge=0, le=24, description="End hour, 0-24 (required unless whole_day).")
    end_minute: int | None = Field(
        None, ge=0, le=60, description="End minute, 0-60 (required unless whole_day)."
    )
    end_second: int | None = Field(
        None, ge=0, le=60, description="End second, 0-60 (required unless whole_day)."
    )

    @model_validator(mode="after")
    def _check_period(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        if self.day_type is DayType.WEEK:
            require_field(self, problems, "enum_week_day_list", "when day_type is WEEK")
        else:
            require_field(self, problems, "day", "when day_type is CUSTOM")
            require_field(self, problems, "month", "when day_type is CUSTOM")
        if not self.whole_day:
            for field in _TIME_FIELDS:
                require_field(self, problems, field, "when whole_day is false")
            if not problems:
                start = (self.start_hour, self.start_minute, self.start_second)
                end = (self.end_hour, self.end_minute, self.end_second)
                if start >= end:
                    problems.append(("end_hour", "the end time must come after the start time", end))
        raise_problems(self, problems)
        return self


class TimeRestrictionPolicy(PolicyBase):
    """Allows access only in, or refuses it in, the listed periods (weekdays, dates, time
    windows): maintenance windows, business hours.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-time-restriction.md
    """

    policy_type = "policy-time-restriction"
    type: Literal["policy-time-restriction"] = Field(
        "policy-time-restriction", description="The policy type: policy-time-restriction."
    )
    action_type: RestrictionType = Field(
        RestrictionType.RESTRICT, description="ALLOW access only in the periods, or RESTRICT it in them."
    )
    zone_id: ZoneId = Field(
        "+03:00",
        description="The periods' time zone: an offset (+03:00) or a Java zone ID (Europe/Istanbul).",
    )
    restriction_list: list[TimeRestriction] = Field(min_length=1, description="The periods (at least one).")


# -- message size -----------------------------------------------------------------------------------


class MaxMessageSizePolicy(PolicyBase):
    """Refuses messages larger than a size, before they are processed.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-max-message-size.md
    """

    policy_type = "policy-max-message-size"
    type: Literal["policy-max-message-size"] = Field(
        "policy-max-message-size", description="The policy type: policy-max-message-size."
    )
    max_message_size: PositiveInt = Field(description="The largest message allowed, in bytes.")


class MinMessageSizePolicy(PolicyBase):
    """Refuses messages smaller than a size, before they are processed.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-min-message-size.md
    """

    policy_type = "policy-min-message-size"
    type: Literal["policy-min-message-size"] = Field(
        "policy-min-message-size", description="The policy type: policy-min-message-size."
    )
    min_message_size: PositiveInt = Field(description="The smallest message allowed, in bytes.")


# -- API call ---------------------------------------------------------------------------------------


class PolicyRestApiCallType(StrEnum):
    """Whether an API call waits for its answer (EnumPolicyRestApiCallType)."""

    SYNCHRONOUS = "SYNCHRONOUS"
    ONE_WAY = "ONE_WAY"


class MessageTemplateContentType(StrEnum):
    """The content type of a message template (EnumMessageTemplateContentType)."""

    XML = "XML"
    JSON = "JSON"
    RAW = "RAW"
    URL_ENCODED = "URL_ENCODED"


class OriginalMessageOperationType(StrEnum):
    """What happens to the original body after the call (EnumOriginalMessageOperationType)."""

    NOT_CHANGE_BODY = "NOT_CHANGE_BODY"
    REPLACE_BODY = "REPLACE_BODY"
    CLEAR_BODY = "CLEAR_BODY"


class BodyContentSourceType(StrEnum):
    """Where a new body comes from (EnumBodyContentSourceType)."""

    VALUE = "VALUE"
    VARIABLE = "VARIABLE"


class ValueSource(StrEnum):
    """Whether a value is a constant or read from a variable (EnumValueSource)."""

    VALUE = "VALUE"
    VARIABLE = "VARIABLE"


class RestApiHeaderPrefix(StrEnum):
    """A prefix put before a header's value (EnumRestApiHeaderPrefix)."""

    NONE = "NONE"
    BASIC = "BASIC"
    BEARER = "BEARER"
    DIGEST = "DIGEST"


class RestApiDataManipulationDefOperation(StrEnum):
    """A data manipulation's operation (EnumRestApiDataManipulationDefOperation)."""

    ADD = "ADD"
    ADD_OR_EDIT = "ADD_OR_EDIT"
    DELETE = "DELETE"


def _value_or_variable(model: ApiCallParameter) -> list[tuple[str, str, Any]]:
    problems: list[tuple[str, str, Any]] = []
    if model.value_source is ValueSource.VALUE:
        require_field(model, problems, "value", "when value_source is VALUE")
    else:
        require_field(model, problems, "variable", "when value_source is VARIABLE")
    return problems


class ApiCallParameter(PolicyModel):
    """A parameter an API call adds (``parametersToBeAdded...List`` item): a constant or a
    variable's value."""

    name: str = Field(min_length=1, description="The parameter's name.")
    description: str | None = Field(None, description="What the parameter is.")
    value_source: ValueSource = Field(
        description="VALUE: the constant value; VARIABLE: the variable's value."
    )
    # Secret: the API-call page's examples put API keys here, and the header prefixes (BASIC,
    # BEARER, DIGEST) exist for credentials.
    value: str | None = SecretField(None, description="The value (required when value_source is VALUE).")
    variable: PolicyVariable | None = Field(
        None, description="The variable (required when value_source is VARIABLE)."
    )

    @model_validator(mode="after")
    def _check_source(self) -> Self:
        raise_problems(self, _value_or_variable(self))
        return self


class ApiCallHeader(ApiCallParameter):
    """A header an API call adds (``headersToBeAdded...List`` item), with an optional prefix
    (BASIC, BEARER, DIGEST) before its value."""

    prefix: RestApiHeaderPrefix | None = Field(
        None, description="A prefix before the value: NONE, BASIC, BEARER or DIGEST."
    )


class UrlEncodedParameter(PolicyModel):
    """A form parameter of an URL_ENCODED call body (``urlEncodedList`` item)."""

    key: str = Field(description="The form parameter's key.")
    value: str = SecretField(description="The form parameter's value (a secret: forms carry credentials).")
    description: str | None = Field(None, description="What the parameter is.")


class DataManipulation(PolicyModel):
    """A change made to the message before or after the call (``dataManipulationList...`` item)."""

    operation: RestApiDataManipulationDefOperation = Field(description="ADD, ADD_OR_EDIT or DELETE.")
    source_value_source: ValueSource | None = Field(
        None, description="VALUE or VARIABLE: where the source comes from."
    )
    source_var: PolicyVariable | None = Field(None, description="The source variable.")
    source_value: str | None = Field(None, description="The source value.")


_HeaderList = list[ApiCallHeader]
_ParameterList = list[ApiCallParameter]


class ApiCallPolicy(PolicyBase):
    """Calls an HTTP API during the message's processing, waiting for its answer (SYNCHRONOUS,
    which can be cached) or not (ONE_WAY); the message can be shaped before the call and
    changed with the answer after it.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-api-call.md
    """

    policy_type = "policy-api-call"
    type: Literal["policy-api-call"] = Field(
        "policy-api-call", description="The policy type: policy-api-call."
    )
    call_type: PolicyRestApiCallType = Field(
        description="SYNCHRONOUS waits for the answer; ONE_WAY does not."
    )
    http_method: HttpMethod = Field(description="The call's HTTP method.")
    url: str = Field(min_length=1, description="The URL called.")
    timeout: PositiveInt | None = Field(None, description="The call's timeout, in milliseconds.")
    certificate_name: str | None = Field(
        None, description="The certificate for mTLS (required when certificate_enabled)."
    )
    certificate_enabled: bool = Field(False, description="Call with an mTLS client certificate.")
    clear_body_before_call: bool = Field(False, description="Send an empty body.")
    use_message_template_before_call: bool = Field(
        True, description="Build the call's body from body_content_before_call."
    )
    enum_test_console_request_body_type: MessageTemplateContentType = Field(
        MessageTemplateContentType.XML,
        description="The call body's content type: XML, JSON, RAW or URL_ENCODED.",
    )
    body_content_before_call: str | None = Field(None, description="The call body's template.")
    url_encoded_list: list[UrlEncodedParameter] = Field(
        default_factory=list, description="Form parameters of an URL_ENCODED body."
    )
    data_manipulation_list_before_call: list[DataManipulation] = Field(
        default_factory=list, description="Changes made to the message before the call."
    )
    remove_all_headers_before_call: bool = Field(True, description="Send none of the message's headers.")
    headers_to_be_deleted_before_call_list: list[str] = Field(
        default_factory=list, description="Headers of the message not sent."
    )
    headers_to_be_added_before_call_list: _HeaderList = Field(
        default_factory=list, description="Headers sent with the call."
    )
    remove_all_parameters_before_call: bool = Field(
        True, description="Send none of the message's parameters."
    )
    parameters_to_be_deleted_before_call_list: list[str] = Field(
        default_factory=list, description="Parameters of the message not sent."
    )
    parameters_to_be_added_before_call_list: _ParameterList = Field(
        default_factory=list, description="Parameters sent with the call."
    )
    enable_cache: bool = Field(False, description="Cache the answers (SYNCHRONOUS calls only).")
    cache_by: PolicyVariable | None = Field(
        None, description="The cache key's variable; left out: the whole request."
    )
    capacity: PositiveInt | None = Field(
        None, description="The cache's capacity (required when enable_cache)."
    )
    ttl: PositiveInt | None = Field(
        None, description="Seconds an answer stays cached (required when enable_cache)."
    )
    cache_null_responses: bool = Field(True, description="Cache empty and error answers too.")
    cache_storage_type: CacheStorageType = Field(
        CacheStorageType.DISTRIBUTED, description="LOCAL (per node) or DISTRIBUTED (shared) cache."
    )
    after_call_body_operation_type: OriginalMessageOperationType | None = Field(
        None, description="What happens to the message's body: NOT_CHANGE_BODY, REPLACE_BODY or CLEAR_BODY."
    )
    use_message_template_after_call: bool = Field(
        True, description="Build the new body from body_content_after_call."
    )
    message_template_content_type_after_call: MessageTemplateContentType = Field(
        MessageTemplateContentType.XML, description="The new body's content type: XML, JSON or RAW."
    )
    body_content_after_call: str | None = Field(None, description="The new body's template.")
    data_manipulation_list_after_call: list[DataManipulation] = Field(
        default_factory=list, description="Changes made to the message after the call."
    )
    remove_all_headers_after_call: bool = Field(
        False, description="Remove the message's headers after the call."
    )
    headers_to_be_deleted_after_call_list: list[str] = Field(
        default_factory=list, description="Headers removed after the call."
    )
    headers_to_be_added_after_call_list: _HeaderList = Field(
        default_factory=list, description="Headers added after the call."
    )
    remove_all_parameters_after_call: bool = Field(
        False, description="Remove the message's parameters after the call."
    )
    parameters_to_be_deleted_after_call_list: list[str] = Field(
        default_factory=list, description="Parameters removed after the call."
    )
    parameters_to_be_added_after_call_list: _ParameterList = Field(
        default_factory=list, description="Parameters added after the call."
    )
    prepare_message: bool = Field(False, description="The page's prepareMessage flag.")
    modify_message: bool = Field(False, description="The page's modifyMessage flag.")
    new_body_content_source_type: BodyContentSourceType | None = Field(
        None, description="Where the new body comes from: VALUE or VARIABLE."
    )

    @model_validator(mode="after")
    def _check_call(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        if self.enable_cache:
            require_field(self, problems, "capacity", "when enable_cache is true")
            require_field(self, problems, "ttl", "when enable_cache is true")
            if self.call_type is not PolicyRestApiCallType.SYNCHRONOUS:
                problems.append(
                    ("call_type", "call_type must be SYNCHRONOUS when enable_cache is true", self.call_type)
                )
        if self.certificate_enabled:
            require_field(self, problems, "certificate_name", "when certificate_enabled is true")
        raise_problems(self, problems)
        return self


# -- business rule ----------------------------------------------------------------------------------


class ActionType(StrEnum):
    """What a business rule action does (EnumActionType)."""

    ADD = "ADD"
    MODIFY = "MODIFY"
    DELETE = "DELETE"
    STOP = "STOP"


class ActionSourceDataType(StrEnum):
    """How a MODIFY action reads its source (EnumActionSourceDataType)."""

    STRING = "STRING"
    NUMERIC = "NUMERIC"
    TEMPORAL = "TEMPORAL"


class ActionSourceValueModificationOperator(StrEnum):
    """How a MODIFY action changes the value (EnumActionSourceValueModificationOperator)."""

    ADD = "ADD"
    SUBTRACT = "SUBTRACT"
    MULTIPLY = "MULTIPLY"
    DIVIDE = "DIVIDE"
    MODULUS = "MODULUS"
    POWER = "POWER"
    CONCAT = "CONCAT"
    REPLACE_IN = "REPLACE_IN"
    REPLACE_WITH = "REPLACE_WITH"
    REPLACE_FIRST = "REPLACE_FIRST"
    SUBSTRING = "SUBSTRING"
    MASK = "MASK"
    FORMAT = "FORMAT"
    TRANSFORM = "TRANSFORM"
    INSERT = "INSERT"
    TRIM = "TRIM"
    ENCODE = "ENCODE"
    DECODE = "DECODE"
    URL_ENCODE = "URL_ENCODE"
    URL_DECODE = "URL_DECODE"
    EXTRACT_JWT_HEADER_CLAIM = "EXTRACT_JWT_HEADER_CLAIM"
    EXTRACT_JWT_BODY_CLAIM = "EXTRACT_JWT_BODY_CLAIM"
    ADD_TEMPORAL = "ADD_TEMPORAL"
    SUBTRACT_TEMPORAL = "SUBTRACT_TEMPORAL"


class TransformationContentType(StrEnum):
    """The transformation of a TRANSFORM action (EnumTransformationContentType)."""

    XSLT = "XSLT"
    JOLT = "JOLT"
    XML2JSON = "XML2JSON"
    JSON2XML = "JSON2XML"


class TimeUnit(StrEnum):
    """The unit of a temporal operation (EnumTimeUnit)."""

    MILLISECOND = "MILLISECOND"
    SECOND = "SECOND"
    MINUTE = "MINUTE"
    HOUR = "HOUR"
    DAY = "DAY"
    WEEK = "WEEK"
    MONTH = "MONTH"
    YEAR = "YEAR"


#: The operator-specific fields the page's "Operator-Specific Fields" requires.
_OPERATOR_FIELDS = {
    ActionSourceValueModificationOperator.SUBSTRING: ("substring_from",),
    ActionSourceValueModificationOperator.MASK: ("mask_from",),
    ActionSourceValueModificationOperator.INSERT: ("insert_offset",),
    ActionSourceValueModificationOperator.TRANSFORM: ("transformation_content_type",),
    ActionSourceValueModificationOperator.ADD_TEMPORAL: (
        "temporal_operator_time_unit",
        "source_temporal_format",
    ),
    ActionSourceValueModificationOperator.SUBTRACT_TEMPORAL: (
        "temporal_operator_time_unit",
        "source_temporal_format",
    ),
}


class BusinessRuleAction(PolicyModel):
    """One action of a business rule (an ``actionList`` item).

    ADD needs ``source_var``, ``target_val_source`` and ``target_var``; MODIFY ``source_var``,
    ``source_data_type`` and ``target_val_source``, and an operator's own fields when it names
    one (the pages call ``operator`` required for MODIFY, but the redaction page's example
    modifies without one, replacing the value: it is accepted); DELETE ``source_var``; STOP
    nothing. The page's requirements name the constant
    ``targetVal``, its examples ``targetValue``: both are accepted.
    """

    action_type: ActionType = Field(description="ADD, MODIFY, DELETE or STOP.")
    source_var: PolicyVariable | None = Field(None, description="The source variable (ADD, MODIFY, DELETE).")
    source_var_body_injection_field_name: str | None = Field(
        None, description="The body field to inject into."
    )
    source_data_type: ActionSourceDataType | None = Field(
        None, description="How the source is read: STRING, NUMERIC or TEMPORAL (required for MODIFY)."
    )
    source_temporal_format: str | None = Field(None, description="The date format of a TEMPORAL source.")
    operator: ActionSourceValueModificationOperator | None = Field(
        None, description="How MODIFY changes the value; left out, MODIFY sets the target value."
    )
    substring_from: int | None = Field(None, ge=0, description="SUBSTRING's start index.")
    substring_to: int | None = Field(None, ge=0, description="SUBSTRING's end index.")
    mask_from: int | None = Field(None, ge=0, description="MASK's start index.")
    mask_to: int | None = Field(None, ge=0, description="MASK's end index.")
    replace_source: str | None = Field(None, description="The pattern REPLACE_IN/REPLACE_WITH replace.")
    insert_offset: int | None = Field(None, ge=0, description="INSERT's offset.")
    temporal_operator_time_unit: TimeUnit | None = Field(
        None, description="The unit of a temporal operation."
    )
    replace_first: str | None = Field(None, description="The pattern REPLACE_FIRST replaces.")
    transformation_content_type: TransformationContentType | None = Field(
        None, description="TRANSFORM's transformation: XSLT, JOLT, XML2JSON or JSON2XML."
    )
    format_allows_invalid: bool = Field(False, description="FORMAT allows invalid characters.")
    format_value_contains_literal_characters: bool = Field(
        False, description="FORMAT's value holds literal characters."
    )
    format_invalid_characters: str | None = Field(None, description="FORMAT's invalid characters.")
    format_placeholder: str | None = Field(None, description="FORMAT's placeholder.")
    json_to_xml_ignore_null: bool = Field(False, description="JSON to XML: leave out nulls.")
    json_to_xml_ignore_empty: bool = Field(False, description="JSON to XML: leave out empty values.")
    json_to_xml_use_null_for_nil: bool = Field(False, description="JSON to XML: null for nil.")
    json_to_xml_unwrap_element: bool = Field(False, description="JSON to XML: unwrap the element.")
    xml_to_json_unwrap_element: bool = Field(False, description="XML to JSON: unwrap the element.")
    xml_to_json_ignore_null: bool = Field(False, description="XML to JSON: leave out nulls.")
    xml_to_json_ignore_empty: bool = Field(False, description="XML to JSON: leave out empty values.")
    xml_to_json_numbers_as_strings: bool = Field(False, description="XML to JSON: numbers as strings.")
    xml_to_json_use_null_for_nil: bool = Field(False, description="XML to JSON: null for nil.")
    xml_to_json_array_path_list: list[str] = Field(
        default_factory=list, description="XML to JSON: the paths that are arrays."
    )
    claim_json_path: str | None = Field(None, description="The JSON path of the JWT claim extracted.")
    target_val_source: ValueSource | None = Field(
        None, description="Where the new value comes from: VALUE or VARIABLE (required for ADD and MODIFY)."
    )
    target_var: PolicyVariable | None = Field(None, description="The target variable (required for ADD).")
    target_val: str | None = Field(
        None, description="The constant value (target_val_source VALUE), as the requirements name it."
    )
    target_value: str | None = Field(None, description="The constant value, as the page's examples name it.")

    @model_validator(mode="after")
    def _check_action(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        kind = self.action_type
        why = f"when action_type is {kind.value}"
        if kind in (ActionType.ADD, ActionType.MODIFY, ActionType.DELETE):
            require_field(self, problems, "source_var", why)
        if kind is ActionType.ADD:
            require_field(self, problems, "target_val_source", why)
            require_field(self, problems, "target_var", why)
        if kind is ActionType.MODIFY:
            require_field(self, problems, "source_data_type", why)
            require_field(self, problems, "target_val_source", why)
            operator = self.operator
            if operator is not None:
                for field in _OPERATOR_FIELDS.get(operator, ()):
                    require_field(self, problems, field, f"when operator is {operator.value}")
        if (
            kind in (ActionType.ADD, ActionType.MODIFY)
            and self.target_val_source is ValueSource.VALUE
            and self.target_val is None
            and self.target_value is None
        ):
            problems.append(("target_val", "target_val is required when target_val_source is VALUE", None))
        raise_problems(self, problems)
        return self


class BusinessRulePolicy(PolicyBase):
    """Runs business actions on the message: ADD, MODIFY (arithmetic, string, temporal and
    transformation operators), DELETE values, or STOP the flow; logic without code.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-business-rule.md
    """

    policy_type = "policy-business-rule"
    type: Literal["policy-business-rule"] = Field(
        "policy-business-rule", description="The policy type: policy-business-rule."
    )
    action_list: list[BusinessRuleAction] = Field(
        min_length=1, description="The actions, in order (at least one)."
    )


# -- group ------------------------------------------------------------------------------------------


class GroupPolicy(PolicyBase):
    """A container that groups policies as one unit. The page says the type is under development
    and documents no fields of its own beyond ``condition`` (its ``{criteria, rules}`` shape).

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-group.md
    """

    policy_type = "policy-group"
    type: Literal["policy-group"] = Field("policy-group", description="The policy type: policy-group.")
    condition: CriteriaCondition | None = Field(
        None, description="When the group runs, in the page's {criteria, rules} shape."
    )


__all__ = sorted(
    name
    for name, value in dict(globals()).items()
    if not name.startswith("_") and isinstance(value, type) and value.__module__ == __name__
)
