"""HTTP handlers of API proxies, their settings, deployment, export and import, and their routes.

Parse and authorize (:mod:`web`), call :mod:`api_proxies` (writes on the app's writer
thread, each one transaction), serialize what each page documents. A spec is fetched and parsed
before the write (the fetch awaited on the loop, the parsing in the threadpool), so a spec that
cannot be read leaves nothing behind.

Roles: the list page names ROLE_MANAGE_PROXIES, and it is asked of every proxy operation; delete,
deploy and undeploy also need ROLE_DEPLOY_UNDEPLOY_PROXIES, as does a create or update with
``deploy: true``. Projects and environments are :mod:`project_routes`'s, the API proxies report
:mod:`report_routes`'s.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
import zipfile
from collections.abc import Callable
from typing import Any, TypeVar

import defusedxml.ElementTree as SafeXml
from defusedxml import DefusedXmlException
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    ApiKeysUpdate,
    ApiModel,
    ApiProxy,
    ApiProxyList,
    ApiProxyRequest,
    ApiProxySpecType,
    CacheSettings,
    CircuitBreakerSettings,
    ClientRoute,
    ConnectionSettings,
    CorsSettings,
    DeploymentResponse,
    ForwardedIpHeaderSettings,
    ImportMetadata,
    JsonErrorTemplate,
    MetadataUpdate,
    MtlsSettings,
    NtlmSettings,
    ProxyServerSettings,
    RoutingAddressesUpdate,
    RoutingStatusUpdate,
    SuccessResponse,
    TrafficLogSettings,
    XmlErrorTemplate,
)
from apinizer_pulumi.models._spec import MAX_ZIP_CONTENT_BYTES

from . import api_proxies, secrets_at_rest, specs
from .auth import PASSWORD_HASHING, ROLE_DEPLOY_UNDEPLOY_PROXIES, Principal
from .deployments import require_project
from .errors import BadRequestError, FieldRequiredError
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text, validation_message
from .web import (
    Route,
    check_json_values,
    json_response,
    multipart_parts,
    parse_model,
    project_name,
    proxy_manager,
    read,
    read_object,
    success,
    without_nulls,
    write,
)

M = TypeVar("M", bound=BaseModel)

PROXIES = "/apiops/projects/{projectName}/apiProxies/"
PROXIES_URL = PROXIES + "url/"
PROXIES_FILE = PROXIES + "file/"
PROXY = PROXIES + "{apiProxyName}/"
DEPLOYMENT = PROXY + "environments/{environmentName}/"
EXPORT = PROXY + "export/"
IMPORT = PROXIES + "import/"
OVERRIDE = PROXY + "import/"
SETTINGS = PROXY + "settings/"
EXPORT_FILE = "apiProxyExportFile"
NOT_A_ZIP = f"{EXPORT_FILE} parameter must be in zip file format and must end with zip extension!"
#: Bounds of an export ZIP: no export needs more; its JSON, no more than a spec ZIP's files together.
MAX_EXPORT_ENTRIES = 100
MAX_EXPORT_BYTES = MAX_ZIP_CONTENT_BYTES
#: Fixed entry times: an export's bytes depend only on the proxy.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


# -- API proxies: reads ------------------------------------------------------------------------------


async def list_api_proxies(request: Request) -> Response:
    proxy_manager(request)
    proxies = read(request, api_proxies.list_proxies, project_name(request))
    return json_response({"status": "SUCCESS", "resultList": proxies, "resultCount": len(proxies)})


async def get_api_proxy(request: Request) -> Response:
    proxy_manager(request)
    name = str(request.path_params["apiProxyName"])
    return json_response(read(request, api_proxies.get_proxy, project_name(request), name))


# -- API proxies: create and update ------------------------------------------------------------------


def _proxy_request(data: dict[str, Any]) -> ApiProxyRequest:
    proxy = parse_model(ApiProxyRequest, without_nulls(data))
    if not proxy.api_proxy_name.strip():
        raise BadRequestError("apiProxyName value can not be empty!")
    check_text("apiProxyName", proxy.api_proxy_name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text(
        "apiProxyDescription",
        proxy.api_proxy_description,
        max_length=MAX_DESCRIPTION_LENGTH,
        single_line=False,
    )
    return proxy


def _needs_spec(proxy: ApiProxyRequest, method: str) -> bool:
    if proxy.api_proxy_creation_type is ApiProxySpecType.REVERSE_PROXY:
        return False
    # A PUT without reParse changes the proxy's settings only (the update page's default is true).
    return method == "POST" or proxy.re_parse


def _precheck(db: sqlite3.Connection, project: str, proxy: ApiProxyRequest, method: str) -> None:
    """The errors that need no spec, before one is fetched (the write checks them again)."""
    require_project(db, project)
    exists = api_proxies.proxy_exists(db, project, proxy.api_proxy_name)
    if method == "PUT" and not exists:
        raise api_proxies.ReparseNotFoundError(proxy.api_proxy_name)
    if method == "POST" and exists and not proxy.re_parse:
        raise api_proxies.ApiProxyExistsError(proxy.api_proxy_name)


async def _save(
    request: Request, proxy: ApiProxyRequest, endpoints: list[specs.SpecEndpoint] | None
) -> Response:
    answer = await write(
        request, api_proxies.save_proxy, project_name(request), proxy, endpoints, request.method
    )
    return json_response(answer)


def _checked_request(request: Request, caller: Principal, data: dict[str, Any]) -> ApiProxyRequest:
    """The body (or metadata) validated, the deploy role checked when it deploys, and the errors
    that need no spec answered before a spec is fetched or parsed."""
    if request.method == "PUT" and data.get("reParse") is None:
        # The update pages' default; the create pages' is false (the model's).
        data = {**data, "reParse": True}
    proxy = _proxy_request(data)
    if proxy.deploy:
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)
    read(request, _precheck, project_name(request), proxy, request.method)
    return proxy


async def _parsed(proxy: ApiProxyRequest, content: bytes, filename: str) -> list[specs.SpecEndpoint]:
    # CPU work (validation of a large spec takes a while): off the event loop.
    return await run_in_threadpool(specs.parse_spec, proxy.api_proxy_creation_type.value, content, filename)


async def save_from_url(request: Request) -> Response:
    """``POST`` (create) and ``PUT`` (update) of ``.../apiProxies/url/``."""
    caller = proxy_manager(request)
    # The documented WSDL and reverse-proxy examples send "specUrl": null.
    proxy = _checked_request(request, caller, await read_object(request))
    endpoints = None
    if _needs_spec(proxy, request.method):
        if not proxy.spec_url:
            raise BadRequestError("specUrl value can not be empty!")
        headers = {h.header_name: h.header_value for h in proxy.spec_authorization_value_list}
        rules: specs.FetchRules = getattr(request.app.state, "spec_fetch_rules", specs.FetchRules())
        endpoints = await _parsed(proxy, *await specs.fetch_spec(proxy.spec_url, headers, rules))
    return await _save(request, proxy, endpoints)


async def save_from_file(request: Request) -> Response:
    """``POST`` (create) and ``PUT`` (update) of ``.../apiProxies/file/``: ``metadata`` and ``specFile``."""
    caller = proxy_manager(request)
    metadata, spec_file, filename = await _readmultipart_parts(request)
    proxy = _checked_request(request, caller, metadata)
    endpoints = None
    if _needs_spec(proxy, request.method):
        if spec_file is None:
            raise FieldRequiredError("specFile")
        endpoints = await _parsed(proxy, spec_file, filename)
    return await _save(request, proxy, endpoints)


async def _readmultipart_parts(request: Request) -> tuple[dict[str, Any], bytes | None, str]:
    """(metadata, specFile's bytes or None, its file name) of a file create or update."""
    parts = await multipart_parts(request, "metadata and specFile", "specFile")
    if "metadata" not in parts:
        raise FieldRequiredError("metadata")
    content, filename = parts.get("specFile", (None, ""))
    return _metadata(parts["metadata"][0]), content, filename


def _metadata(raw: bytes) -> dict[str, Any]:
    try:
        metadata = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequestError("metadata is not valid JSON") from None
    if not isinstance(metadata, dict):
        raise BadRequestError("metadata must be a JSON object")
    check_json_values(metadata)
    return metadata


# -- delete and deployment --------------------------------------------------------------------------


def _deployment_ref(request: Request) -> tuple[str, str, str]:
    params = request.path_params
    return project_name(request), str(params["apiProxyName"]), str(params["environmentName"])


async def delete_api_proxy(request: Request) -> Response:
    proxy_manager(request, deploys=True)
    name = str(request.path_params["apiProxyName"])
    return json_response(await write(request, api_proxies.delete_proxy, project_name(request), name))


async def deploy_api_proxy(request: Request) -> Response:
    proxy_manager(request, deploys=True)
    return json_response(await write(request, api_proxies.deploy, *_deployment_ref(request)))


async def undeploy_api_proxy(request: Request) -> Response:
    proxy_manager(request, deploys=True)
    return json_response(await write(request, api_proxies.undeploy, *_deployment_ref(request)))


# -- export and import ------------------------------------------------------------------------------


async def export_api_proxy(request: Request) -> Response:
    proxy_manager(request)
    name = str(request.path_params["apiProxyName"])
    definition = read(request, api_proxies.export_proxy, project_name(request), name)
    entry = re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".json"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(entry, date_time=_ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, json.dumps(definition, indent=2, sort_keys=True, ensure_ascii=False))
    return Response(
        buffer.getvalue(),
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{EXPORT_FILE}.zip"'},
    )


def _exported(content: bytes, filename: str) -> api_proxies.ExportedProxy:
    """The proxy an export ZIP holds; what is not one is a 400 that says why."""
    if not filename.lower().endswith(".zip") or content[:4] != b"PK\x03\x04":
        raise BadRequestError(NOT_A_ZIP)
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            infos = [i for i in archive.infolist() if i.filename.lower().endswith(".json")]
            if len(archive.infolist()) > MAX_EXPORT_ENTRIES or len(infos) != 1:
                raise BadRequestError(f"{EXPORT_FILE} does not hold an API Proxy export (one .json file)")
            if infos[0].file_size > MAX_EXPORT_BYTES:
                raise BadRequestError(f"{EXPORT_FILE} holds more than {MAX_EXPORT_BYTES} bytes")
            data = json.loads(archive.read(infos[0]).decode("utf-8"))
    except (zipfile.BadZipFile, OSError, RuntimeError):
        raise BadRequestError(NOT_A_ZIP) from None
    except (UnicodeDecodeError, ValueError):
        raise BadRequestError(
            f"{EXPORT_FILE} does not hold an API Proxy export (its .json is not JSON)"
        ) from None
    try:
        return api_proxies.ExportedProxy.model_validate(data)
    except ValidationError as exc:
        reason = validation_message(exc)
        raise BadRequestError(f"{EXPORT_FILE} does not hold a valid API Proxy export: {reason}") from None


async def _exported_hashed(content: bytes, filename: str) -> api_proxies.ExportedProxy:
    """:func:`_exported`, with what the API never answers hashed (:mod:`secrets_at_rest`)."""
    exported = _exported(content, filename)

    def hashed() -> api_proxies.ExportedProxy:
        policies = [
            item.model_copy(update={"body": secrets_at_rest.hash_policy(item.body, item.type)})
            if item.body is not None
            else item
            for item in exported.policies or []
        ]
        return exported.model_copy(
            update={"details": secrets_at_rest.hash_details(exported.details),
                    "policies": policies if exported.policies is not None else None}
        )

    return await PASSWORD_HASHING.run(hashed)


async def import_api_proxy(request: Request) -> Response:
    proxy_manager(request)
    parts = await multipart_parts(request, EXPORT_FILE, EXPORT_FILE)
    content, filename = parts.get(EXPORT_FILE, (b"", ""))
    if not content:
        raise BadRequestError(f"{EXPORT_FILE} value can not be empty!")
    exported = await _exported_hashed(content, filename)
    return json_response(await write(request, api_proxies.import_proxy, project_name(request), exported))


async def override_api_proxy(request: Request) -> Response:
    caller = proxy_manager(request)
    parts = await multipart_parts(request, f"metadata and {EXPORT_FILE}", EXPORT_FILE)
    if "metadata" not in parts:
        raise FieldRequiredError("metadata")
    metadata = parse_model(ImportMetadata, without_nulls(_metadata(parts["metadata"][0])))
    if metadata.deploy:
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)
    content, filename = parts.get(EXPORT_FILE, (b"", ""))
    if not content:
        raise BadRequestError(f"{EXPORT_FILE} parameter can not be empty!")
    exported = await _exported_hashed(content, filename)
    name = str(request.path_params["apiProxyName"])
    answer = await write(request, api_proxies.override_proxy, project_name(request), name, exported, metadata)
    return json_response(answer)


# -- settings --------------------------------------------------------------------------------------------


def _proxy_name(request: Request) -> str:
    return str(request.path_params["apiProxyName"])


async def _settings(request: Request, model: type[M], problem: str | None = None) -> M:
    """The settings body validated; ``problem`` replaces the validator's text where the page shows one."""
    proxy_manager(request)
    body = await read_object(request)
    try:
        return parse_model(model, without_nulls(body))
    except BadRequestError as exc:
        raise BadRequestError(f"{problem}: {exc.description}" if problem else exc.description) from None


async def set_routing_addresses(request: Request) -> Response:
    proxy_manager(request)
    body = await read_object(request)
    items = body.get("routingAddressList")
    if isinstance(items, list) and any(not isinstance(i, dict) or not i.get("address") for i in items):
        raise BadRequestError("Address is required")  # the page's message
    update = parse_model(RoutingAddressesUpdate, body)
    addresses = [a.to_api() for a in update.routing_address_list]
    await write(
        request, api_proxies.set_routing_addresses, project_name(request), _proxy_name(request), addresses
    )
    return success()


async def set_routing_status(request: Request) -> Response:
    update = await _settings(request, RoutingStatusUpdate, "Invalid routing status")
    await write(
        request, api_proxies.set_routing_status, project_name(request), _proxy_name(request), update.to_api()
    )
    return success()


async def set_client_route(request: Request) -> Response:
    route = await _settings(request, ClientRoute)
    await write(
        request, api_proxies.set_client_route, project_name(request), _proxy_name(request), route.to_api()
    )
    return success()


async def update_metadata(request: Request) -> Response:
    proxy_manager(request)
    body = without_nulls(await read_object(request))
    changes = parse_model(MetadataUpdate, body)
    check_text("name", changes.name, max_length=MAX_NAME_LENGTH, single_line=True)
    await write(
        request,
        api_proxies.update_metadata,
        project_name(request),
        _proxy_name(request),
        changes.model_dump(mode="json", by_alias=True, exclude_unset=True),
    )
    return success()


async def set_cors(request: Request) -> Response:
    cors = await _settings(request, CorsSettings, "Invalid CORS settings")
    if "*" in cors.allow_origin_list and cors.allow_credentials == "true":
        raise BadRequestError(
            'Invalid CORS settings: allowOriginList "*" can not be used with allowCredentials "true"'
        )
    await write(request, api_proxies.set_cors, project_name(request), _proxy_name(request), cors.to_api())
    return success()


Check = Callable[[sqlite3.Connection, Any], None]


def _setting_route(
    suffix: str,
    model: type[ApiModel],
    key: str,
    summary: str,
    *,
    merge: bool = True,
    problem: str | None = None,
    check: Check | None = None,
) -> Route:
    """The route of one settings page, stored under ``details[key]`` (:func:`api_proxies.store_setting`)."""

    async def handler(request: Request) -> Response:
        values = (await _settings(request, model, problem)).to_api()
        await write(
            request,
            api_proxies.store_setting,
            project_name(request),
            _proxy_name(request),
            key,
            values,
            merge,
            check,
        )
        return success()

    return ("PATCH", SETTINGS + suffix, handler, summary, model, SuccessResponse)


def _requires(message: str, *fields: str, when: Callable[[dict[str, Any]], bool]) -> Check:
    """A check: when ``when(settings)``, every one of ``fields`` must be set."""

    def check(db: sqlite3.Connection, settings: dict[str, Any]) -> None:
        if when(settings) and any(settings.get(f) in (None, "") for f in fields):
            raise BadRequestError(message)

    return check


def _stored_api_keys(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    row = db.execute(
        "SELECT d.body FROM proxies p JOIN proxy_details d ON d.proxy_id = p.id"
        " WHERE p.project = ? AND p.name = ?",
        (project, name),
    ).fetchone()
    keys = json.loads(row["body"]).get("apiKeys") if row is not None else None
    return keys if isinstance(keys, dict) else {}


async def set_api_keys(request: Request) -> Response:
    keys = (await _settings(request, ApiKeysUpdate)).to_api()
    if not keys:
        raise BadRequestError("At least one key (publicKey or secretKey) must be provided")
    for field, value in keys.items():
        if not value.strip():
            raise BadRequestError(f"{field} must not be blank")
    stored = read(request, _stored_api_keys, project_name(request), _proxy_name(request))
    keys = await PASSWORD_HASHING.run(lambda: secrets_at_rest.hash_api_keys(keys, stored))
    await write(
        request,
        api_proxies.store_setting,
        project_name(request),
        _proxy_name(request),
        "apiKeys",
        keys,
        True,
        None,
    )
    return success()


def _json_template(db: sqlite3.Connection, settings: dict[str, Any]) -> None:
    if settings.get("jsonValue") is not None:
        try:
            json.loads(settings["jsonValue"])
        except ValueError:
            raise BadRequestError("Invalid JSON template") from None


def _xml_template(db: sqlite3.Connection, settings: dict[str, Any]) -> None:
    if settings.get("xmlValue") is not None:
        try:
            SafeXml.fromstring(settings["xmlValue"])
        except (SafeXml.ParseError, DefusedXmlException):
            raise BadRequestError("Invalid XML template") from None


def _proxy_server(db: sqlite3.Connection, settings: dict[str, Any]) -> None:
    _requires(
        "Proxy host and port are required when proxy is enabled",
        "proxyHost",
        "proxyPort",
        when=lambda s: bool(s.get("proxyEnabled")) and not s.get("proxyFromHeaderEnabled"),
    )(db, settings)
    _requires(
        "Proxy username and password are required when proxy authorization is needed",
        "proxyUsername",
        "proxyPassword",
        when=lambda s: bool(s.get("proxyAuthorizationNeeded")),
    )(db, settings)


async def set_hide_spec_file(request: Request) -> Response:
    proxy_manager(request)
    flag = str(request.path_params["hideSpecFile"]).lower()
    if flag not in ("true", "false"):
        raise BadRequestError("Invalid hideSpecFile parameter")
    await write(
        request,
        api_proxies.store_setting,
        project_name(request),
        _proxy_name(request),
        "hideSpecFile",
        flag == "true",
        False,
        None,
    )
    return success()


SETTING_ROUTES: list[Route] = [
    ("PATCH", SETTINGS + "keys/", set_api_keys, "Set an API proxy's keys", ApiKeysUpdate, SuccessResponse),
    _setting_route("cache/", CacheSettings, "cache", "Set an API proxy's cache settings", merge=False),
    _setting_route(
        "circuit-breaker/",
        CircuitBreakerSettings,
        "circuitBreaker",
        "Set the circuit breaker",
        problem="Invalid circuit breaker settings",
    ),
    _setting_route(
        "connection/",
        ConnectionSettings,
        "connection",
        "Set the backend connection settings",
        check=_requires(
            "Custom connection pool size is required when connectionPoolManagementType is CUSTOM",
            "customConnectionPoolSize",
            when=lambda s: s.get("connectionPoolManagementType") == "CUSTOM",
        ),
    ),
    _setting_route(
        "forwarded-ip-header/",
        ForwardedIpHeaderSettings,
        "forwardedIpHeader",
        "Set the forwarded IP header",
        problem="Invalid forwarded IP header settings",
    ),
    (
        "PATCH",
        SETTINGS + "hide-spec-file/{hideSpecFile}/",
        set_hide_spec_file,
        "Hide the spec file, or not",
        None,
        SuccessResponse,
    ),
    _setting_route(
        "json-error-template/",
        JsonErrorTemplate,
        "jsonErrorTemplate",
        "Set the JSON error template",
        problem="Invalid JSON template",
        check=_json_template,
    ),
    _setting_route(
        "xml-error-template/",
        XmlErrorTemplate,
        "xmlErrorTemplate",
        "Set the XML error template",
        problem="Invalid XML template",
        check=_xml_template,
    ),
    _setting_route(
        "mtls/",
        MtlsSettings,
        "mtls",
        "Set the backend mTLS settings",
        check=_requires(
            "KeyStore ID is required when mTLS is enabled",
            "keyStoreId",
            when=lambda s: bool(s.get("enabled")),
        ),
    ),
    _setting_route(
        "ntlm/",
        NtlmSettings,
        "ntlm",
        "Set the backend NTLM settings",
        check=_requires(
            "Domain, username, and password are required when NTLM is enabled",
            "domain",
            "username",
            "password",
            when=lambda s: bool(s.get("enabled")),
        ),
    ),
    _setting_route(
        "proxy-server/",
        ProxyServerSettings,
        "proxyServer",
        "Set the outbound proxy server",
        check=_proxy_server,
    ),
    _setting_route(
        "traffic-log/",
        TrafficLogSettings,
        "trafficLog",
        "Set the traffic log settings",
        check=api_proxies.check_traffic_log,
    ),
]


# (method, path template, handler, summary, request body model, response model), as app.API_ROUTES.
# The url/ and file/ routes come before the proxy's own: a path is matched to the first template.
ROUTES: list[Route] = [
    ("GET", PROXIES, list_api_proxies, "List a project's API proxies", None, ApiProxyList),
    (
        "POST",
        PROXIES_URL,
        save_from_url,
        "Create an API proxy from a spec URL",
        ApiProxyRequest,
        DeploymentResponse,
    ),
    (
        "PUT",
        PROXIES_URL,
        save_from_url,
        "Update an API proxy from a spec URL",
        ApiProxyRequest,
        DeploymentResponse,
    ),
    (
        "POST",
        PROXIES_FILE,
        save_from_file,
        "Create an API proxy from a spec file (multipart)",
        None,
        DeploymentResponse,
    ),
    (
        "PUT",
        PROXIES_FILE,
        save_from_file,
        "Update an API proxy from a spec file (multipart)",
        None,
        DeploymentResponse,
    ),
    (
        "POST",
        IMPORT,
        import_api_proxy,
        "Import an API proxy from an export ZIP (multipart)",
        None,
        DeploymentResponse,
    ),
    ("GET", PROXY, get_api_proxy, "Get an API proxy", None, ApiProxy),
    (
        "DELETE",
        PROXY,
        delete_api_proxy,
        "Delete an API proxy (undeploys it everywhere)",
        None,
        DeploymentResponse,
    ),
    ("POST", DEPLOYMENT, deploy_api_proxy, "Deploy an API proxy to an environment", None, DeploymentResponse),
    (
        "DELETE",
        DEPLOYMENT,
        undeploy_api_proxy,
        "Undeploy an API proxy from an environment",
        None,
        DeploymentResponse,
    ),
    (
        "PATCH",
        SETTINGS + "addresses/",
        set_routing_addresses,
        "Set an API proxy's routing addresses",
        RoutingAddressesUpdate,
        SuccessResponse,
    ),
    (
        "PATCH",
        SETTINGS + "routing-status/",
        set_routing_status,
        "Turn routing and mirroring on or off",
        RoutingStatusUpdate,
        SuccessResponse,
    ),
    (
        "PATCH",
        SETTINGS + "client-route/",
        set_client_route,
        "Set an API proxy's client route",
        ClientRoute,
        SuccessResponse,
    ),
    (
        "PATCH",
        SETTINGS + "metadata/",
        update_metadata,
        "Rename, describe, categorize or share an API proxy",
        MetadataUpdate,
        SuccessResponse,
    ),
    (
        "PATCH",
        SETTINGS + "cors/",
        set_cors,
        "Set an API proxy's CORS settings",
        CorsSettings,
        SuccessResponse,
    ),
    ("GET", EXPORT, export_api_proxy, "Export an API proxy as a ZIP", None, None),
    (
        "PUT",
        OVERRIDE,
        override_api_proxy,
        "Import an export ZIP over an API proxy (multipart)",
        None,
        DeploymentResponse,
    ),
    *SETTING_ROUTES,
]
