"""IP groups: named lists of IPv4 addresses and CIDR ranges that the allow and block list policies use.

The API can create, update (the description only) and delete a group, and add, replace and remove
its addresses; it has no operation that reads a group or lists the groups of a project. Sources:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
"""

from __future__ import annotations

import ipaddress

from pydantic import Field

from ._base import ApiModel, Name

__all__ = ["IpGroupSpec", "IpList", "address_problem"]


class IpGroupSpec(ApiModel):
    """The body of ``POST .../ipGroups/`` (create, the group is created empty) and of
    ``PUT .../ipGroups/{ipGroupName}/`` (update: only ``description`` changes; ``name`` must be
    the path's)."""

    name: Name
    description: str | None = None


class IpList(ApiModel):
    """The body of the three address operations (``POST``, ``PUT`` and ``DELETE`` of ``.../ips/``).

    The pages want a non-empty list; the replace page also says an empty one clears the group
    (docs/docs-disagreements.md): the model takes both, the gateway decides.
    """

    ip_list: list[str] = Field(default_factory=list)


def address_problem(value: str) -> str | None:
    """Why ``value`` is not an address the gateway takes (an IPv4 address or CIDR range), or None.

    Checked with the standard library's :mod:`ipaddress`. A range with host bits set
    (``10.0.0.1/8``) is refused, naming the network it probably means: the pages show networks only.
    """
    if not isinstance(value, str) or not value:
        return "must be a non-empty string: an IPv4 address or CIDR range"
    parsed: ipaddress.IPv4Address | ipaddress.IPv6Address | ipaddress.IPv4Network | ipaddress.IPv6Network
    try:
        parsed = ipaddress.ip_network(value) if "/" in value else ipaddress.ip_address(value)
    except ValueError as exc:
        try:
            loose = ipaddress.ip_network(value, strict=False)
        except ValueError:
            return f"{value!r} is not an IPv4 address or CIDR range ({exc})"
        return f"{value!r} has host bits set; the range is {str(loose)!r}"
    if parsed.version != 4:
        return f"{value!r} is IPv6; the gateway takes IPv4 addresses and ranges only"
    return None
