"""The operations of the management API, grouped as ``client.endpoints``, ``client.rlcl`` and
``client.reports``. Arguments and results are the models; bodies are the models' ``to_api()``.

Each call states whether repeating it is harmless (``idempotent``), which decides what the
retry logic may repeat. Reads, the PATCH operations (they set values) and the RLCL replace and
delete (replacing twice or deleting what is gone changes nothing) are idempotent. Endpoint
create and RLCL add are not, and neither is endpoint delete: its repeat answers 400 "not
found", which would turn a success into an error. Those three are retried only when the
request never reached the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import quote

import httpx
import pydantic

from .. import models
from ._constants import ENDPOINTS_PATH, REPORT_PATH, RLCL_ENDPOINTS_PATH, RLCL_PATH, RLCLS_PATH
from ._exceptions import APIStatusError

if TYPE_CHECKING:
    from ._client import ApinizerClient

__all__ = ["NOT_GIVEN", "Endpoints", "NotGiven", "Reports", "Rlcl"]

_M = TypeVar("_M", bound=pydantic.BaseModel)


class NotGiven:
    """The default of optional keywords whose ``None`` would mean something (``update``)."""

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = NotGiven()


def _segment(value: str) -> str:
    """A path parameter, percent-encoded so that ``/``, ``?``, ``#`` and spaces stay inside it."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"path parameters must be non-empty strings, got {value!r}")
    return quote(value, safe="")


def _coerce(model: type[_M], value: _M | Mapping[str, Any]) -> _M:
    """A model instance as is; a mapping (snake_case or the API's camelCase) validated into one."""
    return value if isinstance(value, model) else model.model_validate(value)


class _Resource:
    def __init__(self, client: ApinizerClient) -> None:
        self._client = client

    def _write(self, method: str, path: str, body: dict[str, Any] | None, *, idempotent: bool) -> None:
        """Send a write and accept its ``{success: true}``."""
        response = self._client._request(method, path, body=body, idempotent=idempotent)
        self._client._expect_success(response, method, path)


class Reports(_Resource):
    """Organization-level reports."""

    def organization_access(self) -> models.AccessReport:
        """``GET /apiops/reports/organization-api-data-model-access``: externally shared proxies.

        Needs a system administrator or analyzer; others get :class:`AuthenticationError` (401).
        """
        response = self._client._request("GET", REPORT_PATH, idempotent=True)
        return self._client._parse(models.AccessReport, response, "GET", REPORT_PATH)


class Endpoints(_Resource):
    """Endpoints (API methods) of an API proxy.

    An endpoint is addressed by ``name`` (its path) and ``http_method``, which accepts an
    :class:`HttpMethod` or its exact string value (``"GET"``).
    """

    @staticmethod
    def _path(project: str, proxy: str, suffix: str = "") -> str:
        return ENDPOINTS_PATH.format(project=_segment(project), proxy=_segment(proxy)) + suffix

    def _identified(
        self, suffix: str, project: str, proxy: str, name: str, http_method: models.HttpMethod | str
    ) -> tuple[str, httpx.Response]:
        """POST ``{name, httpMethod}`` to ``endpoints/<suffix>`` (get, policies): path and response."""
        path = self._path(project, proxy, suffix)
        body = models.EndpointIdentifier(name=name, http_method=models.HttpMethod(http_method)).to_api()
        return path, self._client._request("POST", path, body=body, idempotent=True)

    def list(self, project: str, proxy: str) -> list[models.Endpoint]:
        """``GET .../endpoints/``: every endpoint of the proxy (REST or SOAP), without policies."""
        path = self._path(project, proxy)
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.EndpointList, response, "GET", path).result_list

    def get(
        self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str
    ) -> models.Endpoint:
        """``POST .../endpoints/details/``. An unknown endpoint raises :class:`BadRequestError`."""
        path, response = self._identified("details/", project, proxy, name, http_method)
        return self._client._parse(models.Endpoint, response, "POST", path)

    def find(
        self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str
    ) -> models.Endpoint | None:
        """Like :meth:`get`, but None when no endpoint matches; a missing proxy still raises."""
        try:
            return self.get(project, proxy, name, http_method)
        except APIStatusError as exc:
            if exc.is_endpoint_not_found:
                return None
            raise

    def policies(
        self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str
    ) -> models.EndpointPolicies:
        """``POST .../endpoints/policies/``: the endpoint with its request, response and error policies."""
        path, response = self._identified("policies/", project, proxy, name, http_method)
        return self._client._parse(models.EndpointPolicies, response, "POST", path)

    def create(self, project: str, proxy: str, endpoint: models.EndpointSpec | Mapping[str, Any]) -> None:
        """``POST .../endpoints/`` (REST proxies only). The new endpoint is active.

        Not idempotent: retried only when the request never reached the server.
        """
        spec = _coerce(models.EndpointSpec, endpoint)
        self._write("POST", self._path(project, proxy), spec.to_api(), idempotent=False)

    def update(
        self,
        project: str,
        proxy: str,
        name: str,
        http_method: models.HttpMethod | str,
        *,
        description: str | NotGiven | None = NOT_GIVEN,
        backend_resource_url: str | NotGiven = NOT_GIVEN,
        backend_http_method: models.HttpMethod | str | NotGiven = NOT_GIVEN,
    ) -> None:
        """``PATCH .../endpoints/``: only the keywords given are sent; the rest stays unchanged.

        ``description=None`` (or ``""``) clears the description; it is sent as ``""`` because a
        PATCH commonly reads ``null`` as "not given".
        """
        changes: dict[str, Any] = {}
        if not isinstance(description, NotGiven):
            changes["description"] = description or ""
        if not isinstance(backend_resource_url, NotGiven):
            changes["backend_resource_url"] = backend_resource_url
        if not isinstance(backend_http_method, NotGiven):
            changes["backend_http_method"] = models.HttpMethod(backend_http_method)
        update = models.EndpointUpdate(name=name, http_method=models.HttpMethod(http_method), **changes)
        self._write("PATCH", self._path(project, proxy), update.to_api(), idempotent=True)

    def delete(self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str) -> None:
        """``POST .../endpoints/delete/`` (REST proxies only): permanent, policies included.

        Retried only when the request never reached the server: a repeat of a delete that did
        happen would answer 400 "not found".
        """
        path = self._path(project, proxy, "delete/")
        body = models.EndpointIdentifier(name=name, http_method=models.HttpMethod(http_method)).to_api()
        self._write("POST", path, body, idempotent=False)

    def _patch_target(
        self,
        suffix: str,
        project: str,
        proxy: str,
        name: str,
        http_method: models.HttpMethod | str,
        body: type[models.EndpointTarget],
        **fields: Any,
    ) -> None:
        """PATCH a body addressed by ``identifierName``/``identifierHttpMethod`` (status, cache, wsa)."""
        target = body(identifier_name=name, identifier_http_method=models.HttpMethod(http_method), **fields)
        self._write("PATCH", self._path(project, proxy, suffix), target.to_api(), idempotent=True)

    def set_status(
        self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str, active: bool
    ) -> None:
        """``PATCH .../endpoints/status/``: enable (``active=True``) or disable the endpoint."""
        self._patch_target(
            "status/", project, proxy, name, http_method, models.EndpointStatusUpdate, active=active
        )

    def set_cache(
        self,
        project: str,
        proxy: str,
        name: str,
        http_method: models.HttpMethod | str,
        cache_settings: models.CacheSettings | Mapping[str, Any],
    ) -> None:
        """``PATCH .../endpoints/cache/``: endpoint-level cache settings (they override the proxy's)."""
        settings = _coerce(models.CacheSettings, cache_settings)
        self._patch_target(
            "cache/", project, proxy, name, http_method, models.EndpointCacheUpdate, cache_settings=settings
        )

    def set_wsa(
        self,
        project: str,
        proxy: str,
        name: str,
        http_method: models.HttpMethod | str,
        wsa_settings: models.WsaSettings | Mapping[str, Any],
    ) -> None:
        """``PATCH .../endpoints/wsa/``: WS-Addressing settings of a SOAP proxy's endpoint."""
        settings = _coerce(models.WsaSettings, wsa_settings)
        self._patch_target(
            "wsa/", project, proxy, name, http_method, models.EndpointWsaUpdate, wsa_settings=settings
        )


class Rlcl(_Resource):
    """Rate-limit control lists: the record itself and its endpoint list (add, replace and delete).

    The gateway rejects an empty list with 400; the client sends what it is given and lets the
    gateway's answer stand. The record's create, update and delete follow the product's
    documentation (the spec does not show them):
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/index.md
    """

    def create(self, project: str, rlcl: models.RlclSpec | Mapping[str, Any]) -> None:
        """``POST .../rlcl/``: a new, empty RLCL.

        A taken name answers 400 ``An RLCL with same name (<name>) already exists in project!``.
        Not idempotent: retried only when the request never reached the server.
        """
        spec = _coerce(models.RlclSpec, rlcl)
        self._write("POST", RLCLS_PATH.format(project=_segment(project)), spec.to_api(), idempotent=False)

    def update(self, project: str, rlcl: models.RlclSpec | Mapping[str, Any]) -> None:
        """``PUT .../rlcl/{rlclName}/`` with every field: the name (which cannot change) is the spec's.

        The RLCL's endpoints and credentials are left as they are. An unknown RLCL answers 400
        ``RLCL (<name>) is not found!``.
        """
        spec = _coerce(models.RlclSpec, rlcl)
        path = RLCL_PATH.format(project=_segment(project), rlcl=_segment(spec.name))
        self._write("PUT", path, spec.to_api(), idempotent=True)

    def delete(self, project: str, rlcl: str) -> None:
        """``DELETE .../rlcl/{rlclName}/``: permanent, with the RLCL's endpoints, credentials and conditions.

        Retried only when the request never reached the server: a repeat of a delete that did
        happen would answer 400 "not found".
        """
        path = RLCL_PATH.format(project=_segment(project), rlcl=_segment(rlcl))
        self._write("DELETE", path, None, idempotent=False)

    def _send_list(
        self,
        method: str,
        project: str,
        rlcl: str,
        entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]],
        *,
        idempotent: bool,
    ) -> None:
        if isinstance(entries, Mapping | str | bytes):
            raise TypeError("entries must be a sequence of EndpointRateLimit")
        path = RLCL_ENDPOINTS_PATH.format(project=_segment(project), rlcl=_segment(rlcl))
        body = models.EndpointRateLimitList(
            endpoint_rate_limit_list=[_coerce(models.EndpointRateLimit, entry) for entry in entries]
        ).to_api()
        self._write(method, path, body, idempotent=idempotent)

    def add_endpoints(
        self, project: str, rlcl: str, entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]]
    ) -> None:
        """``POST .../rlcl/{rlcl}/endpoints/``: append entries; duplicates are ignored by the gateway.

        Treated as not idempotent (retried only when the request never reached the server).
        """
        self._send_list("POST", project, rlcl, entries, idempotent=False)

    def replace_endpoints(
        self, project: str, rlcl: str, entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]]
    ) -> None:
        """``PUT .../rlcl/{rlcl}/endpoints/``: the list becomes exactly ``entries``."""
        self._send_list("PUT", project, rlcl, entries, idempotent=True)

    def delete_endpoints(
        self, project: str, rlcl: str, entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]]
    ) -> None:
        """``DELETE .../rlcl/{rlcl}/endpoints/`` with a JSON body: remove the matching entries."""
        self._send_list("DELETE", project, rlcl, entries, idempotent=True)
