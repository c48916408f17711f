"""The pydantic model of a ``Policy`` resource's inputs, named lazily by its provider.

Kept apart from ``policy.py`` so that declaring a policy in a Pulumi program imports neither
pydantic nor the models (docs/performance.md). The type-specific ``settings`` are validated
against the type's own model (``POLICY_TYPES``) by the provider's check, naming each field.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from apinizer_pulumi.models import (
    ApiModel,
    HttpMethod,
    Name,
    PolicyCondition,
    PolicyErrorMessage,
    PolicyTargetPipeline,
    PolicyTargetScope,
)


class PolicyInputs(ApiModel):
    """The inputs of a ``Policy`` resource, validated offline by ``check``."""

    project_name: Name
    api_proxy_name: Name
    name: Name
    #: The type string, e.g. ``policy-white-ip``: set from the settings class by the constructor.
    policy_type: str = Field(min_length=1)
    pipeline: PolicyTargetPipeline
    target_scope: PolicyTargetScope = PolicyTargetScope.ALL
    target_endpoint: str | None = Field(default=None, min_length=1)
    target_endpoint_http_method: HttpMethod | None = None
    #: 1-based position in the pipeline; None: appended when created, kept where it is afterwards.
    order: int | None = Field(default=None, ge=1)
    description: str | None = None
    active: bool = True
    condition: PolicyCondition | None = None
    error_messages: list[PolicyErrorMessage] | None = None
    #: The type's own fields, snake_case: checked against the type's model by the provider.
    settings: dict[str, Any] = Field(default_factory=dict)
    #: Environments the gateway deploys each change of this policy to; None or empty: none.
    deploy_to: list[Name] | None = None
    adopt: bool = False
