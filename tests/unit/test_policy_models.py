"""The policy models against every JSON example of the product's policy pages (the 43 type pages
and the CRUD pages, copied into ``data/policy_doc_examples.json`` by ``tests/_documented_policies.py``),
and the checks the examples do not show: bad enums, missing fields, condition rules without their
operands, unknown fields, secrets."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, ClassVar, Literal

import pydantic
import pytest

import _documented_policies as documented
from _documented_bodies import assert_contained, without_nulls
from apinizer_pulumi import models
from apinizer_pulumi.models import (
    POLICY_TYPES,
    ApiBasedThrottlingPolicy,
    ConditionRule,
    PolicyBase,
    PolicyCondition,
    PolicyOperationMetadata,
    ProxyPolicyList,
    SecretField,
    TimeRestrictionPolicy,
    UnknownPolicyTypeError,
    WhiteIpPolicy,
    parse_policy,
    split_write_body,
    unknown_fields,
)

PAGES = documented.load()
TYPE_PAGES = documented.type_pages()

#: The type pages whose type has no model yet. polsecurity empties it as it models them; a page
#: listed here whose type is modelled fails the test, so the set cannot go stale.
NOT_YET_MODELLED: set[str] = set()

#: Blocks that are not JSON in the pages ("deploymentResults": [...]): named so none is missed.
NOT_JSON = {
    "02-api-reference/05-policies/policies/policy-client-ban.md#6",
    "02-api-reference/05-policies/policies/policy-client-ban.md#7",
    "02-api-reference/05-policies/policies/policy-group.md#4",
    "02-api-reference/05-policies/policies/policy-group.md#5",
}
#: JSON blocks that are no API body: the JSON Schema the page shows as schemaBody's format.
NOT_API_BODIES = {"02-api-reference/05-policies/policies/policy-json-schema-validation.md#2"}
#: List answers whose entries are abbreviated ("policy details may be simplified in list
#: responses"): a modelled type's entry may lack its required fields and is read as a PolicyEntry.
ABBREVIATED_LISTS = {
    "02-api-reference/05-policies/crud/list-policies.md",
    # The security pages' list answers leave out the secrets (password: null) and what holds
    # them (apiAuthCondExpressionList), or required fields (encryption's and decryption's
    # definitions, OIDC's redirectUri): their entries are read as PolicyEntry (docs/limits.md).
    "02-api-reference/05-policies/policies/policy-api-authentication.md",
    "02-api-reference/05-policies/policies/policy-decryption.md",
    "02-api-reference/05-policies/policies/policy-encryption.md",
    "02-api-reference/05-policies/policies/policy-oidc.md",
    "02-api-reference/05-policies/policies/policy-ws-security-to-target.md",
    "02-api-reference/05-policies/policies/policy-ws-security-username.md",
}


def _round_trip_policy(data: dict[str, Any], where: str) -> PolicyBase:
    policy = parse_policy(data)
    # Every documented field is a declared field, not an unknown one merely kept.
    assert unknown_fields(policy) == [], f"{where}: undeclared fields {unknown_fields(policy)}"
    dumped = policy.model_dump(by_alias=True, exclude_none=True)
    assert_contained(without_nulls(data), dumped, where)
    # And what comes out reads back as the same policy.
    assert parse_policy(dumped) == policy, where
    return policy


def _replay(page: str, index: int, example: dict[str, Any]) -> set[str]:
    """Validate and round-trip one example; the policy types it holds."""
    where = f"{page}#{index}"
    body = example["body"]
    kind = documented.kind_of(body)
    types: set[str] = set()
    if kind in ("write", "flat-write"):
        metadata, policy = split_write_body(body)
        parsed = PolicyOperationMetadata.model_validate(metadata)
        assert_contained(without_nulls(metadata), parsed.to_api(), where)
        types.add(policy["type"])
        if policy["type"] in POLICY_TYPES:
            _round_trip_policy(policy, where)
    elif kind == "delete":
        parsed = PolicyOperationMetadata.model_validate(body["operationMetadata"])
        assert_contained(without_nulls(body["operationMetadata"]), parsed.to_api(), where)
    elif kind == "answer":
        answer = models.PolicyDeploymentResult.model_validate(body)
        assert_contained(without_nulls(body), answer.model_dump(by_alias=True, exclude_none=True), where)
    elif kind == "error":
        error = models.ApiErrorBody.model_validate(body)
        assert error.error and error.error_description, where
    elif kind == "list":
        listed = ProxyPolicyList.model_validate(body)
        entries = documented.listed_policies(body)
        proxy = listed.result_list[0]
        read = [*proxy.request_policy_list, *proxy.response_policy_list, *proxy.error_policy_list]
        for endpoint in proxy.endpoint_list:
            read += [
                *endpoint.request_policy_list,
                *endpoint.response_policy_list,
                *endpoint.error_policy_list,
            ]
        assert len(read) == len(entries), where
        for entry, model in zip(entries, read, strict=True):
            types.add(entry["type"])
            if entry["type"] in POLICY_TYPES and page not in ABBREVIATED_LISTS:
                assert isinstance(model, POLICY_TYPES[entry["type"]]), where
                _round_trip_policy(entry, where)
            else:
                assert model.type == entry["type"], where
    elif kind == "policy":
        types.add(body["type"])
        if body["type"] in POLICY_TYPES:
            _round_trip_policy(body, where)
    else:
        raise AssertionError(f"{where}: an example of no known shape: {sorted(body)}")
    return types


def _examples(page: str) -> list[tuple[int, dict[str, Any]]]:
    found = []
    for index, example in enumerate(PAGES[page]):
        key = f"{page}#{index}"
        if "text" in example:
            assert key in NOT_JSON, f"{key} is not JSON: {example['text'][:80]!r}"
            continue
        if key in NOT_API_BODIES:
            continue
        found.append((index, example))
    return found


def test_the_copy_holds_every_page_of_the_family() -> None:
    assert len(TYPE_PAGES) == 43
    crud = {Path(page).name for page in PAGES if page.startswith(documented.CRUD_PAGES_DIR)}
    assert {"add-policy.md", "update-policy.md", "delete-policy.md", "list-policies.md"} <= crud
    assert all(f"{key.split('#')[0]}" in PAGES for key in NOT_JSON | NOT_API_BODIES)


@pytest.mark.parametrize("policy_type", sorted(TYPE_PAGES))
def test_every_example_of_every_type_page_validates_and_round_trips(policy_type: str) -> None:
    page = f"{documented.TYPE_PAGES_DIR}{policy_type}.md"
    examples = _examples(page)
    assert examples, f"{page} has no JSON example"
    seen: set[str] = set()
    for index, example in examples:
        seen |= _replay(page, index, example)
    assert policy_type in seen, f"{page}'s examples hold no {policy_type} policy"
    if policy_type in NOT_YET_MODELLED:
        assert policy_type not in POLICY_TYPES, f"{policy_type} is modelled: remove it from NOT_YET_MODELLED"
        with pytest.raises(UnknownPolicyTypeError, match=policy_type):
            parse_policy({"type": policy_type})
    else:
        assert policy_type in POLICY_TYPES, f"{policy_type} has no model: list it in NOT_YET_MODELLED"


@pytest.mark.parametrize(
    "page", sorted(p for p in PAGES if p.startswith(documented.CRUD_PAGES_DIR) and PAGES[p])
)
def test_every_example_of_the_crud_pages_validates_and_round_trips(page: str) -> None:
    for index, example in _examples(page):
        _replay(page, index, example)


# -- the types themselves ---------------------------------------------------------------------------


@pytest.mark.parametrize("policy_type", sorted(POLICY_TYPES))
def test_every_type_is_documented_from_its_page(policy_type: str) -> None:
    model = POLICY_TYPES[policy_type]
    assert model.policy_type == policy_type
    assert model.model_fields["type"].default == policy_type
    assert model.__name__ == "".join(part.capitalize() for part in policy_type.split("-")[1:]) + "Policy"
    source = f"Source: https://github.com/apinizer/management-api-docs/blob/main/{documented.TYPE_PAGES_DIR}{policy_type}.md"
    assert source in inspect.getdoc(model).replace("\n", " "), model.__name__  # type: ignore[union-attr]
    undescribed = [name for name, info in _all_fields(model) if not info.description]
    assert undescribed == [], f"{model.__name__}: fields without a description: {undescribed}"


def _all_fields(model: type[pydantic.BaseModel], prefix: str = "") -> list[tuple[str, Any]]:
    fields: list[tuple[str, Any]] = []
    for name, info in model.model_fields.items():
        fields.append((prefix + name, info))
        for nested in _nested(info.annotation):
            if nested is not model:
                fields.extend(_all_fields(nested, f"{prefix}{name}."))
    return fields


def _nested(annotation: Any) -> list[type[pydantic.BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, models.ApiModel):
        return [annotation]
    return [m for argument in getattr(annotation, "__args__", ()) for m in _nested(argument)]


def test_the_registry_and_the_union_agree() -> None:
    adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(models.AnyPolicy)
    ours = {
        t for t, m in POLICY_TYPES.items() if m.__module__.endswith(("_policy_traffic", "_policy_message"))
    }
    assert ours == set(MINIMAL)
    for policy_type, body in MINIMAL.items():
        parsed = adapter.validate_python({"type": policy_type, **body})
        assert type(parsed) is POLICY_TYPES[policy_type]
        assert parse_policy({"type": policy_type, **body}) == parsed


_VARIABLE = {"type": "HEADER", "headerName": "X-Key"}
#: The smallest valid body of each traffic and message type (the security types add theirs).
MINIMAL: dict[str, dict[str, Any]] = {
    "policy-api-based-quota": {
        "targetVariableForIdentity": _VARIABLE,
        "messageCountForInterval": 1,
        "quotaInterval": "ONE_DAY",
    },
    "policy-api-based-throttling": {
        "targetVariableForIdentity": _VARIABLE,
        "messageCountForInterval": 1,
        "throttlingInterval": "ONE_SECOND",
    },
    "policy-api-call": {"callType": "ONE_WAY", "httpMethod": "GET", "url": "https://x.test/"},
    "policy-black-ip": {"ipList": ["10.0.0.1"]},
    "policy-white-ip": {"ipList": ["10.0.0.1"]},
    "policy-business-rule": {"actionList": [{"actionType": "STOP"}]},
    "policy-client-ban": {
        "clientIdentityVariableList": [_VARIABLE],
        "assertionCondition": {"criteria": "ALWAYS"},
    },
    "policy-content-filter": {
        "policyContentFilterDefList": [{"name": "n", "ruleValue": "x", "bodyActive": True}]
    },
    "policy-group": {},
    "policy-json-schema-validation": {"pathForBody": "$", "schemaDefinitionList": [{"schemaBody": "{}"}]},
    "policy-json-transformation": {"transformationType": "JSON2XML"},
    "policy-max-message-size": {"maxMessageSize": 10},
    "policy-min-message-size": {"minMessageSize": 1},
    "policy-redaction": {
        "redactionDefList": [
            {
                "redactionType": "USER",
                "redactionDefDetailList": [
                    {"orderNum": 1, "action": {"actionType": "DELETE", "sourceVar": _VARIABLE}}
                ],
            }
        ]
    },
    "policy-request-protocol-transformation": {},
    "policy-response-protocol-transformation": {},
    "policy-script": {"scriptLanguage": "GROOVY", "scriptBody": "x"},
    "policy-time-restriction": {
        "restrictionList": [{"dayType": "WEEK", "enumWeekDayList": ["ALL"], "wholeDay": True}]
    },
    "policy-xml-schema-validation": {"validateAgainstSpec": True},
    "policy-xml-transformation": {"transformationType": "XML2JSON"},
}


# -- errors name the field --------------------------------------------------------------------------


def _locations(exc: pydantic.ValidationError) -> list[str]:
    return [".".join(str(part) for part in error["loc"]) for error in exc.errors()]


def test_an_unknown_type_names_it_and_the_known_ones() -> None:
    with pytest.raises(UnknownPolicyTypeError) as caught:
        parse_policy({"type": "policy-nope"})
    assert "'policy-nope'" in str(caught.value) and "policy-white-ip" in str(caught.value)
    with pytest.raises(UnknownPolicyTypeError, match="no type"):
        parse_policy({"ipList": ["10.0.0.1"]})


def test_a_bad_enum_names_the_field_and_the_allowed_values() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy(
            {
                "type": "policy-api-based-throttling",
                **MINIMAL["policy-api-based-throttling"],
                "throttlingInterval": "ONE_WEEK",
            }
        )
    assert _locations(caught.value) == ["throttling_interval"]
    assert "ONE_SECOND" in str(caught.value)


def test_a_missing_required_field_is_named() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy({"type": "policy-script", "scriptBody": "x"})
    assert _locations(caught.value) == ["script_language"]
    with pytest.raises(pydantic.ValidationError) as caught:
        WhiteIpPolicy.model_validate({"ipList": []})
    assert _locations(caught.value) == ["ip_list"]


def test_unknown_fields_are_kept_on_reads_and_named_for_writes() -> None:
    policy = parse_policy(
        {
            "type": "policy-white-ip",
            "ipList": ["10.0.0.1"],
            "newField": 1,
            "targetVariableForIP": {"type": "HEADER", "headerName": "X-Real-IP", "other": True},
        }
    )
    assert policy.to_api()["newField"] == 1
    assert unknown_fields(policy) == ["newField", "target_variable_for_ip.other"]


def test_error_messages_keep_every_field_the_docs_leave_unlisted() -> None:
    policy = parse_policy(
        {"type": "policy-black-ip", "ipList": ["10.0.0.1"], "errorMessageList": [{"code": "X", "text": "t"}]}
    )
    assert unknown_fields(policy) == []
    assert policy.to_api()["errorMessageList"] == [{"code": "X", "text": "t"}]


def test_type_specific_rules_name_the_field() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        TimeRestrictionPolicy.model_validate(
            {"restrictionList": [{"dayType": "CUSTOM", "day": 1, "wholeDay": False, "startHour": 9}]}
        )
    locations = _locations(caught.value)
    assert "restriction_list.0.month" in locations and "restriction_list.0.end_second" in locations
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy(
            {
                "type": "policy-api-call",
                "callType": "ONE_WAY",
                "httpMethod": "GET",
                "url": "u",
                "enableCache": True,
            }
        )
    assert _locations(caught.value) == ["capacity", "ttl", "call_type"]
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy({"type": "policy-json-transformation"})
    assert _locations(caught.value) == ["jolt_value"]


# -- conditions -------------------------------------------------------------------------------------

HEADER = {"type": "HEADER", "headerName": "X-User-Type"}


def test_a_value_rule_without_its_operands_names_each() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        ConditionRule.model_validate({"conditionCriteria": "VALUE"})
    assert _locations(caught.value) == [
        "first_variable",
        "variable_data_type",
        "value_comparison_operator",
        "second_value_source",
    ]


def test_the_second_operand_follows_its_source() -> None:
    base = {
        "conditionCriteria": "VALUE",
        "firstVariable": HEADER,
        "variableDataType": "STRING",
        "valueComparisonOperator": "EQ",
    }
    with pytest.raises(pydantic.ValidationError) as caught:
        ConditionRule.model_validate({**base, "secondValueSource": "VARIABLE", "secondValue": "x"})
    assert _locations(caught.value) == ["second_variable"]
    with pytest.raises(pydantic.ValidationError) as caught:
        ConditionRule.model_validate({**base, "secondValueSource": "VALUE"})
    assert _locations(caught.value) == ["second_value"]
    # The existence tests need no second operand.
    rule = ConditionRule.model_validate({**base, "valueComparisonOperator": "IS_EXISTS"})
    assert rule.second_value_source is None


def test_a_date_rule_needs_its_format() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        ConditionRule.model_validate(
            {
                "conditionCriteria": "VALUE",
                "firstVariable": HEADER,
                "variableDataType": "DATE",
                "valueComparisonOperator": "LT",
                "secondValueSource": "VALUE",
                "secondValue": "2026-01-01",
            }
        )
    assert _locations(caught.value) == ["date_format"]


def test_a_nested_rule_lacking_operands_is_refused_naming_its_path() -> None:
    body = {
        "type": "policy-white-ip",
        "ipList": ["10.0.0.1"],
        "policyCondition": {
            "conditionRuleList": [
                {
                    "conditionCriteria": "OR",
                    "conditionRuleList": [
                        {
                            "conditionCriteria": "NOT",
                            "conditionRuleList": [
                                {
                                    "conditionCriteria": "VALUE",
                                    "firstVariable": HEADER,
                                    "variableDataType": "STRING",
                                    "valueComparisonOperator": "EQ",
                                    "secondValueSource": "VALUE",
                                }
                            ],
                        }
                    ],
                }
            ]
        },
    }
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy(body)
    assert _locations(caught.value) == [
        "policy_condition.condition_rule_list.0.condition_rule_list.0.condition_rule_list.0.second_value"
    ]


def test_and_or_not_need_their_nested_rules() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        PolicyCondition.model_validate({"conditionRuleList": [{"conditionCriteria": "AND"}]})
    assert _locations(caught.value) == ["condition_rule_list.0.condition_rule_list"]
    value = {
        "conditionCriteria": "VALUE",
        "firstVariable": HEADER,
        "variableDataType": "STRING",
        "valueComparisonOperator": "IS_EMPTY",
    }
    with pytest.raises(pydantic.ValidationError, match="exactly one rule"):
        ConditionRule.model_validate({"conditionCriteria": "NOT", "conditionRuleList": [value, value]})


@pytest.mark.parametrize("data_type", ["STRING", "NUMERIC", "NUMBER", "DATE", "BOOLEAN"])
def test_every_documented_data_type_is_accepted(data_type: str) -> None:
    rule = ConditionRule.model_validate(
        {
            "conditionCriteria": "VALUE",
            "firstVariable": HEADER,
            "variableDataType": data_type,
            "dateFormat": "yyyy-MM-dd",
            "valueComparisonOperator": "EQ",
            "secondValueSource": "VALUE",
            "secondValue": "1",
        }
    )
    assert rule.variable_data_type == data_type


def test_a_condition_variable_checks_its_type_fields() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        ConditionRule.model_validate(
            {
                "conditionCriteria": "VALUE",
                "firstVariable": {"type": "HEADER"},
                "variableDataType": "STRING",
                "valueComparisonOperator": "IS_EXISTS",
            }
        )
    assert _locations(caught.value) == ["first_variable.header_name"]


# -- operation metadata -----------------------------------------------------------------------------


def test_endpoint_scope_needs_the_endpoint_and_its_method() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        PolicyOperationMetadata(target_scope="ENDPOINT", target_pipeline="REQUEST")  # type: ignore[arg-type]
    assert _locations(caught.value) == ["target_endpoint", "target_endpoint_http_method"]
    metadata = PolicyOperationMetadata.model_validate(
        {
            "targetScope": "ENDPOINT",
            "targetEndpoint": "/users",
            "targetEndpointHTTPMethod": "GET",
            "targetPipeline": "REQUEST",
        }
    )
    assert metadata.to_api()["targetEndpointHTTPMethod"] == "GET"


def test_metadata_refuses_unknown_fields_and_bad_values_by_name() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        PolicyOperationMetadata.model_validate({"targetScope": "ALL", "targetPipeline": "LATER", "extra": 1})
    assert sorted(_locations(caught.value)) == ["extra", "target_pipeline"]
    with pytest.raises(pydantic.ValidationError) as caught:
        PolicyOperationMetadata.model_validate(
            {"targetScope": "ALL", "targetPipeline": "REQUEST", "order": 0}
        )
    assert _locations(caught.value) == ["order"]


# -- secrets ----------------------------------------------------------------------------------------


class _Credentials(models.PolicyModel):
    user: str = pydantic.Field(description="User.")
    password: str = SecretField(description="Password.")


class _SecretHoldingPolicy(PolicyBase):
    """A type for the test only (the registry collects the three type modules, not this one)."""

    policy_type: ClassVar[str] = "policy-test-secret"
    type: Literal["policy-test-secret"] = pydantic.Field("policy-test-secret", description="Type.")
    client_secret: str | None = SecretField(None, description="Secret.")
    credentials: _Credentials | None = pydantic.Field(None, description="Nested.")
    credential_list: list[_Credentials] = pydantic.Field(default_factory=list, description="Nested list.")


def test_secret_fields_are_listed_and_never_in_repr() -> None:
    assert _SecretHoldingPolicy.secret_fields() == (
        "client_secret",
        "credentials.password",
        "credential_list.password",
    )
    policy = _SecretHoldingPolicy(
        client_secret="top-secret-1",
        credentials=_Credentials(user="u", password="top-secret-2"),
        credential_list=[_Credentials(user="v", password="top-secret-3")],
    )
    shown = repr(policy) + str(policy)
    assert "top-secret" not in shown and "user='u'" in shown
    # The JSON round-trips: the value is a plain string, not a SecretStr.
    assert policy.to_api()["credentials"]["password"] == "top-secret-2"
    assert _SecretHoldingPolicy.model_json_schema()["properties"]["clientSecret"]["x-secret"] is True
    assert "policy-test-secret" not in POLICY_TYPES


def test_unknown_fields_show_only_their_names_in_repr() -> None:
    policy = parse_policy({"type": "policy-white-ip", "ipList": ["10.0.0.1"], "apiKey": "never-shown"})
    assert "never-shown" not in repr(policy) and "apiKey" in repr(policy)


def test_the_api_call_values_are_its_only_secrets() -> None:
    secrets = {
        policy_type: model.secret_fields()
        for policy_type, model in POLICY_TYPES.items()
        if model.__module__.endswith(("_policy_traffic", "_policy_message")) and model.secret_fields()
    }
    assert secrets == {
        "policy-api-call": (
            "url_encoded_list.value",
            "headers_to_be_added_before_call_list.value",
            "parameters_to_be_added_before_call_list.value",
            "headers_to_be_added_after_call_list.value",
            "parameters_to_be_added_after_call_list.value",
        )
    }
    call = parse_policy(
        {
            "type": "policy-api-call",
            "callType": "ONE_WAY",
            "httpMethod": "GET",
            "url": "https://x.test/",
            "headersToBeAddedBeforeCallList": [
                {"name": "Authorization", "valueSource": "VALUE", "value": "tok-123", "prefix": "BEARER"}
            ],
        }
    )
    assert "tok-123" not in repr(call)
    assert call.to_api()["headersToBeAddedBeforeCallList"][0]["value"] == "tok-123"


def test_every_traffic_and_message_type_is_modelled() -> None:
    ours = {t for t in TYPE_PAGES if t not in NOT_YET_MODELLED}
    assert len(ours) == 43 and ours <= set(POLICY_TYPES)


def test_throttling_defaults_are_the_documented_ones() -> None:
    policy = ApiBasedThrottlingPolicy.model_validate(
        {
            "targetVariableForIdentity": HEADER,
            "messageCountForInterval": 5,
            "throttlingInterval": "ONE_MINUTE",
        }
    )
    assert (
        policy.interval_period_length,
        policy.interval_window_type,
        policy.cache_connection_timeout_in_seconds,
    ) == (1, "FIXED", 3)
    assert (policy.cache_error_handling_type, policy.show_rate_limit_statistics_in_response_header) == (
        "FAIL",
        False,
    )
    assert policy.active is True and policy.detail_list == []


def test_the_unknown_type_error_pickles() -> None:
    # Errors cross the Pulumi provider's process boundary.
    import pickle

    with pytest.raises(UnknownPolicyTypeError) as caught:
        parse_policy({"type": "policy-nope"})
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is UnknownPolicyTypeError and str(copy) == str(caught.value)


@pytest.mark.parametrize("policy_type", ["policy-white-ip", "policy-black-ip"])
def test_ip_lists_take_addresses_and_ranges_and_name_the_bad_entry(policy_type: str) -> None:
    good = ["10.0.0.1", "10.0.0.0/8", "2001:db8::1", "2001:db8::/32"]
    assert parse_policy({"type": policy_type, "ipList": good}).to_api()["ipList"] == good  # type: ignore[index]
    with pytest.raises(pydantic.ValidationError, match=r"'10\.0\.0\.300' is not an IP address") as caught:
        parse_policy({"type": policy_type, "ipList": ["10.0.0.1", "10.0.0.300"]})
    assert _locations(caught.value) == ["ip_list"]


@pytest.mark.parametrize("zone", ["+03:00", "-05:00", "Z", "UTC", "UTC+3", "Europe/Istanbul"])
def test_time_restriction_zones_are_java_zone_ids(zone: str) -> None:
    restriction = {"dayType": "WEEK", "enumWeekDayList": ["MONDAY"], "wholeDay": True}
    assert (
        TimeRestrictionPolicy.model_validate({"zoneId": zone, "restrictionList": [restriction]}).zone_id
        == zone
    )


def test_a_zone_that_is_no_java_zone_id_is_refused() -> None:
    restriction = {"dayType": "WEEK", "enumWeekDayList": ["MONDAY"], "wholeDay": True}
    with pytest.raises(pydantic.ValidationError) as caught:
        TimeRestrictionPolicy.model_validate({"zoneId": "Mars/Olympus", "restrictionList": [restriction]})
    assert _locations(caught.value) == ["zone_id"]


def test_schema_bodies_must_parse_as_their_language() -> None:
    with pytest.raises(pydantic.ValidationError, match="not JSON") as caught:
        parse_policy(
            {
                "type": "policy-json-schema-validation",
                "pathForBody": "$",
                "schemaDefinitionList": [{"schemaBody": "{'type': 'object'}"}],
            }
        )
    assert _locations(caught.value) == ["schema_definition_list.0.schema_body"]
    with pytest.raises(pydantic.ValidationError, match="not well-formed XML") as caught:
        parse_policy(
            {"type": "policy-xml-schema-validation", "schemaDefinitionList": [{"schemaBody": "<xs:schema"}]}
        )
    assert _locations(caught.value) == ["schema_definition_list.0.schema_body"]
    # Entity declarations are refused rather than expanded (the emulator validates with these models).
    bomb = '<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;&a;</x>'
    with pytest.raises(pydantic.ValidationError, match="not well-formed XML"):
        parse_policy({"type": "policy-xml-schema-validation", "schemaDefinitionList": [{"schemaBody": bomb}]})
