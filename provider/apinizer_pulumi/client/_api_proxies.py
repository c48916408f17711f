"""API proxies and their deployment: ``client.api_proxies``.

Create and update send :class:`~apinizer_pulumi.models.ApiProxyRequest`: as the JSON body of
the URL operations, or as the ``metadata`` part of the multipart upload of the file operations,
beside the ``specFile`` part (a ZIP for a WSDL with many XSDs: pass a directory and it is zipped).

What is retried (see :mod:`._retry`): reads, the PUT update without a re-parse and deploy (the
documentation says a deploy of a deployed proxy redeploys it) are idempotent. Create, delete and
undeploy are not: a repeat answers "already exist" or "not found", which would turn a success into
an error. A re-parse (``update_from_file``, ``update_from_url``) leaves the same proxy when
repeated, but it costs the gateway a whole parse of the spec (13 s for a spec of Stripe's size on
the emulator), and a lost answer is most often the client giving up on a parse still running: so
these are repeated only when the request never reached the server, and the provider reads the
proxy back to decide. A spec upload waits for its answer in proportion to its size
(:func:`._constants.upload_timeout`).

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/index.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/deployment/index.md
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import httpx

from .. import models
from ._constants import upload_timeout
from ._exceptions import (
    ApinizerError,
    APIResponseValidationError,
    APIStatusError,
    InvalidArgumentTypeError,
)
from ._resources import Reports, _coerce, _Resource, _segment

__all__ = [
    "API_PROXIES_PATH",
    "API_PROXIES_REPORT_PATH",
    "API_PROXY_DEPLOYMENT_PATH",
    "API_PROXY_EXPORT_PATH",
    "API_PROXY_FILE_PATH",
    "API_PROXY_IMPORT_PATH",
    "API_PROXY_OVERRIDE_PATH",
    "API_PROXY_PATH",
    "API_PROXY_SETTINGS_PATH",
    "API_PROXY_URL_PATH",
    "EXPORT_FILENAME",
    "ApiProxies",
    "ApiProxyReports",
    "DeploymentFailedError",
    "SpecFile",
    "read_spec_file",
]

API_PROXIES_PATH = "/apiops/projects/{project}/apiProxies/"
API_PROXY_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/"
API_PROXY_URL_PATH = "/apiops/projects/{project}/apiProxies/url/"
API_PROXY_FILE_PATH = "/apiops/projects/{project}/apiProxies/file/"
API_PROXY_DEPLOYMENT_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/environments/{environment}/"
#: The settings pages' operations: ``PATCH .../apiProxies/{apiProxyName}/settings/<suffix>``.
API_PROXY_SETTINGS_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/settings/{suffix}"
API_PROXIES_REPORT_PATH = "/apiops/reports/api-proxies"
API_PROXY_IMPORT_PATH = "/apiops/projects/{project}/apiProxies/import/"
API_PROXY_EXPORT_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/export/"
API_PROXY_OVERRIDE_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/import/"
#: The file name the export page gives its ZIP, and the one an import sends when none is given.
EXPORT_FILENAME = "apiProxyExportFile.zip"

#: The parts of a multipart body: (field name, (file name or None, content, content type)).
_Parts = list[tuple[str, tuple[str | None, bytes, str]]]
#: A spec: its bytes, a path to a file, a path to a directory (zipped, for a WSDL and its XSDs), or a
#: file opened in binary mode (read from where it stands).
SpecFile = bytes | str | os.PathLike[str] | BinaryIO
_SPEC_FILE_KINDS = "bytes, a path to a file or a directory, or a file opened in binary mode"

_CONTENT_TYPES = {
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".wsdl": "text/xml",
    ".xml": "text/xml",
    ".xsd": "text/xml",
    ".zip": "application/zip",
}
#: Fixed entry times make a directory's ZIP depend only on its files, so equal specs give equal bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)



def _proxy_segments(project: str, name: str) -> dict[str, str]:
    """The ``project`` and ``proxy`` path parameters of an API proxy's paths, checked and encoded."""
    return {"project": _segment(project, "project"), "proxy": _segment(name, "name")}

class DeploymentFailedError(ApinizerError):
    """A 2xx answer whose ``deploymentResult`` says the (un)deployment failed in some environment.

    ``failures`` holds ``(environment, message)`` pairs, as the gateway named them.
    """

    def __init__(self, method: str, path: str, failures: Sequence[tuple[str, str | None]]) -> None:
        self.method = method
        self.path = path
        self.failures = [(env, message) for env, message in failures]
        parts = [f"{env}: {message or 'no message'}" for env, message in self.failures] or ["no detail"]
        super().__init__(f"{method} {path} -> deployment failed in {'; '.join(parts)}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.method, self.path, self.failures))


# Shown (and pickled) under the path users import it from, as every other client error.
DeploymentFailedError.__module__ = "apinizer_pulumi.client"


def read_spec_file(spec_file: SpecFile, filename: str | None = None) -> tuple[str, bytes, str]:
    """``(filename, content, content type)`` of a spec given as bytes, a file or a directory.

    A directory becomes a ZIP of its files (paths relative to it, sorted, with fixed times), the
    documented way to upload a WSDL together with the XSDs it imports.
    """
    if isinstance(spec_file, bytes | bytearray):
        name = filename or "spec"
        content = bytes(spec_file)
    elif callable(getattr(spec_file, "read", None)):
        name, content = _read_opened(spec_file, filename)
    elif not isinstance(spec_file, str | os.PathLike):
        raise InvalidArgumentTypeError(
            "spec_file", f"must be {_SPEC_FILE_KINDS}, got {type(spec_file).__name__}"
        )
    else:
        path = Path(spec_file)
        if path.is_dir():
            name = filename or f"{path.name or 'spec'}.zip"
            content = _zip_directory(path)
        else:
            try:
                content = path.read_bytes()
            except OSError as exc:
                raise ValueError(f"spec_file cannot be read: {exc.strerror} ({path})") from None
            name = filename or path.name
    if not content:
        raise ValueError("spec_file is empty")
    suffix = Path(name).suffix.lower()
    content_type = _CONTENT_TYPES.get(suffix) or _sniff(content)
    return name, content, content_type


def _read_opened(opened: Any, filename: str | None) -> tuple[str, bytes]:
    """The name and bytes of an opened file: its name's last part (or "spec"), and what is left to read."""
    try:
        content = opened.read()
    except OSError as exc:
        raise ValueError(f"spec_file cannot be read: {exc.strerror or exc}") from None
    if not isinstance(content, bytes | bytearray):
        raise InvalidArgumentTypeError(
            "spec_file", f"must be {_SPEC_FILE_KINDS}; this file was opened in text mode (open it with 'rb')"
        )
    given = getattr(opened, "name", None)
    return filename or (Path(given).name if isinstance(given, str) and given else "spec"), bytes(content)


def _export_part(export_file: SpecFile) -> tuple[str | None, bytes, str]:
    """The ``apiProxyExportFile`` part: the gateway wants a file name that ends with ``.zip``."""
    name, content, _ = read_spec_file(
        export_file, EXPORT_FILENAME if isinstance(export_file, bytes) else None
    )
    return name if name.lower().endswith(".zip") else EXPORT_FILENAME, content, "application/zip"


def _zip_directory(directory: Path) -> bytes:
    files = sorted(p for p in directory.rglob("*") if p.is_file())
    if not files:
        raise ValueError(f"spec_file directory {directory} holds no files")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            info = zipfile.ZipInfo(file.relative_to(directory).as_posix(), date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, file.read_bytes())
    return buffer.getvalue()


def _sniff(content: bytes) -> str:
    head = content.lstrip()[:1]
    if content[:4] == b"PK\x03\x04":
        return "application/zip"
    if head in (b"{", b"["):
        return "application/json"
    if head == b"<":
        return "text/xml"
    return "application/yaml"


class ApiProxies(_Resource):
    """API proxies of a project: list, get, create and update (from a URL or a file), delete,
    and deploy to or undeploy from an environment."""

    # -- reads ---------------------------------------------------------------------------------

    def list(self, project: str) -> list[models.ApiProxySummary]:
        """``GET .../apiProxies/``: the project's proxies, ordered by name."""
        path = API_PROXIES_PATH.format(project=_segment(project, "project"))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.ApiProxyList, response, "GET", path).result_list

    def get(self, project: str, name: str) -> models.ApiProxy:
        """``GET .../apiProxies/{apiProxyName}/``: the proxy with its routes and deployments.

        An unknown proxy is :class:`NotFoundError` (404 ``ApiProxy (name: <name>) was not found!``).
        """
        path = API_PROXY_PATH.format(**_proxy_segments(project, name))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.ApiProxy, response, "GET", path)

    def find(self, project: str, name: str) -> models.ApiProxy | None:
        """Like :meth:`get`, but None when the proxy does not exist; a missing project still raises."""
        try:
            return self.get(project, name)
        except APIStatusError as exc:
            if exc.status_code == 404 and exc.error_description.startswith("ApiProxy (name:"):
                return None
            raise

    # -- create and update -----------------------------------------------------------------------

    def create_from_url(
        self, project: str, request: models.ApiProxyRequest | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../apiProxies/url/``: a new proxy from the spec at ``spec_url`` (the gateway
        fetches it), or a reverse proxy. ``re_parse`` is sent false.

        A taken name is :class:`BadRequestError` (``ApiProxy (name: <name>) is already exist!``).
        With ``deploy=True`` a deployment that failed raises :class:`DeploymentFailedError`.
        """
        body = self._url_request(request, re_parse=False)
        return self._send_json("POST", API_PROXY_URL_PATH, project, body, idempotent=False)

    def update(
        self, project: str, request: models.ApiProxyRequest | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``PUT .../apiProxies/url/`` with ``request`` as given (``re_parse`` included).

        An empty description keeps the stored one; a left-out ``client_route`` or
        ``routing_info`` keeps the stored route or routing. The creation type cannot change.
        """
        body = _coerce(models.ApiProxyRequest, request, "request")
        # With re_parse it is a re-parse, not sent again once it may have arrived (update_from_url).
        return self._send_json("PUT", API_PROXY_URL_PATH, project, body, idempotent=not body.re_parse)

    def update_from_url(
        self, project: str, request: models.ApiProxyRequest | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``PUT .../apiProxies/url/`` with ``re_parse`` true: re-parse the spec at ``spec_url``;
        endpoints follow the spec, their policies and settings stay.

        Not sent again once it may have arrived (a timeout, a dropped connection, a 502-504): the
        gateway may be re-parsing it still, and a re-parse of a big spec takes seconds of its time.
        """
        body = self._url_request(request, re_parse=True)
        return self._send_json("PUT", API_PROXY_URL_PATH, project, body, idempotent=False)

    def create_from_file(
        self,
        project: str,
        request: models.ApiProxyRequest | Mapping[str, Any],
        spec_file: SpecFile | None,
        *,
        filename: str | None = None,
    ) -> models.DeploymentResponse:
        """``POST .../apiProxies/file/`` (multipart: ``metadata`` JSON and ``specFile``).

        ``spec_file`` is the spec's bytes, a path to it, or a directory (sent as a ZIP: a WSDL
        with the XSDs it imports). ``None`` only for a ``REVERSE_PROXY``.
        """
        metadata = _coerce(models.ApiProxyRequest, request, "request").model_copy(update={"re_parse": False})
        return self._send_file("POST", project, metadata, spec_file, filename, idempotent=False)

    def update_from_file(
        self,
        project: str,
        request: models.ApiProxyRequest | Mapping[str, Any],
        spec_file: SpecFile | None,
        *,
        filename: str | None = None,
    ) -> models.DeploymentResponse:
        """``PUT .../apiProxies/file/`` with ``re_parse`` true: re-parse the proxy from a new file.

        Like :meth:`update_from_url`, not sent again once it may have arrived (see the module's
        docstring): whoever calls it reads the proxy back to tell whether it took effect.
        """
        metadata = _coerce(models.ApiProxyRequest, request, "request").model_copy(update={"re_parse": True})
        return self._send_file("PUT", project, metadata, spec_file, filename, idempotent=False)

    # -- delete and deployment ---------------------------------------------------------------------

    def delete(self, project: str, name: str) -> models.DeploymentResponse:
        """``DELETE .../apiProxies/{apiProxyName}/``: permanent; the proxy is undeployed from every
        environment first. Needs ROLE_MANAGE_PROXIES and ROLE_DEPLOY_UNDEPLOY_PROXIES."""
        path = API_PROXY_PATH.format(**_proxy_segments(project, name))
        return self._answer("DELETE", path, idempotent=False)

    def deploy(self, project: str, name: str, environment: str) -> models.DeploymentResponse:
        """``POST .../apiProxies/{apiProxyName}/environments/{environmentName}/``: deploy, or
        redeploy when already deployed. A failure in the environment raises
        :class:`DeploymentFailedError` naming it and the gateway's message."""
        return self._answer("POST", self._deployment_path(project, name, environment), idempotent=True)

    def undeploy(self, project: str, name: str, environment: str) -> models.DeploymentResponse:
        """``DELETE .../apiProxies/{apiProxyName}/environments/{environmentName}/``."""
        return self._answer("DELETE", self._deployment_path(project, name, environment), idempotent=False)

    # -- settings (the pages under settings/ of the documentation) ------------------------------

    def _patch_settings(
        self, project: str, name: str, suffix: str, body: dict[str, Any], *, idempotent: bool = True
    ) -> None:
        path = API_PROXY_SETTINGS_PATH.format(**_proxy_segments(project, name), suffix=suffix)
        response = self._client._request("PATCH", path, body=body, idempotent=idempotent)
        self._client._expect_success(response, "PATCH", path)

    def set_routing_addresses(
        self,
        project: str,
        name: str,
        addresses: Sequence[models.RoutingAddress | Mapping[str, Any]],
    ) -> None:
        """``PATCH .../settings/addresses/``: the backend addresses become exactly ``addresses``."""
        if isinstance(addresses, Mapping | str | bytes):
            raise TypeError("addresses must be a sequence of RoutingAddress")
        body = models.RoutingAddressesUpdate(
            routing_address_list=[_coerce(models.RoutingAddress, a, "addresses") for a in addresses]
        )
        self._patch_settings(project, name, "addresses/", body.to_api())

    def set_routing_status(
        self,
        project: str,
        name: str,
        *,
        routing_enabled: bool | None = None,
        mirror_enabled: bool | None = None,
    ) -> None:
        """``PATCH .../settings/routing-status/``: routing and mirroring on or off (only what is given)."""
        body = models.RoutingStatusUpdate(routing_enabled=routing_enabled, mirror_enabled=mirror_enabled)
        self._patch_settings(project, name, "routing-status/", body.to_api())

    def set_client_route(
        self, project: str, name: str, client_route: models.ClientRoute | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/client-route/``: paths, methods, hosts (``host_list``) and headers."""
        self._patch_settings(
            project, name, "client-route/", _coerce(models.ClientRoute, client_route, "client_route").to_api()
        )

    def update_metadata(
        self, project: str, name: str, metadata: models.MetadataUpdate | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/metadata/``: rename, describe, categorize or share the proxy.

        A rename is not retried once it may have arrived: its repeat would address a name that
        is gone.
        """
        body = _coerce(models.MetadataUpdate, metadata, "metadata")
        self._patch_settings(project, name, "metadata/", body.to_api(), idempotent=body.name in (None, name))

    def set_cors(self, project: str, name: str, cors: models.CorsSettings | Mapping[str, Any]) -> None:
        """``PATCH .../settings/cors/``: the proxy's CORS settings, whole."""
        self._patch_settings(project, name, "cors/", _coerce(models.CorsSettings, cors, "cors").to_api())

    def set_api_keys(self, project: str, name: str, keys: models.ApiKeysUpdate | Mapping[str, Any]) -> None:
        """``PATCH .../settings/keys/``: the proxy's public and/or secret key."""
        self._patch_settings(project, name, "keys/", _coerce(models.ApiKeysUpdate, keys, "keys").to_api())

    def set_cache(self, project: str, name: str, cache: models.CacheSettings | Mapping[str, Any]) -> None:
        """``PATCH .../settings/cache/``: the proxy-level cache (endpoints may override it)."""
        self._patch_settings(project, name, "cache/", _coerce(models.CacheSettings, cache, "cache").to_api())

    def set_circuit_breaker(
        self, project: str, name: str, settings: models.CircuitBreakerSettings | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/circuit-breaker/`` (only the fields given change)."""
        body = _coerce(models.CircuitBreakerSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "circuit-breaker/", body)

    def set_connection(
        self, project: str, name: str, settings: models.ConnectionSettings | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/connection/`` (only the fields given change)."""
        self._patch_settings(
            project, name, "connection/", _coerce(models.ConnectionSettings, settings, "settings").to_api()
        )

    def set_forwarded_ip_header(
        self, project: str, name: str, settings: models.ForwardedIpHeaderSettings | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/forwarded-ip-header/`` (only the fields given change)."""
        body = _coerce(models.ForwardedIpHeaderSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "forwarded-ip-header/", body)

    def set_hide_spec_file(self, project: str, name: str, hide: bool) -> None:
        """``PATCH .../settings/hide-spec-file/{true|false}/``: hide the spec from public access, or not."""
        if not isinstance(hide, bool):
            raise TypeError(f"hide must be a boolean, got {hide!r}")
        path = API_PROXY_SETTINGS_PATH.format(
            **_proxy_segments(project, name), suffix=f"hide-spec-file/{str(hide).lower()}/"
        )
        response = self._client._request("PATCH", path, idempotent=True)
        self._client._expect_success(response, "PATCH", path)

    def set_json_error_template(
        self, project: str, name: str, template: models.JsonErrorTemplate | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/json-error-template/`` (only the fields given change)."""
        body = _coerce(models.JsonErrorTemplate, template, "template").to_api()
        self._patch_settings(project, name, "json-error-template/", body)

    def set_xml_error_template(
        self, project: str, name: str, template: models.XmlErrorTemplate | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/xml-error-template/`` (only the fields given change)."""
        body = _coerce(models.XmlErrorTemplate, template, "template").to_api()
        self._patch_settings(project, name, "xml-error-template/", body)

    def set_mtls(self, project: str, name: str, settings: models.MtlsSettings | Mapping[str, Any]) -> None:
        """``PATCH .../settings/mtls/`` (only the fields given change)."""
        body = _coerce(models.MtlsSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "mtls/", body)

    def set_ntlm(self, project: str, name: str, settings: models.NtlmSettings | Mapping[str, Any]) -> None:
        """``PATCH .../settings/ntlm/`` (only the fields given change)."""
        body = _coerce(models.NtlmSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "ntlm/", body)

    def set_proxy_server(
        self, project: str, name: str, settings: models.ProxyServerSettings | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/proxy-server/`` (only the fields given change)."""
        body = _coerce(models.ProxyServerSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "proxy-server/", body)

    def set_traffic_log(
        self, project: str, name: str, settings: models.TrafficLogSettings | Mapping[str, Any]
    ) -> None:
        """``PATCH .../settings/traffic-log/`` (only the fields given change)."""
        body = _coerce(models.TrafficLogSettings, settings, "settings").to_api()
        self._patch_settings(project, name, "traffic-log/", body)

    # -- export and import ------------------------------------------------------------------------

    def export(self, project: str, name: str) -> bytes:
        """``GET .../apiProxies/{apiProxyName}/export/``: the proxy as a ZIP (its definition,
        endpoints, policies and settings), to keep or to import elsewhere."""
        path = API_PROXY_EXPORT_PATH.format(**_proxy_segments(project, name))
        return self._client._request("GET", path, idempotent=True).content

    def import_proxy(self, project: str, export_file: SpecFile) -> models.DeploymentResponse:
        """``POST .../apiProxies/import/``: a new proxy from an export ZIP (bytes or a path).

        A name already taken gets a suffix on the gateway; the import is not deployed. Not
        idempotent: a repeat would import a second copy.
        """
        path = API_PROXY_IMPORT_PATH.format(project=_segment(project, "project"))
        files = [("apiProxyExportFile", _export_part(export_file))]
        return self._send_multipart("POST", path, files, idempotent=False)

    def import_and_override(
        self,
        project: str,
        name: str,
        export_file: SpecFile,
        metadata: models.ImportMetadata | Mapping[str, Any] | None = None,
    ) -> models.DeploymentResponse:
        """``PUT .../apiProxies/{apiProxyName}/import/``: the proxy ``name`` becomes the export's
        content, with optional routing, maintenance mode and deployment from ``metadata``."""
        path = API_PROXY_OVERRIDE_PATH.format(**_proxy_segments(project, name))
        meta = _coerce(models.ImportMetadata, metadata if metadata is not None else {}, "metadata")
        files = [
            ("metadata", (None, json.dumps(meta.to_api()).encode(), "application/json")),
            ("apiProxyExportFile", _export_part(export_file)),
        ]
        return self._send_multipart("PUT", path, files, idempotent=True)

    # -- the plumbing ------------------------------------------------------------------------------

    @staticmethod
    def _deployment_path(project: str, name: str, environment: str) -> str:
        return API_PROXY_DEPLOYMENT_PATH.format(
            **_proxy_segments(project, name), environment=_segment(environment, "environment")
        )

    @staticmethod
    def _url_request(
        request: models.ApiProxyRequest | Mapping[str, Any], *, re_parse: bool
    ) -> models.ApiProxyRequest:
        body = _coerce(models.ApiProxyRequest, request, "request").model_copy(update={"re_parse": re_parse})
        if body.api_proxy_creation_type is not models.ApiProxySpecType.REVERSE_PROXY and not body.spec_url:
            raise ValueError(
                f"spec_url is required for an {body.api_proxy_creation_type.value} proxy "
                "(only REVERSE_PROXY goes without a spec)"
            )
        return body

    def _send_json(
        self, method: str, template: str, project: str, body: models.ApiProxyRequest, *, idempotent: bool
    ) -> models.DeploymentResponse:
        path = template.format(project=_segment(project, "project"))
        response = self._client._request(method, path, body=body.to_api(), idempotent=idempotent)
        return self._result(response, method, path)

    def _send_file(
        self,
        method: str,
        project: str,
        metadata: models.ApiProxyRequest,
        spec_file: SpecFile | None,
        filename: str | None,
        *,
        idempotent: bool,
    ) -> models.DeploymentResponse:
        path = API_PROXY_FILE_PATH.format(project=_segment(project, "project"))
        files: _Parts = [
            (
                "metadata",
                (None, json.dumps(metadata.to_api(), ensure_ascii=False).encode(), "application/json"),
            )
        ]
        if spec_file is None:
            if metadata.api_proxy_creation_type is not models.ApiProxySpecType.REVERSE_PROXY:
                raise ValueError(
                    f"spec_file is required for an {metadata.api_proxy_creation_type.value} proxy "
                    "(only REVERSE_PROXY goes without a spec)"
                )
        else:
            files.append(("specFile", read_spec_file(spec_file, filename)))
        return self._send_multipart(method, path, files, idempotent=idempotent)

    def _send_multipart(
        self,
        method: str,
        path: str,
        files: _Parts,
        *,
        idempotent: bool,
    ) -> models.DeploymentResponse:
        client = self._client
        url = client._url(path)
        # The connection is made within the client's timeout; sending the body and waiting for the
        # answer (the gateway parses the whole upload first) get a time that grows with its size.
        seconds = upload_timeout(sum(len(content) for _, (_, content, _) in files), client.timeout)
        wait = httpx.Timeout(client.timeout, read=seconds, write=seconds)

        def build() -> httpx.Request:
            # Built afresh per attempt: a multipart body is a stream that one send consumes.
            return client._http.build_request(
                method, url, files=files, headers={"Accept": "application/json"}, timeout=wait
            )

        response = client._send(build, method, path, idempotent=idempotent, auth=client._auth)
        return self._result(response, method, path)

    def _answer(self, method: str, path: str, *, idempotent: bool) -> models.DeploymentResponse:
        response = self._client._request(method, path, idempotent=idempotent)
        return self._result(response, method, path)

    def _result(self, response: httpx.Response, method: str, path: str) -> models.DeploymentResponse:
        """The answer, after a check that neither the envelope nor any environment says it failed."""
        if not response.content.strip():
            return models.DeploymentResponse(success=True)
        try:
            result = self._client._parse(models.DeploymentResponse, response, method, path)
        except APIResponseValidationError:
            # ``success: false`` under a 2xx: when a deploymentResult says where and why, that is the error.
            _raise_failed_deployment(_lenient_deployment(response), method, path)
            raise
        _raise_failed_deployment(result, method, path)
        if not result.ok:
            raise APIResponseValidationError(
                method, path, response.status_code, "the gateway answered success: false"
            )
        return result


def _lenient_deployment(response: httpx.Response) -> models.DeploymentResponse | None:
    """The answer as a DeploymentResponse, or None when it is not one (not JSON, another shape)."""
    try:
        return models.DeploymentResponse.model_validate(response.json())
    except ValueError:  # a JSONDecodeError or a pydantic ValidationError
        return None


def _raise_failed_deployment(result: models.DeploymentResponse | None, method: str, path: str) -> None:
    deployment = result.deployment_result if result is not None else None
    if deployment is not None and not deployment.ok:
        failures = [(r.environment_name, r.message) for r in deployment.failures()]
        if not failures and deployment.message:
            failures = [("every environment", deployment.message)]
        raise DeploymentFailedError(method, path, failures)


class ApiProxyReports(Reports):
    """``client.reports``: the organization access report, and the API proxies report of this family."""

    def api_proxies(self, *, include_endpoints: bool = False) -> list[models.ApiProxyReportItem]:
        """``GET /apiops/reports/api-proxies``: every API proxy, with its endpoints when
        ``include_endpoints``. Needs a system administrator or analyzer; others get
        :class:`AuthenticationError` (401 ``Unauthorized API Access!``)."""
        path = API_PROXIES_REPORT_PATH + ("?includeEndpoints=true" if include_endpoints else "")
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.ApiProxiesReport, response, "GET", path).result_list
