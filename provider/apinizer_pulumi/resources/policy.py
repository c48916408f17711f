"""``Policy``: one policy of any documented type in an API proxy's pipeline, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.policy.PolicyProvider``)
are recorded by reference in every stack's state: they never move without an alias.

One resource for every type, with one typed settings class per type
(``apinizer_pulumi.policies.<Type>``, generated from the models): one lifecycle and one recorded
provider path, while mypy and IDEs check each type's fields (docs/resources/policy.md says why).

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/index.md
and the type pages under ``02-api-reference/05-policies/policies/``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props, to_props
from ._base import (
    CONNECTION,
    inputs_of,
    is_unknown,
    known_connection,
    lazy_model,
    same,
)
from ._connection import ConnectionArgs, gateway_url
from ._create import ExactlyOnce, after_create, confirmed, read_retried
from ._errors import ApinizerResourceError, translated
from ._named import HandedOver, already_exist, create_or_adopt
from ._replace import unchangeable
from ._secret_inputs import HoldsSecrets
from ._typed_settings import SettingsFamily, mark_secrets
from ._types import HttpMethodValue

if TYPE_CHECKING:
    from pydantic import BaseModel

    from apinizer_pulumi.client import ApinizerClient
    from apinizer_pulumi.models import PolicyBase

PipelineName = Literal["REQUEST", "RESPONSE", "ERROR"]
TargetScopeName = Literal["ALL", "ENDPOINT"]

KEYS = ("project_name", "api_proxy_name", "name")
#: The inputs that say where a policy runs: a change moves it (an update), never replaces it.
PLACEMENT = ("pipeline", "target_scope", "target_endpoint", "target_endpoint_http_method", "order")
#: What a create's placed write returns when the add went through and the move after it failed
#: (positions start at 1).
NOT_MOVED = 0
#: The fields every policy type shares (``PolicyBase``), under the resource's own input names.
COMMON = {"description": "description", "active": "active", "condition": "policy_condition",
          "error_messages": "error_message_list"}
#: The gateway's answer to a write or delete of a policy that is not there.
_NO_SUCH_POLICY = re.compile(r"does not exist|not found", re.IGNORECASE)


def identity(id_: str, props: Mapping[str, Any]) -> tuple[str, str, str]:
    """(project, proxy, name) from the props, or from the id ``{project}/{proxy}/{name}``."""
    if all(isinstance(props.get(key), str) and props.get(key) for key in KEYS):
        project, proxy, name = (str(props[key]) for key in KEYS)
        return project, proxy, name
    project, proxy, name = id_.split("/", 2)
    return project, proxy, name


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:Policy auth in Demo/PetStore`` for messages."""
    try:
        project, proxy, name = identity(id_, props)
    except ValueError:
        return "apinizer:Policy"
    return f"apinizer:Policy {name} in {project}/{proxy}"


#: The policy types' shared lifecycle of typed settings (``_typed_settings``).
SETTINGS = SettingsFamily(
    noun="policy", resource="Policy", type_input="policy_type",
    registry="apinizer_pulumi.models._policy_registry:POLICY_TYPES",
    base="apinizer_pulumi.models:PolicyBase",
    args="apinizer_pulumi.resources._policy_args:POLICY_ARGS",
    common=COMMON,
    secret_fields_alone=True,
)


def policy_model(policy_type: str) -> type[PolicyBase]:
    """The model of a type string; an unknown one is an error naming the known types."""
    model: type[PolicyBase] = SETTINGS.model(policy_type)  # type: ignore[assignment]
    return model


secret_fields = SETTINGS.secret_fields
own_field_names = SETTINGS.own_field_names


def _path_text(parts: Sequence[str]) -> str:
    """``settings.detail_list[0].target_value``: dotted names, list indexes in brackets."""
    text = ""
    for part in parts:
        text += f"[{part}]" if part.isdigit() else (f".{part}" if text else part)
    return text


def build_policy(props: Mapping[str, Any]) -> PolicyBase:
    """The type's model from the inputs: settings plus the common fields."""
    model = policy_model(str(props["policy_type"]))
    data: dict[str, Any] = dict(props.get("settings") or {})
    for key, field_name in COMMON.items():
        if props.get(key) is not None:
            data[field_name] = props[key]
    data["type"] = props["policy_type"]
    data["name"] = props.get("name")
    return model.model_validate(data)


def settings_of(policy: BaseModel) -> dict[str, Any]:
    """The type's own fields of a (declared or live) policy, as the ``settings`` input holds them."""
    return SETTINGS.settings_of(policy)


def metadata(props: Mapping[str, Any], *, order: int | None) -> Any:
    """The ``operationMetadata`` of a write: where the policy runs; deploy only to ``deploy_to``."""
    from apinizer_pulumi.models import PolicyOperationMetadata

    environments = list(props.get("deploy_to") or [])
    return PolicyOperationMetadata(
        target_scope=props.get("target_scope") or "ALL",
        target_endpoint=props.get("target_endpoint"),
        target_endpoint_http_method=props.get("target_endpoint_http_method"),
        target_pipeline=props["pipeline"],
        deploy=bool(environments),
        deploy_target_environment_name_list=environments,
        order=order,
    )


# -- reading a proxy's policy list ----------------------------------------------------------------


Target = tuple[str, str | None, str | None]
"""(scope, endpoint, method): ``("ALL", None, None)`` or ``("ENDPOINT", "/users", "GET")``."""

PIPELINE_LISTS = {"REQUEST": "request_policy_list", "RESPONSE": "response_policy_list",
                  "ERROR": "error_policy_list"}


@dataclasses.dataclass(frozen=True)
class Placed:
    """A live policy and where it runs: its pipeline list and 1-based position in it."""

    policy: Any
    target: Target
    pipeline: str
    position: int
    names: tuple[str, ...]


def _value(item: Any) -> Any:
    return getattr(item, "value", item)


def _entries(holder: Any, pipeline: str) -> list[Any]:
    entries = getattr(holder, PIPELINE_LISTS[pipeline], None)
    return list(entries or [])


def _name_of(entry: Any) -> str:
    return str(getattr(entry, "name", None) or "")


def pipelines(live: Any) -> dict[tuple[Target, str], list[Any]]:
    """Every pipeline list of a ``ProxyPolicies``: the proxy's three and each endpoint's three."""
    found: dict[tuple[Target, str], list[Any]] = {}
    if live is None:
        return found
    for pipeline in PIPELINE_LISTS:
        found[(("ALL", None, None), pipeline)] = _entries(live, pipeline)
    for endpoint in getattr(live, "endpoint_list", None) or []:
        target: Target = ("ENDPOINT", str(getattr(endpoint, "endpoint", "")),
                          str(_value(getattr(endpoint, "http_method", ""))))
        for pipeline in PIPELINE_LISTS:
            found[(target, pipeline)] = _entries(endpoint, pipeline)
    return found


def find_policy(live: Any, name: str) -> Placed | None:
    """Where the policy ``name`` is in a ``ProxyPolicies`` (names match case-insensitively, as the
    delete page says the gateway matches them); None when it is in no list."""
    wanted = name.casefold()
    for (target, pipeline), entries in pipelines(live).items():
        names = tuple(_name_of(entry) for entry in entries)
        for index, entry in enumerate(entries):
            if names[index].casefold() == wanted:
                return Placed(entry, target, pipeline, index + 1, names)
    return None


def target_of(props: Mapping[str, Any]) -> Target:
    if (props.get("target_scope") or "ALL") == "ENDPOINT":
        return ("ENDPOINT", str(props.get("target_endpoint")), str(props.get("target_endpoint_http_method")))
    return ("ALL", None, None)


# -- order: placing a policy where it is declared ---------------------------------------------------

#: The declared order of each policy this process has checked or written, by (gateway URL, project,
#: proxy) then name: what a placement knows of the other policies of a pipeline.
_DECLARED: dict[tuple[str, str, str], dict[str, tuple[Target, str, int | None]]] = {}
_DECLARED_LOCK = threading.Lock()
#: Writes to one proxy's policies, one at a time: each places its policy from a list that no
#: concurrent write of this process changes under it.
_PROXY_LOCKS: dict[tuple[str, str, str], threading.Condition] = {}
#: Names of the policies this process has written, by (gateway URL, project, proxy).
_WRITTEN: dict[tuple[str, str, str], set[str]] = {}
#: Longest wait of a create for the creates of its pipeline declared before it (see ``_placed_write``).
ORDER_WAIT = 1.0


def as_order(value: Any) -> int | None:
    """A declared order as an int: numbers cross the gRPC wire as floats (``2.0``)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        return None
    return int(value)


def declare(url: str, props: Mapping[str, Any]) -> None:
    """Note where ``props`` declares its policy, for the placement of its neighbours."""
    try:
        project, proxy, name = identity("", props)
    except ValueError:
        return
    pipeline = props.get("pipeline")
    if not isinstance(pipeline, str) or is_unknown(props.get("order")) or is_unknown(pipeline):
        return
    with _DECLARED_LOCK:
        _DECLARED.setdefault((url, project, proxy), {})[name.casefold()] = (
            target_of(props), pipeline, as_order(props.get("order")))


def _proxy_lock(key: tuple[str, str, str]) -> threading.Condition:
    with _DECLARED_LOCK:
        return _PROXY_LOCKS.setdefault(key, threading.Condition())


def _pending_before(key: tuple[str, str, str], name: str, target: Target, pipeline: str, order: int,
                    live: set[str]) -> bool:
    """Whether a policy declared before ``name`` in its pipeline is neither on the gateway nor written
    yet by this process: a create of this operation that has not run yet."""
    with _DECLARED_LOCK:
        declared = dict(_DECLARED.get(key, {}))
        written = set(_WRITTEN.get(key, set()))
    return any(other != name.casefold() and where == target and line == pipeline and rank is not None
               and rank < order and other not in live and other not in written
               for other, (where, line, rank) in declared.items())


def placement(url: str, project: str, proxy: str, name: str, target: Target, pipeline: str,
              order: int, names: Sequence[str]) -> int:
    """The 1-based position to send for a policy declared at ``order`` in a pipeline of ``names``.

    ``names`` are the pipeline's policies without this one. Each neighbour counts at its declared
    order when this process knows it (it was checked or written in this operation), else at its
    present position: the policy goes after every neighbour that counts lower than its own order.
    So creates that the engine runs in any order still end in the declared order, and a policy
    nobody declares (one added in the console) keeps its place among them.
    """
    with _DECLARED_LOCK:
        declared = dict(_DECLARED.get((url, project, proxy), {}))
    before = 0
    for index, other in enumerate(names, start=1):
        known = declared.get(other.casefold())
        rank = known[2] if known is not None and known[0] == target and known[1] == pipeline \
            and known[2] is not None else index
        if rank < order:
            before += 1
    return before + 1


def expected_position(order: int | None, length: int) -> int | None:
    """Where a declared order puts a policy in a pipeline of ``length``: beyond the end is last."""
    return None if order is None else min(order, max(length, 1))


# -- the provider --------------------------------------------------------------------------------


plain = SETTINGS.plain
secret = SETTINGS.secret


def _canonical(value: Any) -> Any:
    """``value`` with integral floats as ints: numbers cross gRPC as floats (2.0), reads give ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {key: _canonical(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    return value


def revision(props: Mapping[str, Any]) -> str:
    """A digest of what the gateway holds for this policy: a deployment's trigger.

    Secret when the type has secret fields: it is a plain digest of them too, and the other fields
    it covers are in clear, so a guess of a secret could be checked against it."""
    body = _canonical({key: props.get(key) for key in ("policy_type", *PLACEMENT, *COMMON, "settings")})
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


class PolicyProvider(HoldsSecrets, HandedOver):
    """Add, update (in place, moved to its declared order), read and delete one policy of a proxy."""

    kind = "Policy"
    inputs_model = lazy_model("apinizer_pulumi.resources._policy_inputs", "PolicyInputs")
    replace_fields = KEYS
    ignored_fields = (CONNECTION, "adopt")
    secrets = SETTINGS

    # -- check -------------------------------------------------------------------------------

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        result = super().check_inputs(olds, news)
        news = plain(news)
        inputs = dict(result.inputs)
        extra, settings = self._check_settings(news)
        extra.extend(self._check_target(news))
        if settings is not None:
            inputs["settings"] = settings
        # The base names list items ``a.0.b``; a policy's paths read ``a[0].b``.
        merged = SETTINGS.merged(result.failures, extra, path_text=_path_text)
        if not merged:
            given = known_connection(news.get(CONNECTION)) or {}
            url = gateway_url(given, getattr(self, "_stack_config", None))
            declare(url, inputs)
        return dyn.CheckResult(secret(inputs, inputs.get("policy_type")), merged)

    @staticmethod
    def _check_target(news: Mapping[str, Any]) -> list[dyn.CheckFailure]:
        """ENDPOINT scope needs the endpoint and its method; ALL takes neither."""
        scope = news.get("target_scope") or "ALL"
        endpoint, method = news.get("target_endpoint"), news.get("target_endpoint_http_method")
        if is_unknown(scope):
            return []
        if scope == "ENDPOINT":
            failures = []
            if endpoint is None:
                failures.append(dyn.CheckFailure("target_endpoint", (
                    "required when target_scope is ENDPOINT: the endpoint's path, e.g. /api/users")))
            if method is None:
                failures.append(dyn.CheckFailure("target_endpoint_http_method",
                                                 "required when target_scope is ENDPOINT"))
            return failures
        if scope == "ALL" and (endpoint is not None or method is not None):
            prop = "target_endpoint" if endpoint is not None else "target_endpoint_http_method"
            return [dyn.CheckFailure(prop, "only with target_scope='ENDPOINT' (a policy of the whole proxy "
                                           "has no endpoint)")]
        return []

    @staticmethod
    def _check_settings(news: Mapping[str, Any]) -> tuple[list[dyn.CheckFailure], dict[str, Any] | None]:
        """The type's model over settings and the common fields (``_typed_settings``); a type the API
        cannot add only with ``adopt``."""
        policy_type = news.get("policy_type")
        try:
            addable = not isinstance(policy_type, str) or is_unknown(policy_type) \
                or getattr(policy_model(policy_type), "addable", True)
        except ValueError:
            addable = True  # an unknown type: the shared check names it
        if not addable and news.get("adopt") is not True:
            return [dyn.CheckFailure("policy_type", (
                f"{policy_type} cannot be added through the API: the gateway adds it with the proxy's "
                "SOAP/REST transformation; declare it with adopt=True to manage the one it has"))], None
        return SETTINGS.check_settings(news, path_text=_path_text)

    # -- diff --------------------------------------------------------------------------------

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        # The API cannot change a policy's type: a new policy replaces it (names are unique in a proxy).
        return unchangeable(super().diff(id_, olds, news), "policy_type", olds, news)

    # -- writes ------------------------------------------------------------------------------

    def _placed_write(self, client: ApinizerClient, props: Mapping[str, Any], *, update: bool,
                      move: bool) -> int | None:
        """Send the add (or update) with the position that puts the policy at its declared order.

        Returns that position (where the policy now is), or None when no list was read for it.
        """
        from ._reads import policy_writing

        project, proxy, name = identity("", props)
        policy = build_policy(props)
        url = client.base_url
        declare(url, props)
        order = as_order(props.get("order"))
        key = (url, project, proxy)
        lock = _proxy_lock(key)
        with lock:
            position: int | None = None
            names: list[str] = []
            if order is not None and (move or not update):
                target, pipeline = target_of(props), str(props["pipeline"])

                def pipeline_names() -> list[str]:
                    live = client.policies.list(project, proxy)
                    return [_name_of(entry) for entry in pipelines(live).get((target, pipeline), [])]

                names = pipeline_names()
                if not update:
                    # The engine runs creates side by side in no set order. One that waits (a
                    # second at most) for the creates declared before it in its pipeline lands
                    # behind them with one add: a policy put before the last one of a pipeline
                    # needs an add and an update (see below).
                    deadline = time.monotonic() + ORDER_WAIT
                    waited = False
                    while _pending_before(key, name, target, pipeline, order,
                                          {item.casefold() for item in names}):
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            break
                        lock.wait(remaining)
                        waited = True
                    if waited:
                        names = pipeline_names()
                names = [item for item in names if item.casefold() != name.casefold()]
                position = placement(url, project, proxy, name, target, pipeline, order, names)
            with policy_writing(client, project, proxy):
                try:
                    if update:
                        client.policies.update(project, proxy, name, policy, metadata(props, order=position))
                        return position
                    client.policies.add(project, proxy, name, policy, metadata(props, order=position))
                    if position is not None and position == len(names) and names:
                        # The add page: an order of the list's size or more appends. Before the last
                        # policy is a place only an update reaches (it counts the policy itself). The
                        # add made the policy: a failed move is a write after its create, recorded
                        # as not done (NOT_MOVED) so that the next `pulumi up` moves it.
                        at: int = position

                        def to_order() -> int:
                            client.policies.update(project, proxy, name, policy, metadata(props, order=at))
                            return at

                        return confirmed(subject(props), "moving it to its declared order", to_order,
                                         NOT_MOVED)
                    return position
                finally:
                    with _DECLARED_LOCK:
                        _WRITTEN.setdefault(key, set()).add(name.casefold())
                    lock.notify_all()

    @translated(lambda self, props: subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        props = plain(props)
        project, proxy, name = identity("", props)
        who = subject(props)
        client = self.client(props)
        existing = find_policy(client.policies.list(project, proxy), name) \
            if props.get("adopt") else None
        if existing is not None:
            live_type = str(getattr(existing.policy, "type", ""))
            if live_type and live_type != props.get("policy_type"):
                raise ApinizerResourceError(
                    f"{who}: adopt=True found a policy of this name of type {live_type!r}, not "
                    f"{props.get('policy_type')!r}; a policy's type cannot change: declare its type, "
                    "or give the new policy another name")
            live = live_inputs(existing, props)
            if "order" not in live and all(same(props.get(key), live.get(key)) for key in (
                    *PLACEMENT[:-1], "active", "description", "condition", "error_messages", "settings")):
                # Taken over as it is (what `generate` declares): nothing to write.
                placed: list[int | None] = [existing.position]
            else:
                placed = [self._placed_write(client, props, update=True, move=True)]
        else:
            placed = [None]

            def send() -> None:
                placed[0] = self._placed_write(client, props, update=False, move=False)

            def made_by(live: Placed) -> bool:
                return (str(getattr(live.policy, "type", "")) == props.get("policy_type")
                        and live.target == target_of(props) and live.pipeline == props.get("pipeline"))

            create = ExactlyOnce(
                send=send,
                look_up=lambda: find_policy(client.policies.list(project, proxy), name),
                made_by=made_by,
                already_exists=already_exist,
                noun="policy",
                namesake="a policy with this name",
            )
            # adopt looked the name up and found it free: taken since, it is someone else's.
            create_or_adopt(create, already_exist, props, who, None, forced=False)
        self.created(props)
        if placed[0] == NOT_MOVED:
            # Not at its declared order: recorded without one, which the next diff shows as a change.
            props = {key: value for key, value in props.items() if key != "order"}
            placed[0] = None
        outs = self.outputs(props, revision=revision(props), position=placed[0])
        if placed[0] is None:  # appended (no order), or found after a lost answer: one read says where
            with after_create(who, "reading back its position"):
                outs = read_retried(lambda: self._outputs(client, props))
        return dyn.CreateResult("/".join((project, proxy, name)), secret(outs, props.get("policy_type")))

    def _outputs(self, client: ApinizerClient, props: Mapping[str, Any]) -> dict[str, Any]:
        from ._reads import live_policies

        project, proxy, name = identity("", props)
        found = find_policy(live_policies(client, project, proxy), name)
        return self.outputs(props, revision=revision(props),
                            position=found.position if found is not None else None)

    @translated(lambda self, id_, olds, news: subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        olds, news = plain(olds), plain(news)
        client = self.client(news)
        # A move only when where it runs changed (a drift that refresh read shows as a changed order).
        moved = any(not same(olds.get(key), news.get(key)) for key in PLACEMENT)
        position = self._placed_write(client, news, update=True, move=moved)
        if position is None and not moved:
            position = olds.get("position")  # an update without order keeps the policy where it was
        outs = self.outputs(news, revision=revision(news), position=position) if position is not None \
            else self._outputs(client, news)
        return dyn.UpdateResult(secret(outs, news.get("policy_type")))

    # -- read --------------------------------------------------------------------------------

    @translated(lambda self, id_, props: subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_policies

        props = plain(props)
        project, proxy, name = identity(id_, props)
        live = self.read_recorded(props, lambda client: live_policies(client, project, proxy))
        found = find_policy(live, name)
        if found is None:
            return dyn.ReadResult(None, {})  # deleted in the console, or its proxy is gone
        inputs = {key: value for key, value in inputs_of(props).items()
                  if key not in ("revision", "position")}
        inputs.update(zip(KEYS, (project, proxy, name), strict=True))
        inputs.update({key: value for key, value in live_inputs(found, inputs).items()
                       if value is not None or key in inputs})  # no None where nothing was declared
        outs = self.outputs(inputs, revision=revision(inputs), position=found.position)
        policy_type = inputs.get("policy_type")
        return dyn.ReadResult(id_, secret(outs, policy_type),
                              secret(inputs, policy_type) if self.drifted(props, outs) else None)

    # -- delete ------------------------------------------------------------------------------

    subject = staticmethod(subject)

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import BadRequestError, NotFoundError

        from ._errors import container_gone
        from ._reads import policy_writing

        props = plain(props)
        project, proxy, name = identity(id_, props)
        try:
            addable = policy_model(str(props.get("policy_type"))).addable
        except ValueError:
            addable = True
        if not addable:
            return  # the gateway's own (a protocol transformation): it goes with the proxy, not by itself
        with policy_writing(client, project, proxy):
            try:
                client.policies.delete(project, proxy, name, metadata=metadata(props, order=None))
            except NotFoundError as error:
                if not container_gone(error):
                    raise
                return
            except BadRequestError as error:
                if not _NO_SUCH_POLICY.search(error.error_description or ""):
                    raise
                refused = error
            else:
                return
        # Not where the state says (moved in the console to another pipeline or target): deleted
        # where the gateway's own list has it; gone only when the list confirms it.
        found = find_policy(client.policies.list(project, proxy), name)
        if found is None:
            return
        scope, endpoint, method = found.target
        moved = {**props, "pipeline": found.pipeline, "target_scope": scope, "target_endpoint": endpoint,
                 "target_endpoint_http_method": method}
        if moved == dict(props):
            raise refused
        with policy_writing(client, project, proxy):
            client.policies.delete(project, proxy, name, metadata=metadata(moved, order=None))


def live_inputs(found: Placed, declared: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs as the gateway holds them: what refresh shows as drift.

    Settings are compared field by field with what was declared; a secret field keeps its
    declared value (a gateway may not return it). ``order`` is the live position when it differs
    from where the declared order puts the policy (beyond the end of its pipeline is last).
    """
    policy = _typed(found.policy, declared)
    scope, endpoint, method = found.target
    out: dict[str, Any] = {
        "pipeline": found.pipeline,
        "target_scope": scope,
        "target_endpoint": endpoint,
        "target_endpoint_http_method": method,
        "active": bool(getattr(policy, "active", True)),
    }
    live_type = getattr(policy, "type", None)
    if isinstance(live_type, str) and live_type:
        out["policy_type"] = live_type
    description = getattr(policy, "description", None)
    if description is not None or declared.get("description") is not None:
        out["description"] = description
    if hasattr(policy, "model_dump"):
        dumped = policy.model_dump(mode="json", exclude_none=True)
        if "policy_condition" in dumped or declared.get("condition") is not None:
            condition = dumped.get("policy_condition")
            # The gateway fills in an empty condition (a default AND): the same as none declared.
            out["condition"] = declared.get("condition") if same(condition, {"condition_rule_list": []}) \
                and declared.get("condition") is None else condition
        if "error_message_list" in dumped or declared.get("error_messages") is not None:
            out["error_messages"] = dumped.get("error_message_list")
        try:
            live_settings = settings_of(policy)
        except ValueError:
            live_settings = {}
        settings = dict(declared.get("settings") or {})
        secrets = {path.split(".", 1)[0] for path in secret_fields(live_type or declared.get("policy_type"))}
        for key, value in live_settings.items():
            if key not in secrets:
                settings[key] = value
        for key in list(settings):
            if key not in live_settings and key not in secrets:
                del settings[key]
        out["settings"] = settings
    expected = expected_position(as_order(declared.get("order")), len(found.names))
    if expected is not None and expected != found.position:
        out["order"] = found.position
    return out


def _typed(policy: Any, declared: Mapping[str, Any]) -> Any:
    """A list entry of a known type as its type's model, with the declared secrets put back where the
    list cleared them (null), when only those stopped it: a rule of the model may need a secret (a
    WS-Security ``USERNAME_TOKEN`` needs ``un_password``), and the list leaves such an entry untyped,
    which would show every other field of its settings as gone. Any other entry as it is."""
    from pydantic import ValidationError

    from apinizer_pulumi.models import PolicyBase

    policy_type = getattr(policy, "type", None)
    settings = declared.get("settings")
    if isinstance(policy, PolicyBase) or not isinstance(policy_type, str) \
            or not isinstance(settings, Mapping) or not hasattr(policy, "model_dump"):
        return policy
    try:
        model = policy_model(policy_type)
    except ValueError:
        return policy
    entry = policy.model_dump(mode="json", by_alias=True)
    for name in {path.split(".", 1)[0] for path in model.secret_fields()}:
        field = model.model_fields.get(name)
        key = (field.alias if field is not None else None) or name
        if field is not None and entry.get(key, ...) is None and settings.get(name) is not None:
            entry[key] = settings[name]
    try:
        return model.model_validate(entry)
    except ValidationError:
        return policy


class Policy(dyn.Resource, module="apinizer", name="Policy"):
    """One policy in an API proxy's request, response or error pipeline, of any documented type.

    Id: ``{project}/{proxy}/{name}``. ``settings`` is the type's settings class
    (``apinizer_pulumi.policies.<Type>``), which also gives the type. Changing the type, the name,
    the proxy or the project replaces the policy (a new type under the same name deletes the old
    one first); everything else, its place included, changes in place. The policy is kept at its
    declared ``order``. Writes send ``deploy: false`` unless ``deploy_to`` names environments:
    a change reaches an environment through ``ApiProxyDeployment`` or ``deploy_to``, never
    otherwise. Refresh reads the proxy's policy list once for every policy of the proxy.
    """

    project_name: pulumi.Output[str]
    """The project that holds the API proxy."""
    api_proxy_name: pulumi.Output[str]
    """The API proxy that holds the policy."""
    name: pulumi.Output[str]
    """The policy's name, unique in the proxy."""
    policy_type: pulumi.Output[str]
    """The type string, e.g. ``policy-white-ip``."""
    pipeline: pulumi.Output[PipelineName]
    """REQUEST, RESPONSE or ERROR."""
    target_scope: pulumi.Output[TargetScopeName]
    """ALL (every endpoint) or ENDPOINT."""
    target_endpoint: pulumi.Output[str | None]
    """The endpoint's path, for ENDPOINT scope."""
    target_endpoint_http_method: pulumi.Output[str | None]
    """The endpoint's HTTP method, for ENDPOINT scope."""
    order: pulumi.Output[int | None]
    """The declared 1-based position in the pipeline."""
    description: pulumi.Output[str | None]
    """Free text."""
    active: pulumi.Output[bool]
    """Whether the policy runs."""
    condition: pulumi.Output[dict[str, Any] | None]
    """The condition under which it runs."""
    error_messages: pulumi.Output[list[dict[str, Any]] | None]
    """Custom error messages."""
    settings: pulumi.Output[dict[str, Any]]
    """The type's own fields with the API's defaults filled in, each secret field a secret in the state (the
    program sees the whole output as a secret when the type has secret fields)."""
    deploy_to: pulumi.Output[list[str] | None]
    """Environments each write deploys to."""
    adopt: pulumi.Output[bool]
    """Whether create may take over a policy of this name that already exists."""
    position: pulumi.Output[int | None]
    """Its 1-based position in its pipeline when last written or read (its neighbours' creates move it
    after; refresh reads it again)."""
    revision: pulumi.Output[str]
    """A digest of what was written: use it in ``ApiProxyDeployment(triggers=...)`` to redeploy on change
    (a secret when the type has secret fields)."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_name: pulumi.Input[str],
        name: pulumi.Input[str],
        pipeline: pulumi.Input[PipelineName],
        settings: Any,
        policy_type: pulumi.Input[str] | None = None,
        target_scope: pulumi.Input[TargetScopeName] | None = None,
        target_endpoint: pulumi.Input[str] | None = None,
        target_endpoint_http_method: pulumi.Input[HttpMethodValue] | None = None,
        order: pulumi.Input[int] | None = None,
        description: pulumi.Input[str] | None = None,
        active: pulumi.Input[bool] | None = None,
        condition: pulumi.Input[Mapping[str, Any]] | None = None,
        error_messages: pulumi.Input[Sequence[pulumi.Input[Mapping[str, Any]]]] | None = None,
        deploy_to: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a policy.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the API proxy.
        :param api_proxy_name: The API proxy (``ApiProxy.name`` makes the dependency).
        :param name: The policy's name, unique in the proxy (a change replaces it).
        :param pipeline: REQUEST, RESPONSE or ERROR.
        :param settings: The type's settings, e.g. ``apinizer.policies.WhiteIp(ip_list=[...])``; a dict
            with snake_case keys needs ``policy_type``.
        :param policy_type: The type string; taken from the settings class when it is one.
        :param target_scope: ALL (default: every endpoint) or ENDPOINT.
        :param target_endpoint: The endpoint's path, for ENDPOINT scope.
        :param target_endpoint_http_method: The endpoint's HTTP method, for ENDPOINT scope.
        :param order: The 1-based position in the pipeline, kept as declared (left out: appended).
        :param description: Free text.
        :param active: Whether it runs (default true).
        :param condition: ``{"condition_rule_list": [...]}``: when it runs.
        :param error_messages: Custom error messages (``errorMessageList`` items, snake_case).
        :param deploy_to: Environments each change is deployed to at once (default none: see
            docs/policies/ordering-and-deployment.md).
        :param adopt: Take over an existing policy of this name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        declared_type = getattr(type(settings), "policy_type", None)
        if declared_type is not None and policy_type is not None and policy_type != declared_type:
            raise TypeError(f"policy_type {policy_type!r} does not match the settings class "
                            f"{type(settings).__name__} ({declared_type!r})")
        policy_type = policy_type if policy_type is not None else declared_type
        if policy_type is None:
            raise TypeError("settings is a dict: give policy_type too, or use a settings class from "
                            "apinizer_pulumi.policies")
        props = resource_props(
            project_name=project_name, api_proxy_name=api_proxy_name, name=name, policy_type=policy_type,
            pipeline=pipeline, target_scope=target_scope, target_endpoint=target_endpoint,
            target_endpoint_http_method=target_endpoint_http_method, order=order, description=description,
            active=active, condition=condition, error_messages=error_messages, settings=None,
            deploy_to=deploy_to, adopt=adopt, position=None, revision=None,
        )
        if settings is not None:
            # A JWK, key, certificate or keystore given as its resource: checked, then its id or name.
            from ._policy_references import resolve_references

            where = (f"apinizer.policies.{type(settings).__name__}" if declared_type is not None
                     else f"Policy {resource_name!r} settings")
            settings = resolve_references(settings, where)
        props["settings"] = to_props(settings) if settings is not None else {}
        props[CONNECTION] = connection_props(connection)
        secrets = _secret_fields(settings, policy_type)
        if secrets:
            # Each secret field alone is a secret, so a diff shows the others in clear; the engine carries
            # the marks over to the outputs (_typed_settings). The revision is a digest of them too.
            props["settings"] = mark_secrets(props["settings"], secrets, pulumi.Output.secret) \
                if isinstance(props["settings"], Mapping) else pulumi.Output.secret(props["settings"])
        options = pulumi.ResourceOptions.merge(resource_options(opts), pulumi.ResourceOptions(
            additional_secret_outputs=["revision"] if secrets else []))
        super().__init__(PolicyProvider(), resource_name, props, options)
        from ._literal_names import named_proxies

        named_proxies(self, "Policy", resource_name, project_name, api_proxy_name, "api_proxy_name")


def _secret_fields(settings: Any, policy_type: Any) -> tuple[str, ...]:
    """The type's secret fields, from the generated settings classes (no models imported)."""
    fields = getattr(type(settings), "secret_fields", None)
    if fields is None and isinstance(policy_type, str):
        from ._policy_args import POLICY_ARGS

        fields = getattr(POLICY_ARGS.get(policy_type), "secret_fields", ())
    return tuple(fields or ())
