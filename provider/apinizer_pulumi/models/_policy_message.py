"""Message policies: content filter, schema validations, transformations, redaction, protocol
transformations and script."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, ClassVar, Literal, Self
from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as SafeXml
from defusedxml import DefusedXmlException
from pydantic import Field, model_validator

from ._enums import ScriptType
from ._policy import PolicyBase, PolicyModel, PolicyVariable, raise_problems, require_field
from ._policy_traffic import ActionType, BusinessRuleAction

# -- content filter ---------------------------------------------------------------------------------


class ContentFilterAction(StrEnum):
    """What a content filter does with a match (EnumContentFilterAction)."""

    BLOCK = "BLOCK"
    DELETE = "DELETE"


class ContentFilterContentType(StrEnum):
    """The bodies a content filter reads (the page's EnumMessageContentType)."""

    XML = "XML"
    JSON = "JSON"
    ALL_BODY = "ALL_BODY"


class ContentFilterDef(PolicyModel):
    """A pattern of a content filter (a ``policyContentFilterDefList`` item), applied to the
    headers, the body or the parameters (at least one)."""

    id: int | None = Field(None, description="The definition's ID (given by the gateway).")
    name: str = Field(min_length=1, description="The definition's name.")
    rule_value: str = Field(
        min_length=1, description="The Java regular expression to match; (?i) ignores case."
    )
    header_active: bool = Field(False, description="Apply the pattern to the headers.")
    body_active: bool = Field(False, description="Apply the pattern to the body.")
    param_active: bool = Field(False, description="Apply the pattern to the parameters.")
    action: ContentFilterAction = Field(
        ContentFilterAction.BLOCK, description="BLOCK the message on a match, or DELETE the matching content."
    )
    content_type: ContentFilterContentType = Field(
        ContentFilterContentType.XML, description="The body read: XML, JSON or ALL_BODY."
    )
    content: str | None = Field(None, description="Additional content configuration.")

    @model_validator(mode="after")
    def _check_target(self) -> Self:
        if not (self.header_active or self.body_active or self.param_active):
            raise_problems(
                self,
                [("header_active", "one of header_active, body_active or param_active must be true", False)],
            )
        return self


class ContentFilterPolicy(PolicyBase):
    """Blocks messages, or deletes content, matching regular expressions in the headers, the
    body or the parameters.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-content-filter.md
    """

    policy_type = "policy-content-filter"
    type: Literal["policy-content-filter"] = Field(
        "policy-content-filter", description="The policy type: policy-content-filter."
    )
    policy_content_filter_def_list: list[ContentFilterDef] = Field(
        min_length=1, description="The patterns (at least one)."
    )


# -- schema validation ------------------------------------------------------------------------------


class SchemaDefinition(PolicyModel):
    """A schema a validation uses (a ``schemaDefinitionList`` item): JSON Schema or XSD text."""

    schema_no: int = Field(0, ge=0, description="The schema's number, ordering several schemas.")
    schema_body: str = Field(min_length=1, description="The schema's text (a JSON Schema or an XSD).")
    system_id: str | None = Field(None, description="The system ID other schemas reference this one by.")
    target_namespace: str | None = Field(None, description="The schema's target namespace.")
    root_schema: bool = Field(False, description="Whether this is the root schema.")


class JsonSchemaDefinition(SchemaDefinition):
    """A JSON Schema of a JSON schema validation: ``schema_body`` must be JSON."""

    @model_validator(mode="after")
    def _check_json(self) -> Self:
        try:
            json.loads(self.schema_body)
        except ValueError as exc:
            raise_problems(self, [("schema_body", f"schema_body is not JSON: {exc}", None)])
        return self


class XmlSchemaDefinition(SchemaDefinition):
    """An XSD of an XML schema validation: ``schema_body`` must be well-formed XML."""

    @model_validator(mode="after")
    def _check_xml(self) -> Self:
        try:
            # defusedxml: the emulator validates bodies sent to it with these models.
            SafeXml.fromstring(self.schema_body)
        except (ParseError, DefusedXmlException) as exc:
            raise_problems(self, [("schema_body", f"schema_body is not well-formed XML: {exc}", None)])
        return self


class JsonSchemaValidationPolicy(PolicyBase):
    """Validates JSON bodies against JSON Schemas (draft-07 or compatible) before they are
    processed or forwarded.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-json-schema-validation.md
    """

    policy_type = "policy-json-schema-validation"
    type: Literal["policy-json-schema-validation"] = Field(
        "policy-json-schema-validation", description="The policy type: policy-json-schema-validation."
    )
    path_for_body: str = Field(
        min_length=1, description="The JSONPath of the JSON validated ($ for the whole body)."
    )
    schema_definition_list: list[JsonSchemaDefinition] = Field(
        min_length=1, description="The schemas (at least one)."
    )


class XmlSchemaValidationPolicy(PolicyBase):
    """Validates XML bodies against XSDs, or against the proxy's WSDL, before they are processed
    or forwarded.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-xml-schema-validation.md
    """

    policy_type = "policy-xml-schema-validation"
    type: Literal["policy-xml-schema-validation"] = Field(
        "policy-xml-schema-validation", description="The policy type: policy-xml-schema-validation."
    )
    path_for_body: str | None = Field(
        None, description="The XPath of the XML validated (/ for the whole body)."
    )
    validate_against_spec: bool = Field(
        False, description="Validate against the proxy's WSDL instead of schema_definition_list."
    )
    schema_definition_list: list[XmlSchemaDefinition] = Field(
        default_factory=list, description="The XSDs (at least one unless validate_against_spec)."
    )

    @model_validator(mode="after")
    def _check_schemas(self) -> Self:
        if not self.validate_against_spec and not self.schema_definition_list:
            raise_problems(
                self,
                [
                    (
                        "schema_definition_list",
                        "schema_definition_list needs a schema unless validate_against_spec",
                        [],
                    )
                ],
            )
        return self


# -- transformations --------------------------------------------------------------------------------


class JsonTransformationType(StrEnum):
    """A JSON transformation: JOLT to JSON, or conversion to XML (EnumJsonTransformationType)."""

    JSON2JSON = "JSON2JSON"
    JSON2XML = "JSON2XML"


class JsonTransformationPolicy(PolicyBase):
    """Transforms JSON bodies: to JSON with a JOLT specification, or to XML.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-json-transformation.md
    """

    policy_type = "policy-json-transformation"
    type: Literal["policy-json-transformation"] = Field(
        "policy-json-transformation", description="The policy type: policy-json-transformation."
    )
    transformation_type: JsonTransformationType = Field(
        JsonTransformationType.JSON2JSON, description="JSON2JSON (JOLT) or JSON2XML."
    )
    jolt_value: str | None = Field(None, description="The JOLT specification (required for JSON2JSON).")
    json_to_xml_ignore_null: bool = Field(False, description="JSON2XML: leave out null values.")
    json_to_xml_ignore_empty: bool = Field(False, description="JSON2XML: leave out empty values.")
    json_to_xml_use_null_for_nil: bool = Field(False, description='JSON2XML: write xsi:nil="true" for nulls.')
    json_to_xml_unwrap_element: bool = Field(
        False, description="JSON2XML: leave out the root wrapper element."
    )

    @model_validator(mode="after")
    def _check_jolt(self) -> Self:
        if self.transformation_type is JsonTransformationType.JSON2JSON:
            problems: list[tuple[str, str, Any]] = []
            require_field(self, problems, "jolt_value", "when transformation_type is JSON2JSON")
            raise_problems(self, problems)
        return self


class XmlTransformationType(StrEnum):
    """An XML transformation: XSLT to XML, or conversion to JSON (EnumXmlTransformationType)."""

    XML2XML = "XML2XML"
    XML2JSON = "XML2JSON"


class XmlTransformationPolicy(PolicyBase):
    """Transforms XML bodies: to XML with an XSLT stylesheet, or to JSON.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-xml-transformation.md
    """

    policy_type = "policy-xml-transformation"
    type: Literal["policy-xml-transformation"] = Field(
        "policy-xml-transformation", description="The policy type: policy-xml-transformation."
    )
    transformation_type: XmlTransformationType = Field(
        XmlTransformationType.XML2XML, description="XML2XML (XSLT) or XML2JSON."
    )
    xslt_value: str | None = Field(None, description="The XSLT stylesheet (required for XML2XML).")
    xml_to_json_unwrap_element: bool = Field(
        False, description="XML2JSON: leave out the root wrapper element."
    )
    xml_to_json_ignore_null: bool = Field(False, description="XML2JSON: leave out null values.")
    xml_to_json_ignore_empty: bool = Field(False, description="XML2JSON: leave out empty values.")
    xml_to_json_numbers_as_strings: bool = Field(False, description="XML2JSON: write numbers as strings.")
    xml_to_json_use_null_for_nil: bool = Field(False, description='XML2JSON: null for xsi:nil="true".')
    xml_to_json_array_path_list: list[str] = Field(
        default_factory=list, description="XML2JSON: XPaths of the elements written as arrays."
    )

    @model_validator(mode="after")
    def _check_xslt(self) -> Self:
        if self.transformation_type is XmlTransformationType.XML2XML:
            problems: list[tuple[str, str, Any]] = []
            require_field(self, problems, "xslt_value", "when transformation_type is XML2XML")
            raise_problems(self, problems)
        return self


# -- redaction --------------------------------------------------------------------------------------


class PolicyRedactionType(StrEnum):
    """When a redaction applies (EnumPolicyRedactionType)."""

    KEY_EXISTENCE = "KEY_EXISTENCE"
    KEY_VALUE = "KEY_VALUE"
    USER = "USER"
    ROLE = "ROLE"


class RedactionAction(BusinessRuleAction):
    """A redaction's action: the business rule's action, limited to MODIFY and DELETE."""

    @model_validator(mode="after")
    def _check_redaction_action(self) -> Self:
        if self.action_type not in (ActionType.MODIFY, ActionType.DELETE):
            raise_problems(
                self,
                [("action_type", "action_type must be MODIFY or DELETE in a redaction", self.action_type)],
            )
        source = self.target_val_source
        modify = self.action_type is ActionType.MODIFY
        if modify and source is not None and source.value == "VARIABLE" and self.target_var is None:
            raise_problems(
                self, [("target_var", "target_var is required when target_val_source is VARIABLE", None)]
            )
        return self


class RedactionDefDetail(PolicyModel):
    """One ordered action of a redaction (a ``redactionDefDetailList`` item)."""

    order_num: int = Field(ge=1, description="The action's place, from 1.")
    action: RedactionAction = Field(description="The action: MODIFY (mask, replace, transform...) or DELETE.")


class RedactionDef(PolicyModel):
    """A redaction (a ``redactionDefList`` item): when it applies and its ordered actions."""

    redaction_type: PolicyRedactionType = Field(description="KEY_EXISTENCE, KEY_VALUE, USER or ROLE.")
    key_value_var: PolicyVariable | None = Field(
        None, description="The key's variable (required for KEY_EXISTENCE and KEY_VALUE)."
    )
    key_value_list_str: str | None = Field(
        None, description="Comma-separated values to match (required for KEY_VALUE)."
    )
    redaction_def_detail_list: list[RedactionDefDetail] = Field(
        min_length=1, description="The actions (at least one)."
    )

    @model_validator(mode="after")
    def _check_key(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        kind = self.redaction_type
        if kind in (PolicyRedactionType.KEY_EXISTENCE, PolicyRedactionType.KEY_VALUE):
            require_field(self, problems, "key_value_var", f"when redaction_type is {kind.value}")
        if kind is PolicyRedactionType.KEY_VALUE:
            require_field(self, problems, "key_value_list_str", "when redaction_type is KEY_VALUE")
        raise_problems(self, problems)
        return self


class RedactionPolicy(PolicyBase):
    """Removes or masks sensitive data (card numbers, passwords...) in messages, by key, key
    value, user or role, with ordered MODIFY or DELETE actions.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-redaction.md
    """

    policy_type = "policy-redaction"
    type: Literal["policy-redaction"] = Field(
        "policy-redaction", description="The policy type: policy-redaction."
    )
    redaction_def_list: list[RedactionDef] = Field(min_length=1, description="The redactions (at least one).")


# -- protocol transformations -----------------------------------------------------------------------


class ProtocolTransformationMethod(PolicyModel):
    """A method of a SOAP/REST transformation, as list-policies shows it (``apiMethodList`` item)."""

    id: str | None = Field(None, description="The method's ID.")
    name: str | None = Field(None, description="The method's name.")
    description: str | None = Field(None, description="What the method is.")
    active: bool | None = Field(None, description="Whether the method is active.")
    http_method: str | None = Field(None, description="The REST side's HTTP method.")
    backend_resource_url: str | None = Field(None, description="The backend's resource URL.")
    backend_http_method: str | None = Field(None, description="The backend's HTTP method.")


class RequestProtocolTransformationPolicy(PolicyBase):
    """Turns REST requests into SOAP requests before they reach the backend. The gateway adds it
    when SOAP/REST transformation is enabled at the proxy's creation: it cannot be added or
    deleted through the API, only read.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-request-protocol-transformation.md
    """

    policy_type = "policy-request-protocol-transformation"
    addable: ClassVar[bool] = False
    type: Literal["policy-request-protocol-transformation"] = Field(
        "policy-request-protocol-transformation",
        description="The policy type: policy-request-protocol-transformation.",
    )
    api_method_list: list[ProtocolTransformationMethod] | None = Field(
        None, description="The transformed methods, as list-policies shows them."
    )


class ResponseProtocolTransformationPolicy(PolicyBase):
    """Turns the backend's SOAP responses into REST responses. The gateway adds it when
    SOAP/REST transformation is enabled at the proxy's creation: it cannot be added or deleted
    through the API, only read.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-response-protocol-transformation.md
    """

    policy_type = "policy-response-protocol-transformation"
    addable: ClassVar[bool] = False
    type: Literal["policy-response-protocol-transformation"] = Field(
        "policy-response-protocol-transformation",
        description="The policy type: policy-response-protocol-transformation.",
    )
    api_method_list: list[ProtocolTransformationMethod] | None = Field(
        None, description="The transformed methods, as list-policies shows them."
    )


# -- script -----------------------------------------------------------------------------------------


class ScriptExecutionType(StrEnum):
    """How a script runs (Enum: executionType)."""

    SYNC = "SYNC"
    ASYNC = "ASYNC"


class ScriptPolicy(PolicyBase):
    """Runs a Groovy or JavaScript script in the pipeline: it can change the request or the
    response, set variables, call services and apply custom logic.

    Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-script.md
    """

    policy_type = "policy-script"
    type: Literal["policy-script"] = Field("policy-script", description="The policy type: policy-script.")
    execution_type: ScriptExecutionType | None = Field(
        None,
        description=(
            "SYNC blocks the message until the script ends; ASYNC runs it in the background."
            " Left out: the gateway's choice (update-policy's example leaves it out)."
        ),
    )
    script_language: ScriptType = Field(description="GROOVY or JAVASCRIPT.")
    script_body: str = Field(min_length=1, description="The script's code.")


__all__ = sorted(
    name
    for name, value in dict(globals()).items()
    if not name.startswith("_") and isinstance(value, type) and value.__module__ == __name__
)
