"""``ApiProxy``: an API proxy from a spec file, a spec URL or as a reverse proxy, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.api_proxy.ApiProxyProvider``)
are recorded by reference in every stack's state: they never move without an alias.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/index.md
and the pages under ``02-api-reference/04-api-proxies/settings/``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, one_line_arguments, resource_options, resource_props, typed_statically
from ._base import CONNECTION, inputs_of, lazy_model, same
from ._connection import ConnectionArgs
from ._create import ExactlyOnce, after_create, read_retried
from ._errors import ApinizerResourceError, refuse_if_changed, translated
from ._named import HandedOver, already_exist, create_or_adopt, identity
from ._replace import unchangeable
from ._secret_inputs import HoldsSecrets, SecretInputs
from ._types import ApiProxySpecTypeName, ApiProxySpecTypeValue, HttpMethodValue, SharingTypeValue

if TYPE_CHECKING:
    from pydantic import BaseModel

    from apinizer_pulumi.client import ApinizerClient
    from apinizer_pulumi.models import ApiProxy as LiveProxy
    from apinizer_pulumi.models import ApiProxyRequest

    from .endpoint_cache import CacheSettingsArgs

Block: TypeAlias = "pulumi.Input[Mapping[str, Any]]"

#: Inputs that never make a diff, ``spec_hash`` standing for them: the spec file's path (it moves with
#: the checkout) and name, and ``spec_content``, the spec's bytes (base64) that states written before the
#: provider read the file itself kept among the inputs.
SPEC_SOURCE = ("spec_file", "spec_filename", "spec_content")
#: Inputs that hold credentials, stored as secrets.
SECRET_BLOCKS = ("api_keys", "ntlm", "proxy_server")
#: Inputs sent as secrets (the spec's bytes, an input no more, were among them).
SECRET_INPUTS = (*SECRET_BLOCKS, "spec_content")
#: The kinds of spec that are parsed (a REVERSE_PROXY has none).
SPEC_KINDS = ("OPEN_API", "SWAGGER", "WSDL")
#: Looks at a proxy's endpoints after a re-parse whose answer was lost, before it is sent again.
REPARSE_LOOKS = 3


# -- args ----------------------------------------------------------------------------------------


@dataclasses.dataclass(kw_only=True, frozen=True)
class RoutingAddressArgs:
    """One backend address; ``weight`` defaults to the gateway's own."""

    address: pulumi.Input[str]
    weight: pulumi.Input[int] | None = None
    health_check_enabled: pulumi.Input[bool] | None = None
    soap_type: pulumi.Input[Literal["SOAP11", "SOAP12"]] | None = None


@dataclasses.dataclass(kw_only=True, frozen=True)
class RoutingArgs:
    """Where the proxy sends requests (settings/addresses), and whether routing is on (routing-status)."""

    addresses: pulumi.Input[Sequence[RoutingAddressArgs | Mapping[str, Any]]]
    enabled: pulumi.Input[bool] | None = None
    mirror_enabled: pulumi.Input[bool] | None = None


@dataclasses.dataclass(kw_only=True, frozen=True)
class HeaderMatchArgs:
    """A header that requests must carry to reach the proxy."""

    name: pulumi.Input[str]
    value: pulumi.Input[str]


@dataclasses.dataclass(kw_only=True, frozen=True)
class ClientRouteArgs:
    """How clients reach the proxy (settings/client-route): at least one relative path."""

    relative_paths: pulumi.Input[Sequence[pulumi.Input[str]]]
    virtual_hosts: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    methods: pulumi.Input[Sequence[HttpMethodValue]] | None = None
    headers: pulumi.Input[Sequence[HeaderMatchArgs | Mapping[str, Any]]] | None = None
    buffer_request: pulumi.Input[bool] | None = None
    buffer_response: pulumi.Input[bool] | None = None


@dataclasses.dataclass(kw_only=True, frozen=True)
class ApiProxyMetadataArgs:
    """Categories and sharing of the proxy (settings/metadata)."""

    categories: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    sharing_type: pulumi.Input[SharingTypeValue] | None = None


@dataclasses.dataclass(kw_only=True, frozen=True)
class CorsSettingsArgs:
    """The proxy's CORS settings (settings/cors), written whole."""

    name: pulumi.Input[str]
    description: pulumi.Input[str] | None = None
    cors_active: pulumi.Input[bool] | None = None
    allow_origin_list: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    allow_method_list: pulumi.Input[Sequence[HttpMethodValue]] | None = None
    allow_header_list: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    expose_header_list: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    allow_credentials: pulumi.Input[bool] | None = None
    max_age: pulumi.Input[int] | None = None


def read_spec(spec_file: str | os.PathLike[str]) -> tuple[str, bytes]:
    """``(file name, bytes)`` of a spec file, or of a directory zipped (a WSDL with its XSDs).

    Relative paths are relative to the working directory: the program's folder under ``pulumi``.
    """
    path = Path(spec_file)
    if path.is_dir():
        # Zipped by the client's own rule (sorted, fixed times), so equal folders hash alike.
        from apinizer_pulumi.client._api_proxies import read_spec_file

        name, content, _ = read_spec_file(path)
        return name, content
    from ._args import InputValueError  # one line under `pulumi up`, not a traceback
    from ._files import read_file

    return path.name, read_file(spec_file, "spec_file", error=InputValueError)


def spec_inputs(spec_file: str | os.PathLike[str]) -> dict[str, str | None]:
    """The inputs that name a spec file to the provider: its absolute path, its name and its sha256.

    The bytes stay out of the inputs, and so out of the state: the provider reads the file when it
    sends it, and checks that it still has this hash. A file that cannot be read has no hash; the
    preview's check then fails naming it.
    """
    path = Path(spec_file).absolute()
    try:
        filename, content = read_spec(path)
    except ValueError:
        return {"spec_file": str(path), "spec_filename": path.name, "spec_hash": None}
    digest = hashlib.sha256(content).hexdigest()
    return {"spec_file": str(path), "spec_filename": filename, "spec_hash": digest}


#: (kind, sha256) of the specs this provider process knows good: parsed by a check, or recorded in
#: the state (the gateway took them). Each spec is parsed at most once per process, and an unchanged one
#: not at all: parsing a spec of Stripe's size takes seconds.
_ACCEPTED_SPECS: set[tuple[str, str]] = set()


def spec_problem(props: Mapping[str, Any]) -> str | None:
    """Why the spec file these inputs name cannot be sent, or None; offline, with the emulator's parser."""
    from apinizer_pulumi.models import parse_spec

    path, kind, expected = props.get("spec_file"), props.get("spec_type"), props.get("spec_hash")
    if not isinstance(path, str) or kind not in SPEC_KINDS:
        return None
    if isinstance(expected, str) and (kind, expected) in _ACCEPTED_SPECS:
        return None
    try:
        filename, content = read_spec(path)
    except ValueError as error:  # "spec_file '...' cannot be read: ..." or "... is empty"
        return str(error)
    try:
        parse_spec(kind, content, filename)
    except ValueError as error:  # a SpecError: "Invalid specification: ..."
        return f"spec_file {path!r}: {error}"
    _ACCEPTED_SPECS.add((kind, hashlib.sha256(content).hexdigest()))
    return None


def spec_content(props: Mapping[str, Any]) -> bytes:
    """The bytes of the spec file these inputs name, as the program hashed them."""
    path = str(props["spec_file"])
    try:
        _, content = read_spec(path)
    except ValueError as error:
        raise ApinizerResourceError(str(error)) from None
    refuse_if_changed(content, props.get("spec_hash"), f"spec_file {path!r}")
    return content


# -- the provider --------------------------------------------------------------------------------


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:ApiProxy Orders in Demo`` for messages, from the props or else the id."""
    project, name = props.get("project_name"), props.get("name")
    if not (project and name) and "/" in id_:
        project, name = id_.split("/", 1)
    return f"apinizer:ApiProxy {name} in {project}"


def _request(props: Mapping[str, Any]) -> ApiProxyRequest:
    """The create/update body: name, description, creation type, spec URL, route and routing."""
    from apinizer_pulumi.models import ApiProxyRequest

    from ._proxy_inputs import ApiProxyInputs

    inputs = ApiProxyInputs.model_validate(
        {key: value for key, value in props.items() if key in ApiProxyInputs.model_fields})
    return ApiProxyRequest(
        api_proxy_name=inputs.name,
        api_proxy_description=inputs.description,
        api_proxy_creation_type=inputs.spec_type,
        spec_url=inputs.spec_url,
        client_route=inputs.client_route.client_route() if inputs.client_route else None,
        routing_info=inputs.routing.routing_info() if inputs.routing else None,
    )


def _send_spec(client: ApinizerClient, props: Mapping[str, Any], *, update: bool,
               content: bytes | None = None) -> None:
    """Create the proxy, or re-parse it, from its file, its URL, or as a reverse proxy."""
    project = str(props["project_name"])
    request = _request(props)
    if content is None and props.get("spec_file") is not None:
        content = spec_content(props)
    proxies = client.api_proxies
    if content is not None:
        name = props.get("spec_filename") or "spec"
        send_file = proxies.update_from_file if update else proxies.create_from_file
        send_file(project, request, content, filename=str(name))
    elif update:
        proxies.update_from_url(project, request)
    else:
        proxies.create_from_url(project, request)


def _reparse(client: ApinizerClient, props: Mapping[str, Any], previous: Any, *,
             sleep: Callable[[float], None] = time.sleep) -> None:
    """Re-parse the proxy from its spec once, also when the answer is lost (docs/resources/api-proxy.md).

    The client does not send a re-parse again once it may have arrived: a lost answer is most often a
    parse still running on the gateway. Here the proxy's endpoints are read back first (the documented
    trace a re-parse leaves): when they are the new spec's, the re-parse took effect and is not sent
    again. When the new spec has the same endpoints as the previous one (``previous``, the ``endpoints``
    output), or comes from a URL, they cannot tell, and it is sent again, as it is after looks that
    find the old endpoints; at most ``CREATE_ATTEMPTS`` times in all.
    """
    from apinizer_pulumi.client import ApinizerError
    from apinizer_pulumi.models import parse_spec

    from ._create import BACKOFF, CREATE_ATTEMPTS, outcome_unknown

    project, name = str(props["project_name"]), str(props["name"])
    content = spec_content(props) if props.get("spec_file") is not None else None
    before = {(str(item.get("http_method")), str(item.get("name")))
              for item in previous or [] if isinstance(item, Mapping)}
    wanted: set[tuple[str, str]] | None = None

    def applied() -> bool | None:
        nonlocal wanted
        if content is None:
            return None
        if wanted is None:
            kind, filename = str(props["spec_type"]), str(props.get("spec_filename") or "")
            try:
                wanted = {(op.http_method, op.name) for op in parse_spec(kind, content, filename)}
            except ValueError:  # a spec only the gateway reads: its endpoints cannot be foretold
                return None
        if wanted == before:
            return None
        live = {(item.http_method.value, item.endpoint) for item in client.endpoints.list(project, name)}
        return wanted <= live and not (before - wanted) & live

    sends = 0
    while True:
        try:
            _send_spec(client, props, update=True, content=content)
            return
        except ApinizerError as error:
            if not outcome_unknown(error):
                raise
            sends, unknown = sends + 1, error
        for look in range(REPARSE_LOOKS):
            try:
                verdict = applied()
            except ApinizerError as error:
                if not outcome_unknown(error):
                    raise
                verdict = False
            if verdict is None:
                break
            if verdict:
                return
            sleep(BACKOFF.delay(look))
        if sends >= CREATE_ATTEMPTS:
            from ._errors import describe

            raise ApinizerResourceError(
                f"the gateway never confirmed the re-parse in {sends} attempts ({describe(unknown)}), and "
                "the proxy's endpoints are not the new spec's: run `pulumi up` again")


def overlay(declared: Any, live: Any) -> Any:
    """What the gateway holds, in the shape of what was declared: only declared keys are compared.

    A list of objects of the declared length is overlaid item by item; any other list, and any
    value the gateway did not return, is taken from the gateway or kept as declared.
    """
    if isinstance(declared, Mapping) and isinstance(live, Mapping):
        return {key: overlay(value, live[key]) if live.get(key) is not None else value
                for key, value in declared.items()}
    if isinstance(declared, list) and isinstance(live, list):
        if len(declared) == len(live):
            return [overlay(a, b) for a, b in zip(declared, live, strict=True)]
        return live
    return live if live is not None else declared


#: How the get page spells the metadata page's sharing types (docs/docs-disagreements.md).
SHARING_ON_GET = {"EXTERNAL": "PUBLIC", "BOTH": "PUBLIC", "INTERNAL": "ORGANIZATION", "NONE": "PROJECT"}


def sharing_as_declared(declared: Any, live: Any) -> Any:
    """The live sharing type in the metadata page's spelling: the declared one when it reads back so."""
    if live is None or live == declared or SHARING_ON_GET.get(declared) == live:
        return declared
    return live if live in SHARING_ON_GET else next(
        (name for name, on_get in SHARING_ON_GET.items() if on_get == live), live)


def live_blocks(live: LiveProxy) -> dict[str, Any]:
    """The readable inputs as the gateway holds them (the GET answer has no other settings)."""
    blocks: dict[str, Any] = {"description": live.description or ""}
    if live.routing is not None:
        routing = live.routing
        blocks["routing"] = {
            "addresses": [address.model_dump(mode="json", exclude_none=True)
                          for address in routing.routing_address_list or []],
            "enabled": routing.routing_enabled,
            "mirror_enabled": routing.mirror_enabled,
        }
    if live.client_route is not None:
        route = live.client_route
        blocks["client_route"] = {
            "relative_paths": route.relative_path_list,
            "virtual_hosts": route.hosts,
            "methods": None if route.method_list is None else [method.value for method in route.method_list],
            "headers": [header.model_dump(mode="json") for header in route.header_list]
            if route.header_list is not None else None,
            "buffer_request": route.buffer_request,
            "buffer_response": route.buffer_response,
        }
    blocks["metadata"] = {"categories": live.category_list,
                          "sharing_type": live.sharing_type.value if live.sharing_type else None}
    return blocks


SECRETS = SecretInputs(SECRET_INPUTS)
plain = SECRETS.plain
secret = SECRETS.secret


def _made_by(live: LiveProxy, props: Mapping[str, Any]) -> bool:
    """Whether ``live`` is what creating ``props`` gives: its description and declared client paths."""
    route = props.get("client_route")
    paths = route.get("relative_paths") if isinstance(route, Mapping) else None
    live_paths = live.client_route.relative_path_list if live.client_route else None
    return (live.description or None) == (props.get("description") or None) and (
        paths is None or list(live_paths or []) == list(paths))


def deployments(live: LiveProxy | None) -> dict[str, dict[str, bool]]:
    """The ``deployments`` output: each environment's line of the proxy's deployment list."""
    if live is None:
        return {}
    return {line.environment_name: {"deployed": line.deployed, "redeploy_required": line.redeploy_required}
            for line in live.deployment_list}


class ApiProxyProvider(HoldsSecrets, HandedOver):
    """Create (from a file, a URL or as a reverse proxy), re-parse, configure, read and delete a proxy."""

    kind = "ApiProxy"
    inputs_model = lazy_model("apinizer_pulumi.resources._proxy_inputs", "ApiProxyInputs")
    replace_fields = ("project_name", "name")
    ignored_fields = (CONNECTION, "adopt", *SPEC_SOURCE)
    secrets = SECRETS

    @staticmethod
    def probe(inputs: Mapping[str, Any]) -> tuple[str, str] | None:
        project, name = inputs.get("project_name"), inputs.get("name")
        if isinstance(project, str) and isinstance(name, str) and project and name:
            return project, name
        return None

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        recorded = olds.get("spec_hash")
        if isinstance(recorded, str) and recorded == news.get("spec_hash") and \
                olds.get("spec_type") == news.get("spec_type"):
            _ACCEPTED_SPECS.add((str(news.get("spec_type")), recorded))  # the gateway took it: no parse
        return super().check_inputs(olds, news)

    def extra_failures(self, model: BaseModel) -> list[dyn.CheckFailure]:
        # Before the connection check: a spec that cannot be read or parsed fails with no request.
        problem = spec_problem(model.model_dump(mode="json"))
        return [] if problem is None else [dyn.CheckFailure("", f"apinizer: {problem}")]

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        # The creation type cannot change in place; a proxy adopted without a spec that now declares
        # one is re-parsed in place.
        return unchangeable(super().diff(id_, olds, news), "spec_type", olds, news)

    # -- writes ------------------------------------------------------------------------------

    @staticmethod
    def _write_settings(client: ApinizerClient, props: Mapping[str, Any], olds: Mapping[str, Any] | None,
                        who: str, *, spec_sent: bool) -> dict[str, Any]:
        """Write each declared block that differs from ``olds`` (all when None); return what failed to write.

        Only declared blocks are written: a block left out is left as the console set it. After a
        create, a failed block is a warning and missing from the outputs, so the next ``up`` sends it.
        """
        from apinizer_pulumi.models import MetadataUpdate

        from ._proxy_inputs import SETTINGS_BLOCKS

        project, name = str(props["project_name"]), str(props["name"])
        proxies = client.api_proxies

        def changed(key: str) -> bool:
            return props.get(key) is not None and (olds is None or not same(olds.get(key), props.get(key)))

        writes: list[tuple[str, Callable[[], object]]] = []
        routing = props.get("routing")
        if not spec_sent:  # create and re-parse carry description, route and routing themselves
            if changed("routing") and isinstance(routing, Mapping):
                writes.append(("routing", partial(proxies.set_routing_addresses, project, name,
                                                  routing["addresses"])))
                writes.append(("routing", partial(proxies.set_routing_status, project, name,
                                                  routing_enabled=routing.get("enabled"),
                                                  mirror_enabled=routing.get("mirror_enabled"))))
            if changed("client_route"):
                from ._proxy_inputs import ClientRouteInput

                route = ClientRouteInput.model_validate(props["client_route"]).client_route()
                writes.append(("client_route", partial(proxies.set_client_route, project, name, route)))
            if changed("description"):
                writes.append(("description", partial(proxies.update_metadata, project, name,
                                                      MetadataUpdate(description=props["description"]))))
        if changed("metadata"):
            meta = props["metadata"]
            update = MetadataUpdate(category_list=meta.get("categories"),
                                    sharing_type=meta.get("sharing_type"))
            writes.append(("metadata", partial(proxies.update_metadata, project, name, update)))
        for key, (_model, method) in SETTINGS_BLOCKS.items():
            if changed(key):
                writes.append((key, partial(getattr(proxies, method), project, name, props[key])))
        if changed("hide_spec_file"):
            writes.append(("hide_spec_file", partial(proxies.set_hide_spec_file, project, name,
                                                     bool(props["hide_spec_file"]))))
        failed: dict[str, Any] = {}
        for key, write in writes:
            if olds is not None:
                write()  # an update: the engine keeps the old outputs when it fails
                continue
            failed[key] = None
            with after_create(who, f"writing {key}"):
                write()
                del failed[key]
        return failed

    def _outputs(self, client: ApinizerClient, props: Mapping[str, Any], *, endpoints: Any = None,
                 failed: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from ._reads import live_proxy

        project, name = str(props["project_name"]), str(props["name"])
        if endpoints is None:
            endpoints = [{"name": item.endpoint, "http_method": item.http_method.value}
                         for item in client.endpoints.list(project, name)]
        outs = self.outputs({key: value for key, value in props.items() if key != "spec_content"},
                            api_proxy_id=props.get("api_proxy_id"), endpoints=endpoints,
                            deployments=deployments(live_proxy(client, project, name)))
        for key in failed or {}:
            outs.pop(key, None)
        return outs

    @translated(lambda self, props: subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        props = plain(props)
        from ._reads import proxy_writing

        project, name = str(props["project_name"]), str(props["name"])
        who = subject(props)
        client = self.client(props)
        with proxy_writing(client, project, name):
            existing = client.api_proxies.find(project, name) if props.get("adopt") else None
            has_spec = props.get("spec_file") is not None or props.get("spec_url") is not None
            reverse = props.get("spec_type") == "REVERSE_PROXY"
            if existing is not None:
                # Taken over: re-parsed from this spec (if one is declared) and given these settings.
                if has_spec or reverse:
                    _reparse(client, props, None)
                # Only the declared blocks that differ from what it holds are written.
                held = {key: overlay(props.get(key), value) for key, value in live_blocks(existing).items()}
                self._write_settings(client, props, held, who, spec_sent=has_spec or reverse)
                self.created(props)
                failed: dict[str, Any] = {}
            elif not (has_spec or reverse):
                raise ApinizerResourceError(
                    f"{who}: adopt=True found no proxy of this name, and without spec_file or spec_url "
                    "there is nothing to create it from")
            else:
                create = ExactlyOnce(
                    send=lambda: _send_spec(client, props, update=False),
                    look_up=lambda: client.api_proxies.find(project, name),
                    made_by=lambda live: _made_by(live, props),
                    already_exists=already_exist,
                    noun="API proxy",
                    namesake="an API proxy with this name",
                )
                # adopt looked the name up and found it free: taken since, it is someone else's.
                create_or_adopt(create, already_exist, props, who, None, forced=False)
                failed = self._write_settings(client, props, None, who, spec_sent=True)
        outs: dict[str, Any] = self.outputs({k: v for k, v in props.items() if k != "spec_content"},
                                            endpoints=[], deployments={})
        with after_create(who, "reading back its endpoints and deployments"):
            outs = read_retried(lambda: self._outputs(client, props, failed=failed))
        return dyn.CreateResult(f"{project}/{name}", outs)

    @translated(lambda self, id_, olds, news: subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import proxy_writing

        olds, news = plain(olds), plain(news)
        project, name = str(news["project_name"]), str(news["name"])
        client = self.client(news)
        reparse = news.get("spec_type") is not None and (
            olds.get("spec_type") is None
            or not same(olds.get("spec_hash"), news.get("spec_hash"))
            or not same(olds.get("spec_url"), news.get("spec_url")))
        with proxy_writing(client, project, name):
            if reparse:
                _reparse(client, news, olds.get("endpoints"))
            self._write_settings(client, news, olds, subject(news, id_), spec_sent=reparse)
        endpoints = None if reparse else olds.get("endpoints")
        return dyn.UpdateResult(self._outputs(client, news, endpoints=endpoints))

    @translated(lambda self, id_, props: subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_proxy

        props = plain(props)
        project, name = identity(id_, props)
        live = self.read_recorded(props, lambda client: live_proxy(client, project, name))
        if live is None:
            return dyn.ReadResult(None, {})  # the gateway said it is gone: dropped from the state
        inputs = {key: value for key, value in inputs_of(props).items()
                  if key not in ("endpoints", "deployments", "api_proxy_id")}
        inputs.setdefault("project_name", project)
        inputs.setdefault("name", name)
        for key, value in live_blocks(live).items():
            declared = inputs.get(key)
            if declared is not None:  # only declared blocks are managed, so only they can drift
                inputs[key] = overlay(declared, value)
        metadata = inputs.get("metadata")
        if isinstance(metadata, Mapping) and "sharing_type" in metadata:
            inputs["metadata"] = {**metadata, "sharing_type": sharing_as_declared(
                props["metadata"].get("sharing_type"), metadata["sharing_type"])}
        # The endpoints are those of the last create or re-parse: one read per proxy on refresh.
        outs = self.outputs(inputs, api_proxy_id=props.get("api_proxy_id"),
                            endpoints=props.get("endpoints") or [], deployments=deployments(live))
        return dyn.ReadResult(id_, outs, secret(inputs) if self.drifted(props, outs) else None)

    subject = staticmethod(subject)

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import BadRequestError, NotFoundError

        from ._reads import live_proxy, proxy_writing

        project, name = identity(id_, props)
        with proxy_writing(client, project, name):
            try:
                client.api_proxies.delete(project, name)  # undeploys from every environment first
                return
            except (BadRequestError, NotFoundError) as error:
                refused = error
        # "Api Proxy (X) is not found!" is a 400: gone only when the gateway's read confirms it
        # (asked once the write is over, so that the shared read does not wait for it).
        if live_proxy(client, project, name) is not None:
            raise refused


@typed_statically
class ApiProxy(dyn.Resource, module="apinizer", name="ApiProxy"):
    """An API proxy, made from a spec file, a spec URL, or as a reverse proxy.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new one is
    made first); changing ``spec_type`` replaces it too, deleting the old one first (same name).
    A changed spec (its content, seen through ``spec_hash``, or ``spec_url``) re-parses the proxy
    in place. Each settings block is managed only when declared. Destroy deletes the proxy, which
    undeploys it from every environment.
    """

    project_name: pulumi.Output[str]
    """The project that holds the proxy."""
    name: pulumi.Output[str]
    """The proxy's name."""
    spec_type: pulumi.Output[ApiProxySpecTypeName | None]
    """OPEN_API, SWAGGER, WSDL or REVERSE_PROXY."""
    spec_file: pulumi.Output[str | None]
    """The spec file's absolute path (the provider reads it when it sends the spec)."""
    spec_filename: pulumi.Output[str | None]
    """The spec file's name (a directory's is ``<name>.zip``)."""
    spec_hash: pulumi.Output[str | None]
    """The sha256 of the spec file's bytes (of the ZIP for a directory); None for a URL or a reverse proxy."""
    spec_url: pulumi.Output[str | None]
    """The spec's URL, when made from one."""
    description: pulumi.Output[str | None]
    """Free text."""
    routing: pulumi.Output[dict[str, Any] | None]
    """The declared routing block."""
    client_route: pulumi.Output[dict[str, Any] | None]
    """The declared client route block."""
    metadata: pulumi.Output[dict[str, Any] | None]
    """The declared categories and sharing."""
    adopt: pulumi.Output[bool]
    """Whether create may take over a proxy of this name that already exists."""
    api_proxy_id: pulumi.Output[str | None]
    """The gateway's id, where the API returns one (the documented answers do not)."""
    endpoints: pulumi.Output[list[dict[str, str]]]
    """The endpoints after the last create or re-parse: ``{"name", "http_method"}`` each."""
    deployments: pulumi.Output[dict[str, dict[str, bool]]]
    """Per environment: ``{"deployed", "redeploy_required"}``, as last read."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        spec_type: pulumi.Input[ApiProxySpecTypeValue] | None = None,
        spec_file: str | os.PathLike[str] | None = None,
        spec_url: pulumi.Input[str] | None = None,
        description: pulumi.Input[str] | None = None,
        routing: pulumi.Input[RoutingArgs | Mapping[str, Any]] | None = None,
        client_route: pulumi.Input[ClientRouteArgs | Mapping[str, Any]] | None = None,
        metadata: pulumi.Input[ApiProxyMetadataArgs | Mapping[str, Any]] | None = None,
        cors: pulumi.Input[CorsSettingsArgs | Mapping[str, Any]] | None = None,
        api_keys: Block | None = None,
        cache: pulumi.Input[CacheSettingsArgs | Mapping[str, Any]] | None = None,
        circuit_breaker: Block | None = None,
        connection_settings: Block | None = None,
        forwarded_ip_header: Block | None = None,
        hide_spec_file: pulumi.Input[bool] | None = None,
        json_error_template: Block | None = None,
        xml_error_template: Block | None = None,
        mtls: Block | None = None,
        ntlm: Block | None = None,
        proxy_server: Block | None = None,
        traffic_log: Block | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an API proxy.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the proxy.
        :param name: The proxy's name.
        :param spec_type: OPEN_API, SWAGGER, WSDL or REVERSE_PROXY (a change replaces the proxy). Left out
            only with ``adopt=True``: the proxy is then taken over with the spec it has (what
            ``apinizer-pulumi generate`` writes); declaring it later re-parses the proxy in place.
        :param spec_file: A spec file (or a directory, zipped: a WSDL with its XSDs), relative to
            the program's folder. Hashed here, in the program (``spec_hash`` stands for it in diffs);
            the provider reads it when it sends it, so its bytes never enter the state. A preview
            parses a new or changed spec offline and fails, naming the file, when it cannot be read
            or is not a valid spec of ``spec_type``.
        :param spec_url: A URL the gateway fetches the spec from.
        :param description: Free text.
        :param routing: The backend addresses and whether routing is on.
        :param client_route: The relative paths (and hosts, methods, headers) clients reach it by.
        :param metadata: Categories and sharing type.
        :param cors: The proxy's CORS settings.
        :param cache: The proxy-level cache settings (endpoints may override them).
        :param hide_spec_file: Hide the spec from public access.
        :param adopt: Take over an existing proxy of this name (default false); then the spec may be
            left out, and the proxy keeps its own.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        :param api_keys: ``{"public_key", "secret_key"}``; stored as a secret. The other blocks take
            their settings page's fields as snake_case keys (see docs/resources/api-proxy.md).
        """
        spec = spec_inputs(spec_file) if spec_file is not None else {}
        props = resource_props(
            project_name=project_name, name=name, spec_type=spec_type,
            spec_file=spec.get("spec_file"), spec_filename=spec.get("spec_filename"),
            spec_hash=spec.get("spec_hash"), spec_url=spec_url, description=description,
            routing=routing, client_route=client_route, metadata=metadata, cors=cors, api_keys=api_keys,
            cache=cache, circuit_breaker=circuit_breaker, connection_settings=connection_settings,
            forwarded_ip_header=forwarded_ip_header, hide_spec_file=hide_spec_file,
            json_error_template=json_error_template, xml_error_template=xml_error_template, mtls=mtls,
            ntlm=ntlm, proxy_server=proxy_server, traffic_log=traffic_log, adopt=adopt,
            api_proxy_id=None, endpoints=None, deployments=None,
        )
        props["connection"] = connection_props(connection)
        for key in SECRET_BLOCKS:  # secret in the inputs the state keeps, not only in the outputs
            if props[key] is not None:
                props[key] = pulumi.Output.secret(props[key])
        options = pulumi.ResourceOptions.merge(resource_options(opts), pulumi.ResourceOptions(
            additional_secret_outputs=list(SECRET_BLOCKS)))
        super().__init__(ApiProxyProvider(), resource_name, props, options)
        from ._literal_names import declared_proxy

        declared_proxy(self, resource_name, project_name, name)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(RoutingAddressArgs, RoutingArgs, HeaderMatchArgs, ClientRouteArgs,
                   ApiProxyMetadataArgs, CorsSettingsArgs, prefix="apinizer")
