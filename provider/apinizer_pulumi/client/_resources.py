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

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import quote

import httpx

from .. import models
from ._constants import (
    ENDPOINTS_PATH,
    REPORT_PATH,
    RLCL_CONDITION_PATH,
    RLCL_CREDENTIALS_PATH,
    RLCL_ENDPOINTS_PATH,
    RLCL_PATH,
    RLCLS_PATH,
)
from ._exceptions import APIStatusError, InvalidArgumentError, InvalidArgumentTypeError

if TYPE_CHECKING:
    import pydantic

    from ._client import ApinizerClient

__all__ = ["NOT_GIVEN", "Endpoints", "NotGiven", "Reports", "Rlcl"]

_M = TypeVar("_M", bound="pydantic.BaseModel")
#: A model of a family whose writes refuse unknown fields (a policy, a connection).
_T = TypeVar("_T", bound="models.ApiModel")


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


def _name_problem(value: str, argument: str = "name") -> str | None:
    """``models.name_problem``, which walks the name a character at a time through ``unicodedata``,
    asked only of a name that ``str.isprintable`` refuses: a printable string holds no character of
    a category it refuses (controls, format characters, line and paragraph separators), and every
    path segment and delete body has its names checked (docs/performance.md)."""
    return None if value.isprintable() else models.name_problem(value, argument)


def _segment(value: str, argument: str) -> str:
    """A path parameter, percent-encoded so that ``/``, ``?``, ``#`` and spaces stay inside it.

    ``argument`` names the parameter in the :class:`InvalidArgumentError` of an empty value or
    one that holds a control, format or line-separator character.
    """
    if not isinstance(value, str):
        raise InvalidArgumentTypeError(argument, f"must be a string, got {type(value).__name__}")
    if not value:
        raise InvalidArgumentError(argument, "must be a non-empty string, got ''")
    problem = _name_problem(value, argument)
    if problem is not None:
        raise InvalidArgumentError(argument, problem.removeprefix(f"{argument} "))
    return quote(value, safe="")


def _method(value: models.HttpMethod | str, argument: str = "http_method") -> models.HttpMethod:
    try:
        return models.HttpMethod(value)
    except ValueError:
        allowed = ", ".join(member.value for member in models.HttpMethod)
        raise InvalidArgumentError(argument, f"must be one of {allowed}, got {value!r}") from None


def _problems(
    exc: pydantic.ValidationError, prefix: str, renames: Mapping[str, str]
) -> tuple[tuple[str, str], ...]:
    """Each error of ``exc`` as (dotted path under ``prefix``, reason), the top field renamed."""
    problems = []
    for error in exc.errors():
        parts = [str(part) for part in error["loc"]]
        if parts:
            parts[0] = renames.get(parts[0], parts[0])
        path = prefix
        for part in parts:
            path += f"[{part}]" if part.isdigit() else ("." if path else "") + part
        reason = error["msg"].removeprefix("Value error, ")
        problems.append((path or prefix, reason))
    return tuple(problems)


def _coerce(model: type[_M], value: object, argument: str) -> _M:
    """A model instance as is; a mapping (snake_case or the API's camelCase) validated into one.

    A mapping that does not validate raises :class:`InvalidArgumentError` naming ``argument``
    and the path of each fault (``cache_settings.ttl``); anything else, its type error.
    """
    import pydantic  # here: only what builds a model pays for importing pydantic

    if isinstance(value, model):
        return value
    if not isinstance(value, Mapping):
        raise InvalidArgumentTypeError(
            argument, f"must be a {model.__name__} or a mapping, got {type(value).__name__}"
        )
    try:
        return model.model_validate(value)
    except pydantic.ValidationError as exc:
        raise InvalidArgumentError(argument, _problems(exc, argument, {})) from None


def _typed(
    value: object,
    base: type[_T],
    parse: Callable[[Mapping[str, Any]], _T],
    unknown_type: type[Exception],
    argument: str,
) -> _T:
    """One of the types of a discriminated family (a policy, a connection): an instance of ``base``
    as is, or a mapping read by ``parse``; refused, naming ``argument``, when it does not validate
    or holds a field its type does not have (each named)."""
    import pydantic

    if isinstance(value, base):
        model = value
    elif isinstance(value, Mapping):
        try:
            model = parse(value)
        except unknown_type as exc:
            raise InvalidArgumentError(argument, str(exc)) from None
        except pydantic.ValidationError as exc:
            raise InvalidArgumentError(argument, _problems(exc, argument, {})) from None
    else:
        raise InvalidArgumentTypeError(
            argument, f"must be a {base.__name__} or a mapping, got {type(value).__name__}"
        )
    unknown = models.unknown_fields(model)
    if unknown:
        why = f"is not a field of this {argument} type"
        raise InvalidArgumentError(argument, tuple((f"{argument}.{field}", why) for field in unknown))
    return model


def _body(model: type[_M], renames: Mapping[str, str], **fields: Any) -> _M:
    """``model(**fields)`` built from a method's arguments; a fault names the argument it came
    from (``renames`` maps a field to its argument: ``identifier_name`` came from ``name``)."""
    import pydantic

    try:
        return model(**fields)
    except pydantic.ValidationError as exc:
        problems = _problems(exc, "", renames)
        raise InvalidArgumentError(problems[0][0].split(".")[0].split("[")[0], problems) from None


#: The arguments that the endpoint-addressing fields of the bodies come from.
_TARGET_ARGUMENTS = {"identifier_name": "name", "identifier_http_method": "http_method"}


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
        path = ENDPOINTS_PATH.format(project=_segment(project, "project"), proxy=_segment(proxy, "proxy"))
        return path + suffix

    @staticmethod
    def _identifier(name: str, http_method: models.HttpMethod | str) -> dict[str, Any]:
        method = _method(http_method)
        if isinstance(name, str) and name and _name_problem(name) is None:
            # What the model gives for a name it accepts, without building it: every delete sends one.
            return {"name": name, "httpMethod": method.value}
        return _body(models.EndpointIdentifier, {}, name=name, http_method=method).to_api()

    def _identified(
        self, suffix: str, project: str, proxy: str, name: str, http_method: models.HttpMethod | str
    ) -> tuple[str, httpx.Response]:
        """POST ``{name, httpMethod}`` to ``endpoints/<suffix>`` (get, policies): path and response."""
        path = self._path(project, proxy, suffix)
        body = self._identifier(name, http_method)
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
        path = self._path(project, proxy)
        spec = _coerce(models.EndpointSpec, endpoint, "endpoint")
        self._write("POST", path, spec.to_api(), idempotent=False)

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
        path = self._path(project, proxy)
        changes: dict[str, Any] = {}
        if not isinstance(description, NotGiven):
            changes["description"] = description or ""
        if not isinstance(backend_resource_url, NotGiven):
            changes["backend_resource_url"] = backend_resource_url
        if not isinstance(backend_http_method, NotGiven):
            changes["backend_http_method"] = _method(backend_http_method, "backend_http_method")
        update = _body(models.EndpointUpdate, {}, name=name, http_method=_method(http_method), **changes)
        self._write("PATCH", path, update.to_api(), idempotent=True)

    def delete(self, project: str, proxy: str, name: str, http_method: models.HttpMethod | str) -> None:
        """``POST .../endpoints/delete/`` (REST proxies only): permanent, policies included.

        Retried only when the request never reached the server: a repeat of a delete that did
        happen would answer 400 "not found".
        """
        path = self._path(project, proxy, "delete/")
        self._write("POST", path, self._identifier(name, http_method), idempotent=False)

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
        path = self._path(project, proxy, suffix)
        method = _method(http_method)
        target = _body(body, _TARGET_ARGUMENTS, identifier_name=name, identifier_http_method=method, **fields)
        self._write("PATCH", path, target.to_api(), idempotent=True)

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
        settings = _coerce(models.CacheSettings, cache_settings, "cache_settings")
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
        settings = _coerce(models.WsaSettings, wsa_settings, "wsa_settings")
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
        path = RLCLS_PATH.format(project=_segment(project, "project"))
        spec = _coerce(models.RlclSpec, rlcl, "rlcl")
        self._write("POST", path, spec.to_api(), idempotent=False)

    def update(
        self,
        project: str,
        rlcl: models.RlclUpdate | Mapping[str, Any],
        *,
        rlcl_name: str | None = None,
    ) -> None:
        """``PUT .../rlcl/{rlclName}/`` with every field; the name cannot change.

        The RLCL to update is ``rlcl_name``, or else the body's ``name``. The body may leave
        ``name`` out, as the documented example does (``RlclUpdate`` or a mapping without it);
        when both are given they must agree. The RLCL's endpoints and credentials are left as
        they are. An unknown RLCL answers 400 ``RLCL (<name>) is not found!``.
        """
        body = _coerce(models.RlclUpdate, rlcl, "rlcl")
        if rlcl_name is None and body.name is None:
            raise InvalidArgumentError("rlcl_name", "is required when the body has no name")
        if rlcl_name is not None and body.name is not None and rlcl_name != body.name:
            raise InvalidArgumentError(
                "rlcl.name", f"{body.name!r} differs from rlcl_name {rlcl_name!r}: a name cannot change"
            )
        target = rlcl_name if rlcl_name is not None else body.name
        assert target is not None
        path = RLCL_PATH.format(project=_segment(project, "project"), rlcl=_segment(target, "rlcl_name"))
        self._write("PUT", path, body.to_api(), idempotent=True)

    def delete(self, project: str, rlcl: str) -> None:
        """``DELETE .../rlcl/{rlclName}/``: permanent, with the RLCL's endpoints, credentials and conditions.

        Retried only when the request never reached the server: a repeat of a delete that did
        happen would answer 400 "not found".
        """
        path = RLCL_PATH.format(project=_segment(project, "project"), rlcl=_segment(rlcl, "rlcl"))
        self._write("DELETE", path, None, idempotent=False)

    @staticmethod
    def _entries(
        entries: Any, build: Callable[[int, Any], models.EndpointRateLimitKey]
    ) -> list[dict[str, Any]]:
        """The JSON of every entry; ``entries`` must be a list (or other sequence) of them."""
        if isinstance(entries, Mapping | str | bytes) or not isinstance(entries, Sequence):
            raise InvalidArgumentTypeError(
                "entries", f"must be a list of EndpointRateLimit, got {type(entries).__name__}"
            )
        return [build(index, entry).to_api() for index, entry in enumerate(entries)]

    def _send_list(
        self,
        method: str,
        project: str,
        rlcl: str,
        entries: Sequence[models.EndpointRateLimitKey | Mapping[str, Any]],
        build: Callable[[int, Any], models.EndpointRateLimitKey],
        *,
        idempotent: bool,
    ) -> None:
        path = RLCL_ENDPOINTS_PATH.format(project=_segment(project, "project"), rlcl=_segment(rlcl, "rlcl"))
        body = {"endpointRateLimitList": self._entries(entries, build)}
        self._write(method, path, body, idempotent=idempotent)

    @staticmethod
    def _rate_limit(index: int, entry: Any) -> models.EndpointRateLimit:
        return _coerce(models.EndpointRateLimit, entry, f"entries[{index}]")

    @staticmethod
    def _match_key(index: int, entry: Any) -> models.EndpointRateLimitKey:
        """A delete's entry: a model as given; a mapping of the three match keys alone as
        :class:`EndpointRateLimitKey` (the documented body), any other mapping as a whole entry."""
        if isinstance(entry, models.EndpointRateLimitKey):
            return entry
        key_fields = {"api_proxy_name", "endpoint_name", "endpoint_http_method"}
        key_names = key_fields | {"apiProxyName", "endpointName", "endpointHTTPMethod"}
        if isinstance(entry, Mapping) and set(entry) <= key_names:
            return _coerce(models.EndpointRateLimitKey, entry, f"entries[{index}]")
        return _coerce(models.EndpointRateLimit, entry, f"entries[{index}]")

    def add_endpoints(
        self, project: str, rlcl: str, entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]]
    ) -> None:
        """``POST .../rlcl/{rlcl}/endpoints/``: append entries; duplicates are ignored by the gateway.

        Treated as not idempotent (retried only when the request never reached the server).
        """
        self._send_list("POST", project, rlcl, entries, self._rate_limit, idempotent=False)

    def replace_endpoints(
        self, project: str, rlcl: str, entries: Sequence[models.EndpointRateLimit | Mapping[str, Any]]
    ) -> None:
        """``PUT .../rlcl/{rlcl}/endpoints/``: the list becomes exactly ``entries``."""
        self._send_list("PUT", project, rlcl, entries, self._rate_limit, idempotent=True)

    def delete_endpoints(
        self,
        project: str,
        rlcl: str,
        entries: Sequence[models.EndpointRateLimitKey | models.EndpointRateLimit | Mapping[str, Any]],
    ) -> None:
        """``DELETE .../rlcl/{rlcl}/endpoints/`` with a JSON body: remove the matching entries.

        Entries match by proxy, endpoint name and method, so the documented body sends only those
        (:class:`EndpointRateLimitKey`, or a mapping of just ``apiProxyName``, ``endpointName``
        and ``endpointHTTPMethod``); whole :class:`EndpointRateLimit` entries are sent as they are.
        """
        self._send_list("DELETE", project, rlcl, entries, self._match_key, idempotent=True)

    # -- credentials and condition (12-rlcl/credentials and 12-rlcl/condition) --------------------
    # The API cannot read either back; duplicates and absent names are ignored by the gateway.

    def _credentials(self, method: str, project: str, rlcl: str, names: Sequence[str], *,
                     idempotent: bool) -> None:
        if isinstance(names, str | bytes) or not isinstance(names, Sequence):
            raise InvalidArgumentTypeError(
                "names", f"must be a list of credential names, got {type(names).__name__}"
            )
        body = _coerce(models.RlclCredentialNames, {"credential_name_list": list(names)}, "names")
        path = RLCL_CREDENTIALS_PATH.format(project=_segment(project, "project"), rlcl=_segment(rlcl, "rlcl"))
        self._write(method, path, body.to_api(), idempotent=idempotent)

    def add_credentials(self, project: str, rlcl: str, names: Sequence[str]) -> None:
        """``POST .../rlcl/{rlcl}/credentials/``: add credentials (usernames) to those the RLCL has."""
        self._credentials("POST", project, rlcl, names, idempotent=True)

    def replace_credentials(self, project: str, rlcl: str, names: Sequence[str]) -> None:
        """``PUT .../rlcl/{rlcl}/credentials/``: the RLCL's credentials become exactly ``names``."""
        self._credentials("PUT", project, rlcl, names, idempotent=True)

    def delete_credentials(self, project: str, rlcl: str, names: Sequence[str]) -> None:
        """``DELETE .../rlcl/{rlcl}/credentials/`` with a JSON body: remove these; others stay."""
        self._credentials("DELETE", project, rlcl, names, idempotent=True)

    def _condition(self, method: str, project: str, rlcl: str,
                   condition: models.RlclCondition | Mapping[str, Any] | None) -> None:
        path = RLCL_CONDITION_PATH.format(project=_segment(project, "project"), rlcl=_segment(rlcl, "rlcl"))
        body = None if condition is None else _coerce(models.RlclCondition, condition, "condition").to_api()
        self._write(method, path, body, idempotent=True)

    def add_condition(self, project: str, rlcl: str,
                      condition: models.RlclCondition | Mapping[str, Any]) -> None:
        """``POST .../rlcl/{rlcl}/condition/``: the RLCL applies only when the condition holds."""
        self._condition("POST", project, rlcl, condition)

    def update_condition(self, project: str, rlcl: str,
                         condition: models.RlclCondition | Mapping[str, Any]) -> None:
        """``PUT .../rlcl/{rlcl}/condition/``: replace the condition whole."""
        self._condition("PUT", project, rlcl, condition)

    def delete_condition(self, project: str, rlcl: str) -> None:
        """``DELETE .../rlcl/{rlcl}/condition/``: back to the default condition (always applies)."""
        self._condition("DELETE", project, rlcl, None)
