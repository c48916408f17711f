"""The structures every policy type shares: conditions, error messages, the operation metadata,
the deployment answer, and :class:`PolicyBase`, the base of one model per documented policy type.

Policy JSON is read and written as is: every policy model keeps the unknown fields of a read
(``model_extra``), and :func:`unknown_fields` lists them so that a write can refuse them by name.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/add-policy.md
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Any, ClassVar, Self

from pydantic import ConfigDict, Field, model_validator

from ._api_proxy import DeploymentResult
from ._base import ApiModel, SecretField, field_errors
from ._enums import HttpMethod, MessageContentType, ParamType, ScriptType

__all__ = [
    "ConditionCriteria",
    "ConditionRule",
    "ConditionValueComparisonOperator",
    "ConditionValueSource",
    "ConditionVariableDataType",
    "CriteriaCondition",
    "CriteriaRule",
    "PolicyBase",
    "PolicyCondition",
    "PolicyDeploymentResult",
    "PolicyErrorMessage",
    "PolicyModel",
    "PolicyOperationMetadata",
    "PolicyTargetPipeline",
    "PolicyTargetScope",
    "PolicyVariable",
    "PolicyVariableType",
    "RuleMatchCriteria",
    "RuleValueSource",
    "RuleVariable",
    "SecretField",
    "raise_problems",
    "require_field",
    "unknown_fields",
]

_ADD_PAGE = "https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/add-policy.md"


class PolicyModel(ApiModel):
    """A structure of a policy: unknown fields of a read are kept (``model_extra``), so that a
    policy the console changed is shown whole; :func:`unknown_fields` names them for writes.

    ``repr`` shows the declared fields (secret ones left out) and only the names of unknown
    ones: an unknown field may hold a secret the model does not know to hide.
    """

    # Errors quote no input: a policy's body may hold a secret (a declared secret field, or an
    # unknown field no model knows to hide), and pydantic would quote the whole body.
    model_config = ConfigDict(extra="allow", hide_input_in_errors=True)
    #: True for the structures whose fields the docs do not list: any field is theirs.
    open_fields: ClassVar[bool] = False

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for name, info in type(self).model_fields.items():
            if info.repr:
                yield name, getattr(self, name)
        if self.model_extra:
            yield "unknown_fields", sorted(self.model_extra)


def unknown_fields(model: ApiModel, prefix: str = "") -> list[str]:
    """The dotted snake_case paths of the fields of ``model`` (and its nested models) that no
    model declares: a write refuses them, naming each."""
    found: list[str] = []
    if not getattr(model, "open_fields", False):
        found.extend(f"{prefix}{key}" for key in model.model_extra or {})
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, dict):  # a map of structures (a Kafka connection's propertiesMap)
            items: dict[Any, Any] = {f"{prefix}{name}[{key}].": item for key, item in value.items()}
        elif isinstance(value, list):
            items = {f"{prefix}{name}[{index}].": item for index, item in enumerate(value)}
        else:
            items = {f"{prefix}{name}.": value}
        for where, item in items.items():
            if isinstance(item, ApiModel):
                found.extend(unknown_fields(item, where))
    return found


def require_field(model: object, problems: list[tuple[str, str, Any]], field: str, why: str) -> None:
    """Add ``field is required <why>`` to ``problems`` when ``model``'s field is unset, blank or empty."""
    value = getattr(model, field)
    if value is None or (isinstance(value, str) and not value.strip()) or value == []:
        problems.append((field, f"{field} is required {why}", value))


def raise_problems(model: object, problems: list[tuple[str, str, Any]]) -> None:
    """Raise one ValidationError naming each ``(field, message, value)`` of ``problems``, if any."""
    if problems:
        raise field_errors(type(model).__name__, problems)


class PolicyTargetScope(StrEnum):
    """Where a policy applies: the whole proxy or one endpoint (EnumPolicyTargetScope).

    API_PROXY and GLOBAL are not in the CRUD pages' enum but are in the client-ban and
    policy-group pages' enum, and API_PROXY is what several type pages' examples send (decryption,
    WS-Security); both are accepted as documented (docs/limits.md, "Policies")."""

    ALL = "ALL"
    ENDPOINT = "ENDPOINT"
    API_PROXY = "API_PROXY"
    GLOBAL = "GLOBAL"


class PolicyTargetPipeline(StrEnum):
    """The pipeline a policy runs in (EnumPolicyTargetPipeline)."""

    REQUEST = "REQUEST"
    RESPONSE = "RESPONSE"
    ERROR = "ERROR"


class ConditionCriteria(StrEnum):
    """What a condition rule does (EnumConditionCriteria): compare a value, or combine nested rules."""

    VALUE = "VALUE"
    NOT = "NOT"
    AND = "AND"
    OR = "OR"


class ConditionVariableDataType(StrEnum):
    """How a condition compares its operands. The add-policy page's rule table lists STRING,
    NUMBER, DATE and BOOLEAN, its EnumConditionVariableDataType STRING, NUMERIC and DATE: every
    documented value is accepted (docs/limits.md, "Policies")."""

    STRING = "STRING"
    NUMERIC = "NUMERIC"
    NUMBER = "NUMBER"
    DATE = "DATE"
    BOOLEAN = "BOOLEAN"


class ConditionValueComparisonOperator(StrEnum):
    """The comparison of a VALUE rule (EnumConditionValueComparisonOperator)."""

    LT = "LT"
    LE = "LE"
    GT = "GT"
    GE = "GE"
    EQ = "EQ"
    NE = "NE"
    STARTS_WITH = "STARTS_WITH"
    ENDS_WITH = "ENDS_WITH"
    CONTAINS = "CONTAINS"
    NOT_CONTAINS = "NOT_CONTAINS"
    IS_EMPTY = "IS_EMPTY"
    IS_NOT_EMPTY = "IS_NOT_EMPTY"
    IS_EXISTS = "IS_EXISTS"
    IS_NOT_EXISTS = "IS_NOT_EXISTS"
    IN = "IN"
    NOT_IN = "NOT_IN"

    @property
    def is_unary(self) -> bool:
        """True for the operators that test the first variable alone (no second operand)."""
        return self in _UNARY_OPERATORS


_UNARY_OPERATORS = frozenset(
    {
        ConditionValueComparisonOperator.IS_EMPTY,
        ConditionValueComparisonOperator.IS_NOT_EMPTY,
        ConditionValueComparisonOperator.IS_EXISTS,
        ConditionValueComparisonOperator.IS_NOT_EXISTS,
    }
)


class ConditionValueSource(StrEnum):
    """Where a VALUE rule's second operand comes from (EnumConditionValueSource)."""

    VALUE = "VALUE"
    VARIABLE = "VARIABLE"


class PolicyVariableType(StrEnum):
    """A policy variable's type. The condition's VariableDTO lists HEADER, PARAMETER, BODY,
    CONTEXT_VALUES and CUSTOM; the IP, quota and API-call pages list CONTEXT and SCRIPT too, and
    the client-ban page's examples send CLIENT_IP: every documented value is accepted
    (docs/limits.md, "Policies")."""

    HEADER = "HEADER"
    PARAMETER = "PARAMETER"
    BODY = "BODY"
    CONTEXT_VALUES = "CONTEXT_VALUES"
    CUSTOM = "CUSTOM"
    CONTEXT = "CONTEXT"
    SCRIPT = "SCRIPT"
    CLIENT_IP = "CLIENT_IP"


class PolicyVariable(PolicyModel):
    """A variable inside a policy (a condition operand, ``targetVariableForIdentity``,
    ``targetVariableForIP``): the VariableDTO of the add-policy page.

    It differs from :class:`~apinizer_pulumi.models.Variable` where the pages differ: ``name`` is
    optional (a variable may reference a stored one by ``id``, and the pages' examples leave it
    out), ``id`` and ``project_id`` exist, ``type`` also takes CONTEXT and SCRIPT, and
    ``context_value`` is free text (the pages name values such as CLIENT_IP and USER_AGENT that
    the variable enum does not hold). The per-type requirements are the table's: HEADER needs
    ``header_name``; PARAMETER ``param_name``; script initialisation its language and body.
    """

    id: str | None = Field(None, description="ID of an existing variable to reference.")
    project_id: str | None = Field(None, description="Project ID of the referenced variable.")
    name: str | None = Field(None, description="Variable name (required when id is not given).")
    description: str | None = Field(None, description="Variable description.")
    type: PolicyVariableType = Field(
        description=(
            "Where the value comes from: HEADER, PARAMETER, BODY, CONTEXT_VALUES or CUSTOM"
            " (the IP pages add CONTEXT and SCRIPT)."
        )
    )
    header_name: str | None = Field(None, description="Header name (required when type is HEADER).")
    param_type: ParamType | None = Field(
        None, description="Parameter type QUERY, PATH or FORM (type PARAMETER)."
    )
    param_name: str | None = Field(None, description="Parameter name (required when type is PARAMETER).")
    param_path: str | None = Field(None, description="Parameter path template (paramType PATH).")
    form_name: str | None = Field(None, description="Form field name (form parameters).")
    xpath_value: str | None = Field(None, description="XPath of the value (type BODY, XML content).")
    json_path_value: str | None = Field(None, description="JsonPath of the value (type BODY, JSON content).")
    body_json_path: str | None = Field(
        None,
        description="JsonPath of a body value, as the business-rule and redaction pages' examples give it.",
    )
    message_content_type: MessageContentType | None = Field(
        None, description="Body content type JSON, XML or FORM (type BODY)."
    )
    context_value: str | None = Field(
        None, description="The context value to read (type CONTEXT_VALUES or CONTEXT), e.g. CLIENT_IP."
    )
    zone_id: str | None = Field(None, description="Time zone ID for date context values.")
    init_with_script: bool | None = Field(None, description="Initialise the value with a script.")
    script_language: ScriptType | None = Field(
        None, description="Script language GROOVY or JAVASCRIPT (required when init_with_script)."
    )
    script_body: str | None = Field(None, description="Script body (required when init_with_script).")

    @model_validator(mode="after")
    def _check_fields_for_type(self) -> Self:
        problems: list[tuple[str, str, Any]] = []

        def require(field: str, why: str) -> None:
            value = getattr(self, field)
            if value is None or (isinstance(value, str) and not value.strip()):
                problems.append((field, f"{field} is required {why}", value))

        if self.type is PolicyVariableType.HEADER:
            require("header_name", "when type is HEADER")
        elif self.type is PolicyVariableType.PARAMETER:
            require("param_name", "when type is PARAMETER")
        if self.init_with_script:
            require("script_language", "when init_with_script is true")
            require("script_body", "when init_with_script is true")
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self


class ConditionRule(PolicyModel):
    """One rule of a policy condition (ConditionRuleDTO).

    A VALUE rule compares ``first_variable`` (as ``variable_data_type``) with
    ``value_comparison_operator`` to ``second_value`` or ``second_variable`` (per
    ``second_value_source``; the IS_EMPTY/IS_EXISTS family needs no second operand). A DATE
    comparison needs ``date_format``. AND, OR and NOT combine ``condition_rule_list``, which
    they need; NOT negates exactly one rule.
    """

    condition_rule_list: list[ConditionRule] | None = Field(
        None, description="Nested rules, combined by AND, OR or NOT."
    )
    condition_criteria: ConditionCriteria = Field(
        description="VALUE compares; AND, OR, NOT combine the nested rules."
    )
    first_variable: PolicyVariable | None = Field(None, description="The variable compared (VALUE rules).")
    variable_data_type: ConditionVariableDataType | None = Field(
        None,
        description="How operands compare: STRING, NUMERIC or DATE (the rule table adds NUMBER, BOOLEAN).",
    )
    date_format: str | None = Field(
        None, description="Date format of the operands (required when variable_data_type is DATE)."
    )
    value_comparison_operator: ConditionValueComparisonOperator | None = Field(
        None, description="The comparison (VALUE rules)."
    )
    second_value_source: ConditionValueSource | None = Field(
        None, description="VALUE to compare with second_value, VARIABLE with second_variable."
    )
    second_value: str | None = Field(
        None, description="The constant compared with (second_value_source VALUE)."
    )
    second_variable: PolicyVariable | None = Field(
        None, description="The variable compared with (second_value_source VARIABLE)."
    )

    @model_validator(mode="after")
    def _check_operands(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        criteria = self.condition_criteria
        if criteria is ConditionCriteria.VALUE:
            for field in ("first_variable", "variable_data_type", "value_comparison_operator"):
                if getattr(self, field) is None:
                    problems.append((field, f"{field} is required when condition_criteria is VALUE", None))
            operator = self.value_comparison_operator
            if operator is None or not operator.is_unary:
                source = self.second_value_source
                if source is None:
                    problems.append(
                        (
                            "second_value_source",
                            "second_value_source is required when condition_criteria is VALUE",
                            None,
                        )
                    )
                elif source is ConditionValueSource.VALUE and self.second_value is None:
                    problems.append(
                        ("second_value", "second_value is required when second_value_source is VALUE", None)
                    )
                elif source is ConditionValueSource.VARIABLE and self.second_variable is None:
                    problems.append(
                        (
                            "second_variable",
                            "second_variable is required when second_value_source is VARIABLE",
                            None,
                        )
                    )
            if (
                self.variable_data_type is ConditionVariableDataType.DATE
                and not (self.date_format or "").strip()
            ):
                problems.append(
                    (
                        "date_format",
                        "date_format is required when variable_data_type is DATE",
                        self.date_format,
                    )
                )
        else:
            nested = self.condition_rule_list or []
            if not nested:
                problems.append(
                    (
                        "condition_rule_list",
                        "condition_rule_list needs at least one rule when condition_criteria is "
                        + criteria.value,
                        None,
                    )
                )
            elif criteria is ConditionCriteria.NOT and len(nested) != 1:
                problems.append(
                    (
                        "condition_rule_list",
                        "condition_rule_list must hold exactly one rule when condition_criteria is NOT,"
                        f" got {len(nested)}",
                        None,
                    )
                )
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self


class PolicyCondition(PolicyModel):
    """When a policy runs (PolicyConditionDTO): its rules, AND-ed; none means always."""

    condition_rule_list: list[ConditionRule] | None = Field(
        None, description="The condition's rules; empty or left out: the policy always runs."
    )


class RuleMatchCriteria(StrEnum):
    """When a ``criteria``/``rules`` condition holds (the client-ban and policy-group pages'
    EnumConditionCriteria)."""

    ALWAYS = "ALWAYS"
    IF_ALL_MATCH = "IF_ALL_MATCH"
    IF_ANY_MATCH = "IF_ANY_MATCH"
    IF_NONE_MATCH = "IF_NONE_MATCH"


class RuleValueSource(StrEnum):
    """Where a ``rules`` item's value comes from: the enum lists VALUE and VARIABLE, the
    client-ban page's examples send STATIC; all three are accepted."""

    VALUE = "VALUE"
    VARIABLE = "VARIABLE"
    STATIC = "STATIC"


class RuleVariable(PolicyModel):
    """The variable of a ``rules`` item. Its ``type`` is free text: the client-ban page's
    examples use HTTP_STATUS_CODE, which no variable enum lists."""

    type: str = Field(
        description="The variable type (HEADER, PARAMETER, BODY, CONTEXT, HTTP_STATUS_CODE...)."
    )
    name: str | None = Field(None, description="Variable name.")
    header_name: str | None = Field(None, description="Header name (type HEADER).")
    param_name: str | None = Field(None, description="Parameter name (type PARAMETER).")
    context_value: str | None = Field(None, description="Context value (type CONTEXT).")


class CriteriaRule(PolicyModel):
    """A ``rules`` item of a ``criteria``/``rules`` condition (client ban, policy group)."""

    variable: RuleVariable | None = Field(None, description="The variable checked.")
    comparison_operator: ConditionValueComparisonOperator | None = Field(None, description="The comparison.")
    value: str | None = Field(None, description="The value compared against.")
    value_source: RuleValueSource | None = Field(None, description="Where the value comes from.")


class CriteriaCondition(PolicyModel):
    """The ``{criteria, rules}`` condition of the client-ban and policy-group pages
    (``condition``, ``assertionCondition``): ALWAYS needs no rules, the others at least one."""

    criteria: RuleMatchCriteria = Field(description="ALWAYS, IF_ALL_MATCH, IF_ANY_MATCH or IF_NONE_MATCH.")
    rules: list[CriteriaRule] = Field(default_factory=list, description="The rules the criteria applies to.")

    @model_validator(mode="after")
    def _check_rules(self) -> Self:
        if self.criteria is not RuleMatchCriteria.ALWAYS and not self.rules:
            raise field_errors(
                type(self).__name__,
                [("rules", f"rules needs at least one rule when criteria is {self.criteria.value}", [])],
            )
        return self


class PolicyErrorMessage(PolicyModel):
    """One custom error answer of a policy (an ``errorMessageList`` item).

    The pages name ``errorMessageList`` ("custom error messages; if not provided, standard
    messages are used") but document no field of its items, so every field is kept and sent
    as given (docs/limits.md, "Policies").
    """

    open_fields: ClassVar[bool] = True


class PolicyOperationMetadata(ApiModel):
    """``operationMetadata`` of add, update and delete: where the policy goes and whether the
    change is deployed. ENDPOINT scope needs ``target_endpoint`` and its method.

    ``deploy`` has no default here: the gateway's is true (deploy at once), and the model sends
    only what the caller chose; the Pulumi resource always sends false unless told where to deploy.
    """

    model_config = ConfigDict(extra="forbid")

    target_scope: PolicyTargetScope = Field(description="ALL: the whole proxy; ENDPOINT: one endpoint.")
    target_endpoint: str | None = Field(
        None, description="Endpoint path (required when target_scope is ENDPOINT)."
    )
    target_endpoint_http_method: HttpMethod | None = Field(
        None,
        alias="targetEndpointHTTPMethod",
        description="The endpoint's HTTP method (required when target_scope is ENDPOINT).",
    )
    target_pipeline: PolicyTargetPipeline = Field(description="The pipeline: REQUEST, RESPONSE or ERROR.")
    deploy: bool | None = Field(None, description="Deploy the change at once (the gateway's default: true).")
    deploy_target_environment_name_list: list[str] | None = Field(
        None, description="The environments to deploy to."
    )
    order: int | None = Field(
        None,
        ge=1,
        description="Position in the pipeline, from 1; left out or past the end: at the end (update: kept).",
    )

    @model_validator(mode="after")
    def _check_endpoint(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        if self.target_scope is PolicyTargetScope.ENDPOINT:
            if not (self.target_endpoint or "").strip():
                problems.append(
                    (
                        "target_endpoint",
                        "target_endpoint is required when target_scope is ENDPOINT",
                        self.target_endpoint,
                    )
                )
            if self.target_endpoint_http_method is None:
                problems.append(
                    (
                        "target_endpoint_http_method",
                        "target_endpoint_http_method is required when target_scope is ENDPOINT",
                        None,
                    )
                )
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self


class PolicyDeploymentResult(ApiModel):
    """The answer of add, update and delete: ``status`` and, when the change was deployed, the
    documented ``deploymentResult`` (success, responseTime, detailList per pod)."""

    status: str = Field("SUCCESS", description="SUCCESS or FAILURE.")
    success: bool | None = Field(None, description="The type pages' envelope: true on success.")
    deployment_result: DeploymentResult | None = Field(
        None, description="The deployment's outcome, when deploy was true."
    )

    @property
    def deployed(self) -> bool:
        """True when the answer carries a deployment that succeeded."""
        return self.deployment_result is not None and self.deployment_result.success is not False


class PolicyBase(PolicyModel):
    """The fields every policy type shares. Subclasses set ``policy_type`` and a ``type``
    ``Literal`` with that default (the union's discriminator).

    ``name`` is what reads carry; writes take the name from the path (the add page: the body's
    name is ignored), so the client leaves it out of the body.
    """

    policy_type: ClassVar[str] = ""
    #: False for the types the gateway manages itself (the protocol transformations): they are
    #: read, never added or deleted through the API.
    addable: ClassVar[bool] = True

    name: str | None = Field(
        None, description="The policy's name (reads carry it; writes take it from the path)."
    )
    description: str | None = Field(None, description="What the policy is for.")
    active: bool = Field(True, description="Whether the policy runs.")
    policy_condition: PolicyCondition | None = Field(
        None, description="When the policy runs; left out: always."
    )
    error_message_list: list[PolicyErrorMessage] | None = Field(
        None, description="Custom error answers; left out: the standard messages."
    )

    @classmethod
    def secret_fields(cls) -> tuple[str, ...]:
        """The dotted snake_case paths of the fields that hold secrets (declared with
        :func:`SecretField`), nested models' included (``signing_key.password``)."""
        return tuple(_secret_paths(cls, "", set()))


def _secret_paths(model: type[ApiModel], prefix: str, seen: set[type[ApiModel]]) -> list[str]:
    if model in seen:
        return []
    seen = seen | {model}
    paths: list[str] = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        if isinstance(extra, dict) and extra.get("x-secret"):
            paths.append(prefix + name)
            continue
        for nested in _nested_models(info.annotation):
            paths.extend(_secret_paths(nested, f"{prefix}{name}.", seen))
    return paths


def _nested_models(annotation: Any) -> list[type[ApiModel]]:
    if isinstance(annotation, type) and issubclass(annotation, ApiModel):
        return [annotation]
    found: list[type[ApiModel]] = []
    for argument in getattr(annotation, "__args__", ()):
        found.extend(_nested_models(argument))
    return found


def policy_source(page: str) -> str:
    """The URL of a policy type's page."""
    return f"https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/{page}.md"
