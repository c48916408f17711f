"""Message policies: content filter, schema validations, transformations, redaction, protocol
transformations and script."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from ._enums import ScriptType
from ._policy import PolicyBase

__all__ = ["ScriptExecutionType", "ScriptPolicy"]


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
