"""``RlclCondition``: when a rate-limit control list applies, and its dynamic provider.

The provider's module path and class name
(``apinizer_pulumi.resources.rlcl_condition.RlclConditionProvider``) are recorded
by reference in every stack's state: they never move without an alias.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/condition/index.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi

from ._base import lazy_model
from ._connection import ConnectionArgs
from ._rlcl_list import RlclListResource
from .rlcl import RlclList

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient


def _body(props: Mapping[str, Any]) -> Any:
    from apinizer_pulumi.models import RlclCondition as Condition

    return Condition(condition_rule_list=list(props.get("rules") or []))


class RlclConditionProvider(RlclList):
    """Set an RLCL's condition on create and update; delete restores the default (always applies)."""

    kind = "RlclCondition"
    inputs_model = lazy_model("apinizer_pulumi.resources._group_inputs", "RlclConditionInputs")

    def replace(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any], *,
                created: bool) -> None:
        # Add, like update, replaces the condition whole.
        write = client.rlcl.add_condition if created else client.rlcl.update_condition
        write(project, parent, _body(props))

    def remove(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any]) -> None:
        client.rlcl.delete_condition(project, parent)


class RlclCondition(RlclListResource, module="apinizer", name="RlclCondition"):
    """When a rate-limit control list (RLCL) applies: its rules, AND-ed, owned by this resource.

    Id: ``{project}/{rlcl}``. Changing ``project_name`` or ``rlcl_name`` replaces it; a change of
    ``rules`` replaces the condition in one call. Destroy restores the default condition (an AND of
    no rules: the RLCL always applies). The API cannot read an RLCL's condition, so refresh keeps
    the recorded state. Declare at most one per RLCL.
    """

    rules: pulumi.Output[list[dict[str, Any]]]
    """The condition's rules (snake_case keys), as written."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        rlcl_name: pulumi.Input[str],
        rules: pulumi.Input[Sequence[Mapping[str, Any]]],
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the condition of an RLCL.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the RLCL.
        :param rlcl_name: The RLCL's name (``Rlcl.name`` makes the dependency).
        :param rules: At least one rule (snake_case keys of the page's ConditionRuleDTO):
            ``condition_criteria`` VALUE with ``first_variable``, ``variable_data_type``,
            ``value_comparison_operator``, ``second_value_source`` and ``second_value`` (or
            ``second_variable``); or AND, OR, NOT over nested ``condition_rule_list``.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        self._register(RlclConditionProvider(), resource_name, project_name, rlcl_name, {"rules": rules},
                       connection, opts)
