"""The pydantic model of ``IpGroup`` inputs, named lazily by its provider (see _proxy_inputs)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from apinizer_pulumi.models import ApiModel, Name, address_problem


class IpGroupInputs(ApiModel):
    """An IP group and its whole address list, checked offline: each address must be an IPv4
    address or CIDR range (the standard library's :mod:`ipaddress`), and appear once."""

    project_name: Name
    name: Name
    description: str | None = None
    addresses: list[str] = Field(default_factory=list)
    adopt: bool = False

    @model_validator(mode="after")
    def _addresses_are_ipv4_once(self) -> IpGroupInputs:
        details: list[InitErrorDetails] = []
        first: dict[str, int] = {}
        for index, address in enumerate(self.addresses):
            problem = address_problem(address)
            if problem is None and address in first:
                problem = f"{address!r} repeats addresses[{first[address]}]"
            first.setdefault(address, index)
            if problem is not None:
                details.append(InitErrorDetails(
                    type=PydanticCustomError("value_error", f"addresses[{index}]: {problem}"),
                    loc=("addresses", index), input=address))
        if details:
            raise ValidationError.from_exception_data("IpGroupInputs", details)
        return self

    def spec(self) -> dict[str, Any]:
        """The group's own body (create and update)."""
        return {"name": self.name, "description": self.description}
