"""What every Apinizer dynamic provider shares: offline check and diff, connection, errors.

A kind declares a pydantic model of its inputs (``inputs_model``), which fields replace it
(``replace_fields``) and how to name one resource in messages (``subject``); it implements
``create``, ``read``, ``update`` and ``delete`` against the client. Everything here is offline.
"""

from __future__ import annotations

import functools
import importlib
import threading
import types
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, ParamSpec, TypeAlias, TypeVar, Union, get_args, get_origin

import pulumi.dynamic as dyn
from pulumi.output import Unknown
from pulumi.runtime import rpc

from . import _replace
from ._connection import (
    Settings,
    client_for,
    connection_check_skipped,
    gateway_url,
    kept_proof,
    prove_connection,
    provider_stack_config,
    resolved,
    setting_names,
    unwrap_secret,
    url_problem,
)
from ._errors import ApinizerResourceError, quiet_provider_server
from ._server import checking_urn, widen_provider_server

if TYPE_CHECKING:
    # pydantic, httpx and the models are imported on first use, in the provider process: a
    # Pulumi program that only declares resources never needs them (see docs/performance.md).
    from pydantic import BaseModel, ValidationError

    from apinizer_pulumi.client import ApinizerClient

PROVIDER_KEY = "__provider"
CONNECTION = "connection"

Path = tuple[str, ...]
R = TypeVar("R")
P = ParamSpec("P")


class LazyModel:
    """A provider's ``inputs_model`` named by module and class, imported on first access."""

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name
        self._model: type[BaseModel] | None = None

    def __get__(self, instance: object, owner: type | None = None) -> type[BaseModel]:
        if self._model is None:
            self._model = getattr(importlib.import_module(self._module), self._name)
            assert self._model is not None
        return self._model


def lazy_model(module: str, name: str) -> Any:
    """``inputs_model = lazy_model(...)``: typed as the model class it resolves to."""
    return LazyModel(module, name)


def is_unknown(value: Any) -> bool:
    """True for a value not known yet (a preview of a computed input)."""
    return isinstance(value, Unknown) or (isinstance(value, str) and value == rpc.UNKNOWN)


def strip_unknowns(value: Any, path: Path = ()) -> tuple[Any, list[Path]]:
    """A copy of ``value`` without its unknown parts, and the paths where they were.

    Unknown dict entries are dropped; unknown list items become ``{}`` so the indexes of the
    others stay right (any error they cause sits under an unknown path and is discarded).
    """
    unknown: list[Path] = []
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if is_unknown(item):
                unknown.append((*path, str(key)))
                continue
            out[key], inner = strip_unknowns(item, (*path, str(key)))
            unknown.extend(inner)
        return out, unknown
    if isinstance(value, list | tuple):
        items: list[Any] = []
        for index, item in enumerate(value):
            if is_unknown(item):
                unknown.append((*path, str(index)))
                items.append({})
                continue
            cleaned, inner = strip_unknowns(item, (*path, str(index)))
            items.append(cleaned)
            unknown.extend(inner)
        return items, unknown
    return value, unknown


def encode_unknowns(value: Any) -> Any:
    """Unknown markers back to the wire sentinel, which ``rpc.serialize_properties`` passes through."""
    if is_unknown(value):
        return rpc.UNKNOWN
    if isinstance(value, Mapping):
        return {key: encode_unknowns(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [encode_unknowns(item) for item in value]
    return value


def _nested_model(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The pydantic model inside ``annotation`` (``X``, ``X | None``, ``list[X]``) and whether in a list."""
    from pydantic import BaseModel
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    origin = get_origin(annotation)
    if origin in (list, tuple, Sequence):
        inner, _ = _nested_model(get_args(annotation)[0])
        return inner, True
    if origin in (Union, types.UnionType):
        for arg in get_args(annotation):
            model, in_list = _nested_model(arg)
            if model is not None:
                return model, in_list
    return None, False


def _mapped_model(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model of the values of a ``dict[str, X]`` annotation (``X | None`` too), or None."""
    from pydantic import BaseModel

    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        found = (_mapped_model(arg) for arg in get_args(annotation))
        return next((model for model in found if model is not None), None)
    if origin in (dict, Mapping):
        args = get_args(annotation)
        value = args[1] if len(args) == 2 else None
        return value if isinstance(value, type) and issubclass(value, BaseModel) else None
    return None


#: What :func:`unknown_keys` needs of a field: the model of its mapping's values, the model inside
#: it and whether that is in a list (see :func:`_mapped_model` and :func:`_nested_model`).
_FieldShape: TypeAlias = "tuple[type[BaseModel] | None, type[BaseModel] | None, bool]"


@functools.cache
def _field_shapes(model: type[BaseModel]) -> dict[str, _FieldShape]:
    """Each field's shape under its name and its alias: worked out once per model, not per key of
    every check (it was a sixth of a check's CPU, docs/performance.md)."""
    by_key: dict[str, _FieldShape] = {}
    for name, info in model.model_fields.items():
        shape = (_mapped_model(info.annotation), *_nested_model(info.annotation))
        by_key[name] = shape
        if info.alias:
            by_key[info.alias] = shape
    return by_key


def unknown_keys(model: type[BaseModel], data: Any, path: Path = ()) -> list[Path]:
    """Paths of keys that ``model`` would silently ignore: typos a user must hear about."""
    if not isinstance(data, Mapping):
        return []
    found: list[Path] = []
    shapes = _field_shapes(model)
    for key, value in data.items():
        shape = shapes.get(key)
        if shape is None:
            found.append((*path, str(key)))
            continue
        mapped, nested, in_list = shape
        if mapped is not None and isinstance(value, Mapping):
            for entry, item in value.items():
                found.extend(unknown_keys(mapped, item, (*path, str(key), str(entry))))
            continue
        if nested is None:
            continue
        if in_list and isinstance(value, list):
            for index, item in enumerate(value):
                found.extend(unknown_keys(nested, item, (*path, str(key), str(index))))
        elif not in_list:
            found.extend(unknown_keys(nested, value, (*path, str(key))))
    return found


def fill_known(model: type[BaseModel], data: Any, unknown: Sequence[Path], path: Path = ()) -> Any:
    """``data`` (inputs that could not be validated whole) with ``model``'s defaults filled in.

    Every part without an unknown value is validated and dumped like whole inputs are; around
    unknown values, missing fields get their defaults. A preview thus diffs against the same
    shape that ``up`` records. Parts that fail validation stay as given (check reports them).
    """
    from pydantic import TypeAdapter, ValidationError

    if not isinstance(data, Mapping):
        return data
    if not any(found[:len(path)] == path for found in unknown):
        try:
            return model.model_validate(data).model_dump(mode="json", exclude_none=True)
        except ValidationError:
            return data
    filled = dict(data)
    for name, info in model.model_fields.items():
        if name not in filled:
            default = None if info.is_required() else info.get_default(call_default_factory=True)
            if default is not None:
                adapter: TypeAdapter[Any] = TypeAdapter(info.annotation or Any)
                filled[name] = adapter.dump_python(default, mode="json", exclude_none=True)
            continue
        nested, in_list = _nested_model(info.annotation)
        value = filled[name]
        if nested is None or is_unknown(value):
            continue
        if in_list and isinstance(value, list):
            filled[name] = [fill_known(nested, item, unknown, (*path, name, str(index)))
                            for index, item in enumerate(value)]
        elif not in_list:
            filled[name] = fill_known(nested, value, unknown, (*path, name))
    return filled


def _under(path: Path, prefixes: Sequence[Path]) -> bool:
    """True when ``path`` is inside, or is an ancestor of, one of ``prefixes``."""
    for prefix in prefixes:
        shortest = min(len(path), len(prefix))
        if path[:shortest] == prefix[:shortest]:
            return True
    return False


def failures_from(error: ValidationError, unknown: Sequence[Path]) -> list[dyn.CheckFailure]:
    """One check failure per property, named by its dotted snake_case path.

    Errors about a value that is unknown (or that contains one) are dropped: a preview of
    computed inputs is never rejected.
    """
    failures: dict[str, list[str]] = {}
    for item in error.errors():
        path = tuple(str(part) for part in item["loc"])
        if _under(path, unknown):
            continue
        failures.setdefault(".".join(path), []).append(item["msg"])
    return [dyn.CheckFailure(prop, "; ".join(reasons)) for prop, reasons in failures.items()]


def same(old: Any, new: Any) -> bool:
    """Equality of two input values, where a missing value equals an empty one."""
    if old in (None, "", [], {}) and new in (None, "", [], {}):
        return True
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        keys = set(old) | set(new)
        return all(same(old.get(key), new.get(key)) for key in keys)
    if isinstance(old, list | tuple) and isinstance(new, list | tuple):
        return len(old) == len(new) and all(same(a, b) for a, b in zip(old, new, strict=True))
    return bool(old == new)


def known_connection(connection: Any) -> dict[str, Any] | None:
    """The ``connection`` input's fields, plain; None while any of it is unknown (a preview)."""
    plain = unwrap_secret(connection)
    if is_unknown(plain) or not isinstance(plain, Mapping | None):
        return None  # unknown, or not an object (which check reports)
    given = {key: unwrap_secret(value) for key, value in (plain or {}).items()}
    return None if strip_unknowns(given)[1] else given


def as_recorded(value: Any) -> Any:
    """``value`` as the engine gives it back: the SDK drops ``None`` from every object it
    deserializes, and a sequence comes back a list."""
    if isinstance(value, Mapping):
        return {key: as_recorded(item) for key, item in value.items() if item is not None}
    if isinstance(value, (list, tuple)):
        return [as_recorded(item) for item in value]
    return value


def inputs_of(props: Mapping[str, Any]) -> dict[str, Any]:
    """``props`` without the engine's and the SDK's bookkeeping keys."""
    return {key: value for key, value in props.items() if not key.startswith("__")}


#: The gateway object each resource of this provider process claimed in Check, and the reverse:
#: (kind, URL, identifiers) -> URN, and URN -> that key. One process serves one deployment.
_OWNERS: dict[tuple[str, str, tuple[Any, ...]], str] = {}
_CLAIMED: dict[str, tuple[str, str, tuple[Any, ...]]] = {}
_CLAIMS_LOCK = threading.Lock()


def declared_here(kind: str, url: str, identity: tuple[Any, ...]) -> bool:
    """Whether a resource of this deployment (this provider process) claimed that gateway object in Check."""
    with _CLAIMS_LOCK:
        return (kind, url, identity) in _OWNERS


def _resource_name(urn: str) -> str:
    """The name a program gave a resource: the last part of its URN."""
    return urn.rsplit("::", 1)[-1]


#: The calls that widen the provider server's pool when they first come: every one but Read and
#: Diff, the only calls of a refresh.
WIDENING = ("check", "create", "update", "delete")


def _widening(method: Callable[P, R]) -> Callable[P, R]:
    """``method``, first letting the provider server run more calls at once.

    A refresh (reads and diffs) keeps the server's own 4 threads: its reads share one list per
    proxy and are then CPU work under one interpreter lock, and 64 threads contending for it made a
    refresh of 5,000 endpoints take 10.7 s of the provider's CPU where 4 take 7.4 s. Writes wait
    on the gateway and gain from running side by side; a preview's checks ran slower on 4 threads
    (docs/performance.md), so the first check widens the server too.
    """

    @functools.wraps(method)
    def widened(*args: P.args, **kwargs: P.kwargs) -> R:
        widen_provider_server()
        return method(*args, **kwargs)

    return widened


def widen_on_first_call(cls: type) -> None:
    """Make ``cls``'s own methods named in :data:`WIDENING` widen the provider server first.

    Called once for each class (``__init_subclass__``, and for the base below); an inherited
    method was wrapped in the class that defines it.
    """
    for name in WIDENING:
        method = cls.__dict__.get(name)
        if callable(method):
            setattr(cls, name, _widening(method))


class ApinizerProvider(dyn.ResourceProvider):
    """Base of the four providers. Pickled by reference; its instances carry no state.

    The stack config that ``configure`` receives is kept only in the provider process: the
    object Pulumi serializes (in the program process) never went through ``configure``, and
    ``__getstate__`` drops it anyway.
    """

    serialize_as_secret_always = False

    #: The resource kind in messages, e.g. ``Endpoint``.
    kind: ClassVar[str]
    #: The pydantic model of the inputs (without ``connection``), used by ``check``.
    inputs_model: ClassVar[type[BaseModel]]
    #: Inputs whose change replaces the resource.
    replace_fields: ClassVar[tuple[str, ...]]
    #: Inputs that never make a diff: they say how to reach or take over, not what to configure.
    ignored_fields: ClassVar[tuple[str, ...]] = (CONNECTION,)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        widen_on_first_call(cls)

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # --- connection -------------------------------------------------------------------------

    def configure(self, req: dyn.ConfigureRequest) -> None:
        # The provider server configures each provider it unpickles before any other call.
        quiet_provider_server()
        self._stack_config = provider_stack_config(req.config)

    def client(self, props: Mapping[str, Any]) -> ApinizerClient:
        """The shared client for the connection these props resolve to."""
        return client_for(self._settings(props))

    def _settings(self, props: Mapping[str, Any], *, recorded_credentials: bool = True) -> Settings:
        connection = unwrap_secret(props.get(CONNECTION))
        given = dict(connection) if isinstance(connection, Mapping) else {}
        if not recorded_credentials:
            given = {key: value for key, value in given.items() if key == "url"}
        return resolved(given, getattr(self, "_stack_config", None))

    def with_recorded_client(self, props: Mapping[str, Any], operation: Callable[[ApinizerClient], R]) -> R:
        """Run ``operation`` (a read or a delete) with the connection recorded in the state.

        A change of credentials alone is no diff, so the engine keeps the outputs, and with them
        the credentials of the last create or update: after a token given as ``connection`` is
        rotated, those are refused. Then ``operation`` runs once more with the credentials of
        the stack config or the environment (at the recorded URL), when there are any.
        """
        from apinizer_pulumi.client import AuthenticationError

        settings = self._settings(props)
        try:
            return operation(client_for(settings))
        except AuthenticationError:
            try:
                fallback = self._settings(props, recorded_credentials=False)
            except ApinizerResourceError:
                fallback = settings  # no credentials elsewhere: the refusal stands
            if fallback.cache_key == settings.cache_key:
                raise
        return operation(client_for(fallback))

    def read_recorded(self, props: Mapping[str, Any], read: Callable[[ApinizerClient], R]) -> R:
        """A refresh's ``read`` with the recorded connection (:meth:`with_recorded_client`), tried
        again after failures that may pass, with the pauses of the look-ups after a create
        (``_create.read_retried``). A read that keeps failing fails the refresh, which then
        leaves the state as it was: a failed read is never "gone"."""
        from ._create import read_retried

        return read_retried(lambda: self.with_recorded_client(props, read))

    # --- check ------------------------------------------------------------------------------

    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        """:meth:`check_inputs`, with each nested failure's value named (``_check_failures``)."""
        from ._check_failures import readable

        result = self.check_inputs(olds, news)
        return dyn.CheckResult(result.inputs, readable(result.failures, unwrap_secret(news)))

    def check_inputs(self, _olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        """The inputs validated and normalized, and one failure per bad property (a kind extends this)."""
        from pydantic import ValidationError

        provider = news.get(PROVIDER_KEY)
        given = inputs_of(news)
        connection = given.pop(CONNECTION, None)
        failures: list[dyn.CheckFailure] = []
        cleaned, unknown = strip_unknowns(given)
        failures.extend(dyn.CheckFailure(".".join(path), "unknown property")
                        for path in unknown_keys(self.inputs_model, cleaned))
        normalized: dict[str, Any] | None = None
        try:
            model = self.inputs_model.model_validate(cleaned)
        except ValidationError as error:
            failures.extend(failures_from(error, unknown))
        else:
            failures.extend(self.extra_failures(model))
            if not unknown:
                normalized = self.normalize(model)
        if normalized is None:
            normalized = fill_known(self.inputs_model, given, unknown)
        failures.extend(self._check_connection(connection))
        if not failures:  # offline first: inputs that fail already are not worth a request
            failures.extend(self._reach_gateway(connection, cleaned))
        failures.extend(self._claim_object(normalized, connection))
        inputs = encode_unknowns(normalized)
        if connection is not None:
            inputs[CONNECTION] = encode_unknowns(connection)
        inputs[PROVIDER_KEY] = provider
        return dyn.CheckResult(inputs, failures)

    def normalize(self, model: BaseModel) -> dict[str, Any]:
        """Validated inputs with defaults filled in, snake_case, enums as their strings."""
        return model.model_dump(mode="json", exclude_none=True)

    def extra_failures(self, model: BaseModel) -> list[dyn.CheckFailure]:
        """Rules that span more than one model (a kind overrides this when it has any)."""
        return []

    @staticmethod
    def _check_connection(connection: Any) -> list[dyn.CheckFailure]:
        if connection is None or is_unknown(connection):
            return []
        plain = unwrap_secret(connection)
        if not isinstance(plain, Mapping):
            return [dyn.CheckFailure(CONNECTION, "must be an object: url, token, username, password")]
        from pydantic import ValidationError

        from ._inputs import ConnectionInput

        cleaned, unknown = strip_unknowns({key: unwrap_secret(value) for key, value in plain.items()})
        try:
            settings = ConnectionInput.model_validate(cleaned)
        except ValidationError as error:
            return [
                dyn.CheckFailure(f"{CONNECTION}.{failure.property}", failure.reason)
                for failure in failures_from(error, [path[1:] for path in unknown if path])
            ]
        if unknown:
            return []
        if settings.token and (settings.username or settings.password):
            return [dyn.CheckFailure(CONNECTION, "give either connection.token or connection.username "
                                                 "with connection.password, not both")]
        if bool(settings.username) != bool(settings.password):
            missing = "password" if settings.username else "username"
            return [dyn.CheckFailure(f"{CONNECTION}.{missing}",
                                     "connection.username and connection.password go together")]
        return []

    def _reach_gateway(self, connection: Any, inputs: Mapping[str, Any]) -> list[dyn.CheckFailure]:
        """The connection these inputs resolve to, checked once per process (``prove_connection``).

        Offline first: a URL, with an http or https scheme, and credentials, each failure naming
        the setting to fix. Skipped when a part of the ``connection`` input is not known yet, and
        when ``apinizer:skipConnectionCheck`` or ``APINIZER_SKIP_CONNECTION_CHECK`` says so.
        The failures have no property: the engine would print the property's value beside them.
        """
        stack_config = getattr(self, "_stack_config", None)
        given = known_connection(connection)
        if connection_check_skipped(stack_config) or given is None:
            return []
        try:
            # Kept per connection input, stack config and environment, as every request's settings are:
            # every check of a deployment resolves the same few.
            settings = resolved(given, stack_config)
        except ApinizerResourceError as error:
            return [dyn.CheckFailure("", error.message)]
        kept = kept_proof(settings)
        if kept is not None:
            # Proven (or refused) by an earlier check: its URL passed the offline check then, and
            # naming the settings is only for a new proof's messages.
            reason = kept[0]
        else:
            names = setting_names(given, stack_config)
            problem = url_problem(settings.url)
            if problem is not None:
                return [dyn.CheckFailure("", f"apinizer: {names[0]} {settings.url!r} {problem}")]
            reason = prove_connection(settings, names, self.probe(inputs))
        return [] if reason is None else [dyn.CheckFailure("", f"apinizer: {reason}")]

    def _claim_object(self, inputs: Mapping[str, Any], connection: Any) -> list[dyn.CheckFailure]:
        """A failure when another resource of this deployment manages the same gateway object.

        A gateway object is named by the kind's identifiers (``replace_fields``) on one gateway, and
        each is claimed by the first resource (URN) checked with it. A resource checked again (the
        update after its preview, a replace) keeps its claim, and moves it when its identifiers
        change. Only resources of one kind collide: an ``EndpointCache`` shares its endpoint's
        identity by design. Skipped when an identifier or the connection's URL is not known yet, and
        outside the provider server, where the URN is not known (``_server.checking_urn``).
        """
        urn = checking_urn()
        given = known_connection(connection)
        identity = tuple(inputs.get(name) for name in self.replace_fields)
        if urn is None or given is None or not all(
                isinstance(part, str) and part and not is_unknown(part) for part in identity):
            return []
        key = (self.kind, gateway_url(given, getattr(self, "_stack_config", None)), identity)
        with _CLAIMS_LOCK:
            previous = _CLAIMED.pop(urn, None)
            if previous is not None and _OWNERS.get(previous) == urn:
                del _OWNERS[previous]
            owner = _OWNERS.setdefault(key, urn)
            if owner == urn:
                _CLAIMED[urn] = key
                return []
        what = ", ".join(f"{name} {part!r}" for name, part in zip(self.replace_fields, identity, strict=True))
        mine, theirs = _resource_name(urn), _resource_name(owner)
        if mine == theirs:
            mine, theirs = urn, owner
        named = f" ({what})" if what else ""  # a kind without identifiers is one per gateway
        return [dyn.CheckFailure("", (
            f"apinizer: {self.kind} '{mine}' and {self.kind} '{theirs}' manage the same gateway object"
            f"{named}: each would overwrite (or delete) what the other declares. Declare it once; "
            f"adopt=True does not help, it only lets a second resource take over the first's object"
        ))]

    @staticmethod
    def probe(inputs: Mapping[str, Any]) -> tuple[str, str] | None:
        """The (project, API proxy) whose endpoint list proves a personal token: one these inputs name."""
        project = inputs.get("project_name")
        proxy = inputs.get("api_proxy_name")
        entries = inputs.get("endpoints")
        if not proxy and isinstance(entries, list) and entries and isinstance(entries[0], Mapping):
            proxy = entries[0].get("api_proxy_name")
        if isinstance(project, str) and project and isinstance(proxy, str) and proxy:
            return project, proxy
        return None

    # --- diff -------------------------------------------------------------------------------

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        fields = (set(inputs_of(news)) | set(self.inputs_model.model_fields)) - set(self.ignored_fields)
        changed = sorted(name for name in fields if is_unknown(news.get(name))
                         or not same(olds.get(name), news.get(name)))
        if not changed:
            return dyn.DiffResult(changes=False)
        replaces = [name for name in changed if name in self.replace_fields]
        # A replace happens only when an identifier changes, and every kind's gateway object is
        # named by exactly its identifiers (``replace_fields``): the new object never collides with
        # the old one, so it is created first, and a create that fails leaves the old one running.
        # (A forced replace, ``pulumi up --replace``, never reaches this method: see _replace.)
        return dyn.DiffResult(changes=True, replaces=replaces, stables=[], delete_before_replace=False)

    # --- a replace of the same gateway object (see _replace) --------------------------------

    def created(self, props: Mapping[str, Any]) -> None:
        """Note that a create of this operation made or took over the object of ``props``."""
        _replace.claim(self.kind, self.replace_fields, props)

    def held_by_new(self, props: Mapping[str, Any]) -> bool:
        """Whether a delete of ``props`` must leave its gateway object to a create of this operation."""
        return _replace.claimed(self.kind, self.replace_fields, props)

    # --- outputs ----------------------------------------------------------------------------

    @staticmethod
    def refreshed(id_: str, recorded: Mapping[str, Any], outs: dict[str, Any],
                  inputs: dict[str, Any]) -> dyn.ReadResult:
        """A refresh's answer: the new outputs, and the inputs only when the outputs moved.

        When what the gateway holds gives exactly the recorded outputs, nothing drifted and the
        recorded inputs still hold: the engine keeps them when a Read returns none
        (``RefreshStep.Apply``), and the provider server is spared serializing them a second time
        for every resource of a refresh (docs/performance.md). A read from the id alone (no
        recorded outputs) and any drift return them.
        """
        changed = ApinizerProvider.drifted(recorded, outs)
        return dyn.ReadResult(id_, outs, inputs_of(inputs) if changed else None)

    @staticmethod
    def drifted(recorded: Mapping[str, Any], outs: Mapping[str, Any]) -> bool:
        """Whether a refresh must return inputs: its outputs differ from the recorded ones, or there
        were none (a read from the id alone). Otherwise a Read returns no inputs, and the engine keeps
        the recorded ones (``refreshed``)."""
        if not recorded:
            return True
        recorded_outs = inputs_of(recorded)
        # Equal as they are is the common case of a refresh, and spares rebuilding both.
        return recorded_outs != outs and as_recorded(recorded_outs) != as_recorded(outs)

    @staticmethod
    def outputs(inputs: Mapping[str, Any], **computed: Any) -> dict[str, Any]:
        """Every input plus computed values; ``connection`` too, so read and delete can reach the gateway."""
        outs = inputs_of(inputs)
        outs.update(computed)
        return outs


widen_on_first_call(ApinizerProvider)
