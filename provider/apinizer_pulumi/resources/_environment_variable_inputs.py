"""The pydantic model of ``EnvironmentVariable`` inputs, named lazily by its provider (see _proxy_inputs)."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from apinizer_pulumi.models import ApiModel, EnvironmentValue, EnvironmentVariableSpec, Name
from apinizer_pulumi.models._base import field_errors


class EnvironmentVariableInputs(ApiModel):
    """One value for every environment (``global_value``) or one per environment
    (``environment_values``, environment name to value), exactly one of the two."""

    project_name: Name
    name: Name
    description: str | None = None
    global_value: str | None = None
    environment_values: dict[Name, str] | None = None
    secret: bool = False
    adopt: bool = False

    @model_validator(mode="after")
    def _exactly_one_kind_of_value(self) -> EnvironmentVariableInputs:
        if self.global_value is None and self.environment_values is None:
            raise field_errors("EnvironmentVariableInputs", [
                ("global_value", "give global_value (every environment) or environment_values "
                 "(one per environment)", None)])
        if self.global_value is not None and self.environment_values is not None:
            raise field_errors("EnvironmentVariableInputs", [
                ("environment_values", "give either global_value or environment_values, not both", None)])
        if self.environment_values is not None and not self.environment_values:
            raise field_errors("EnvironmentVariableInputs", [
                ("environment_values", "needs at least one environment", None)])
        return self

    def spec(self) -> EnvironmentVariableSpec:
        """The create and update body: values marked not visible when ``secret``."""
        if self.global_value is not None:
            return EnvironmentVariableSpec(name=self.name, description=self.description, global_=True,
                                           global_value=self.global_value, global_visible=not self.secret)
        values = [EnvironmentValue(environment_name=env, value=value, visible=not self.secret)
                  for env, value in (self.environment_values or {}).items()]
        return EnvironmentVariableSpec(name=self.name, description=self.description, global_=False,
                                       environment_value_list=values)

    def __repr_args__(self) -> Any:
        for key, item in super().__repr_args__():
            yield key, ("***" if self.secret and key in ("global_value", "environment_values") and item
                        else item)


class EnvironmentVariableValueInputs(ApiModel):
    """One environment's value of a variable (``EnvironmentVariableValue``)."""

    project_name: Name
    variable_name: Name
    environment_name: Name
    value: str
    secret: bool = False
    adopt: bool = False

    def __repr_args__(self) -> Any:
        for key, item in super().__repr_args__():
            yield key, ("***" if self.secret and key == "value" else item)
