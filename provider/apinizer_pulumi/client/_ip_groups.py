"""IP groups and their addresses: ``client.ip_groups``.

The API writes groups and addresses but reads neither: there is no get or list operation.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import models
from ._exceptions import InvalidArgumentError, InvalidArgumentTypeError
from ._resources import _coerce, _Resource, _segment

__all__ = ["IP_GROUPS_PATH", "IP_GROUP_IPS_PATH", "IP_GROUP_PATH", "IpGroups"]

IP_GROUPS_PATH = "/apiops/projects/{project}/ipGroups/"
IP_GROUP_PATH = "/apiops/projects/{project}/ipGroups/{group}/"
IP_GROUP_IPS_PATH = "/apiops/projects/{project}/ipGroups/{group}/ips/"


class IpGroups(_Resource):
    """Create, update and delete IP groups; add, replace and remove their addresses."""

    def create(self, project: str, group: models.IpGroupSpec | Mapping[str, Any]) -> None:
        """``POST .../ipGroups/``: a new, empty group. A taken name answers 400 ``An IP Group with
        same name (<name>) already exists in project!``. Not idempotent: retried only when the
        request never reached the server."""
        spec = _coerce(models.IpGroupSpec, group, "group")
        path = IP_GROUPS_PATH.format(project=_segment(project, "project"))
        self._write("POST", path, spec.to_api(), idempotent=False)

    def update(self, project: str, group: models.IpGroupSpec | Mapping[str, Any]) -> None:
        """``PUT .../ipGroups/{ipGroupName}/``: the description only (the name addresses the group).
        An unknown group answers 400 ``IP Group (<name>) is not found!``."""
        spec = _coerce(models.IpGroupSpec, group, "group")
        self._write("PUT", self._path(IP_GROUP_PATH, project, spec.name), spec.to_api(), idempotent=True)

    def delete(self, project: str, name: str) -> None:
        """``DELETE .../ipGroups/{ipGroupName}/``: the group and its addresses. Retried only when
        the request never reached the server: a repeat of a delete that happened answers 400."""
        self._write("DELETE", self._path(IP_GROUP_PATH, project, name), None, idempotent=False)

    def add_ips(self, project: str, name: str, ips: Sequence[str]) -> None:
        """``POST .../ips/``: add to the group's addresses; ones it holds already are ignored."""
        self._send("POST", project, name, ips, idempotent=True)

    def replace_ips(self, project: str, name: str, ips: Sequence[str]) -> None:
        """``PUT .../ips/``: the group's addresses become exactly ``ips``. The page says an empty
        list clears the group and also that it is refused: the client sends what it is given."""
        self._send("PUT", project, name, ips, idempotent=True)

    def delete_ips(self, project: str, name: str, ips: Sequence[str]) -> None:
        """``DELETE .../ips/`` with a JSON body: remove these addresses; others are ignored."""
        self._send("DELETE", project, name, ips, idempotent=True)

    @staticmethod
    def _path(template: str, project: str, name: str) -> str:
        return template.format(project=_segment(project, "project"), group=_segment(name, "name"))

    def _send(self, method: str, project: str, name: str, ips: Sequence[str], *, idempotent: bool) -> None:
        if isinstance(ips, str | bytes | Mapping) or not isinstance(ips, Sequence):
            raise InvalidArgumentTypeError("ips", f"must be a list of strings, got {type(ips).__name__}")
        for index, ip in enumerate(ips):
            if not isinstance(ip, str):
                raise InvalidArgumentTypeError(f"ips[{index}]", f"must be a string, got {type(ip).__name__}")
            problem = models.address_problem(ip)
            if problem is not None:
                raise InvalidArgumentError(f"ips[{index}]", problem)
        body = models.IpList(ip_list=list(ips)).to_api()
        self._write(method, self._path(IP_GROUP_IPS_PATH, project, name), body, idempotent=idempotent)
