"""Connection (the gateway's connections to Kafka, SMTP, LDAP ...) through the dynamic provider server
over gRPC, against a live emulator: check, create, update in place, replace on a type change,
refresh with drift and through one list per type, gone, adopt, lost answers, delete, and secrets.

Not the gateway ``connection`` input (tests/provider/test_connection.py tests that).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/index.md
"""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import ConnectionProvider
from apinizer_pulumi.resources.testing import (
    DIFF_NONE,
    DIFF_SOME,
    PROVIDER_KEY,
    Engine,
    ProviderServer,
    deserialize,
    serialize,
)

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

PASSWORD = "Smtp-App-Pa55word"
SERIALIZER = "org.apache.kafka.common.serialization.StringSerializer"
KAFKA_SETTINGS: dict[str, Any] = {
    "topic_name": "audit",
    "properties_map": {
        "bootstrap.servers": {"value": "kafka:9092", "value_type": "STRING"},
        "key.serializer": {"value": SERIALIZER, "value_type": "STRING"},
        "value.serializer": {"value": SERIALIZER, "value_type": "STRING"},
    },
}
KAFKA: dict[str, Any] = {"project_name": "Demo", "name": "audit-log", "connection_type": "kafka",
                         "settings": KAFKA_SETTINGS}
EMAIL: dict[str, Any] = {
    "project_name": "Demo", "name": "mailer", "connection_type": "email", "description": "alerts",
    "settings": {"host": "smtp.example.com", "auth": True, "username": "alerts@example.com",
                 "password": PASSWORD, "from_": "noreply@example.com"},
}
CONNECTIONS = "/apiops/projects/{projectName}/connections/"
ONE = f"{CONNECTIONS}{{connectionName}}/"
CREATE, UPDATE, DELETE, GET = f"POST {ONE}", f"PUT {ONE}", f"DELETE {ONE}", f"GET {ONE}"
LIST = f"GET {CONNECTIONS}"


@pytest.fixture
def links(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, ConnectionProvider(), "Connection")


def stored(gateway: Gateway, project: str = "Demo") -> list[dict[str, Any]]:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    return [item for proj in state["projects"] if proj["name"] == project for item in proj["connections"]]


def fault(gateway: Gateway, **rule: Any) -> None:
    if "status" in rule:
        rule.setdefault("retry_after", 0.01)
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def plain_settings(outs: dict[str, Any]) -> dict[str, Any]:
    settings: dict[str, Any] = rpc.unwrap_rpc_secret(outs["settings"])
    return settings


# -- what the engine keeps: the SDK's deserializer (Engine's) moves a nested secret mark up to its
# -- top-level property; the engine keeps each mark where the provider put it ----------------------


def as_kept(struct: struct_pb2.Struct) -> dict[str, Any]:
    """An answer's properties with every secret mark where the provider put it."""
    kept: dict[str, Any] = json_format.MessageToDict(struct)
    kept.pop(PROVIDER_KEY, None)
    return kept


def secret_paths(value: Any, where: tuple[str, ...] = ()) -> set[str]:
    """The dotted paths of the secret marks in ``value``."""
    if rpc.is_rpc_secret(value):
        return {".".join(where)}
    if isinstance(value, dict):
        return {path for key, item in value.items() for path in secret_paths(item, (*where, key))}
    if isinstance(value, list):
        return {path for index, item in enumerate(value) for path in secret_paths(item, (*where, str(index)))}
    return set()


def in_clear(value: Any) -> str:
    """``value`` as text with every secret mark's content left out: what a diff or a log would show."""
    if rpc.is_rpc_secret(value):
        return '"[secret]"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {in_clear(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(in_clear(item) for item in value) + "]"
    return json.dumps(value)


def checked_as_kept(links: Engine, news: dict[str, Any]) -> struct_pb2.Struct:
    """Check's inputs as the engine keeps them (the provider key included, for the next call)."""
    response = links.stub.Check(provider_pb2.CheckRequest(
        urn=links.urn("r"), olds=serialize({PROVIDER_KEY: links.blob}),
        news=serialize({**news, PROVIDER_KEY: links.blob})))
    assert list(response.failures) == []
    inputs: struct_pb2.Struct = response.inputs
    return inputs


def test_create_makes_the_connection_with_the_types_defaults(links: Engine, gateway: Gateway,
                                                             client: ApinizerClient) -> None:
    gateway.reset_stats()
    id_, outs = links.up(KAFKA)
    assert id_ == "Demo/audit-log"
    assert gateway.stats()["requests"] == {CREATE: 1}
    live = client.connections.get("Demo", "audit-log")
    assert (live.type, live.enabled, live.deploy_to_worker) == ("kafka", True, True)
    assert live.topic_name == "audit"  # type: ignore[union-attr]
    # Kafka has no secret field: its settings are plain, with the type's defaults filled in.
    assert not rpc.is_rpc_secret(outs["settings"])
    assert outs["settings"]["enable_secure"] is False and outs["connection_type"] == "kafka"
    assert links.diff(id_, outs, links.checked(KAFKA)).changes == DIFF_NONE


def test_check_names_each_bad_field_under_settings(links: Engine) -> None:
    failures = links.check({**KAFKA, "enabled": "maybe", "settings": {
        **KAFKA_SETTINGS, "topic_name": "", "protocol_typez": ["TLS_1_2"]}}).failures
    assert set(failures) == {"enabled", "settings.topic_name", "settings.protocol_typez"}
    assert failures["settings.protocol_typez"] == "unknown property"
    # A rule of the type across fields (the page's Note) is named by its field as well.
    failures = links.check({**KAFKA, "settings": {**KAFKA_SETTINGS, "enable_secure": True}}).failures
    assert set(failures) == {"settings.protocol_types", "settings.key_store_name"}


def test_check_refuses_an_unknown_type_and_a_common_field_in_settings(links: Engine) -> None:
    failures = links.check({**KAFKA, "connection_type": "carrier-pigeon"}).failures
    assert list(failures) == ["connection_type"] and "known types: activeMq" in failures["connection_type"]
    failures = links.check({**KAFKA, "settings": {**KAFKA_SETTINGS, "enabled": False}}).failures
    assert list(failures) == ["settings.enabled"] and "own input 'enabled'" in failures["settings.enabled"]


def test_a_plain_dict_with_its_type_is_taken_like_the_class(links: Engine) -> None:
    inputs = links.checked({**KAFKA, "settings": {"type": "kafka", **KAFKA_SETTINGS}})
    assert "type" not in inputs["settings"]
    failures = links.check({**KAFKA, "settings": {"type": "email", **KAFKA_SETTINGS}}).failures
    assert "settings.type" in failures


def test_a_bad_secret_field_is_named_but_its_value_never_shown(links: Engine) -> None:
    # syslog's hostname is a secret field whose name says nothing of it.
    secret_host = "very-secret-host-name"
    result = links.check({"project_name": "Demo", "name": "sys", "connection_type": "syslog",
                          "settings": {"syslog_message_hostname": secret_host, "port": "x"}})
    assert result.failures and secret_host not in json.dumps(result.failures)
    failures = links.check({**EMAIL, "settings": {**EMAIL["settings"], "port": -1}}).failures
    assert "settings.port" in failures and PASSWORD not in json.dumps(failures)


def test_a_preview_with_settings_not_known_yet_is_not_rejected(links: Engine) -> None:
    pending = {**EMAIL, "settings": {**EMAIL["settings"], "host": rpc.UNKNOWN}}
    result = links.check(pending)
    assert result.failures == {}
    pending_all = {**EMAIL, "settings": rpc.UNKNOWN, "description": rpc.UNKNOWN}
    assert links.check(pending_all).failures == {}


def test_secret_settings_are_secret_in_inputs_outputs_and_refresh(links: Engine, gateway: Gateway) -> None:
    checked = links.check({**EMAIL, "settings": rpc.wrap_rpc_secret(EMAIL["settings"])})
    assert checked.failures == {} and rpc.is_rpc_secret(checked.inputs["settings"])
    id_, outs = links.create(checked.inputs)
    assert rpc.is_rpc_secret(outs["settings"])
    others = {key: value for key, value in outs.items() if key != "settings"}
    assert PASSWORD not in json.dumps(others)
    assert PASSWORD not in json.dumps(stored(gateway))  # the state page masks it as the list does
    # The list masks the password: refresh keeps the declared one and reports no drift.
    _, read_outs, read_inputs = links.read(id_, outs)
    assert read_inputs is None
    assert rpc.is_rpc_secret(read_outs["settings"]) and plain_settings(read_outs)["password"] == PASSWORD


def test_only_the_secret_fields_are_secret_and_drift_of_another_shows_in_clear(
    links: Engine, client: ApinizerClient
) -> None:
    # The engine sends a dynamic provider plain values (it accepts no secrets) and keeps the marks it
    # gets back where they are: on the password only, so `refresh --diff` shows the host in clear.
    assert secret_paths(as_kept(checked_as_kept(links, EMAIL))) == {"settings.password"}
    created = links.create_future(links.checked(EMAIL), "r").result()
    outs = as_kept(created.properties)
    assert secret_paths(outs) == {"settings.password"}
    assert outs["settings"]["host"] == "smtp.example.com" and PASSWORD not in in_clear(outs)
    live = client.connections.get("Demo", "mailer")
    client.connections.update("Demo", live.model_copy(update={"host": "smtp.console-edit.example.com"}))
    read = links.read_future(created.id, deserialize(created.properties)).result()
    assert read.HasField("inputs"), "the drift was not seen"
    for drifted in (as_kept(read.properties), as_kept(read.inputs)):
        assert secret_paths(drifted) == {"settings.password"}
        assert drifted["settings"]["host"] == "smtp.console-edit.example.com"
        assert PASSWORD not in in_clear(drifted)


def test_a_list_holding_a_secret_is_secret_whole_as_the_engine_keeps_it(links: Engine) -> None:
    # The engine marks an output list secret whole when its input held a secret anywhere
    # (annotateSecrets): the provider marks the same, so inputs and outputs agree.
    hook = {"project_name": "Demo", "name": "hook", "connection_type": "webhook",
            "settings": {"full_url": "https://hooks.example.com/x",
                         "header_list": [{"name": "X-Token", "value": PASSWORD}]}}
    for answer in (as_kept(checked_as_kept(links, hook)),
                   as_kept(links.create_future(links.checked(hook), "r").result().properties)):
        assert secret_paths(answer) == {"settings.header_list"}
        assert answer["settings"]["full_url"] == "https://hooks.example.com/x"
        assert PASSWORD not in in_clear(answer)


def test_fields_change_in_place_with_one_update(links: Engine, gateway: Gateway,
                                                client: ApinizerClient) -> None:
    id_, outs = links.up(EMAIL)
    news = links.checked({**EMAIL, "enabled": False, "settings": {**EMAIL["settings"], "port": 465,
                                                                  "password": "Rotated-Pa55"}})
    diff = links.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    outs = links.update(id_, outs, news)
    assert gateway.stats()["requests"] == {UPDATE: 1}
    live = client.connections.get("Demo", "mailer")
    assert (live.enabled, live.port, live.password) == (False, 465, "Rotated-Pa55")  # type: ignore[union-attr]
    assert rpc.is_rpc_secret(outs["settings"])


def test_a_type_change_replaces_deleting_first_and_a_rename_creates_first(links: Engine) -> None:
    id_, outs = links.up(KAFKA)
    diff = links.diff(id_, outs, links.checked({**EMAIL, "name": "audit-log"}))
    assert "connection_type" in diff.replaces and diff.deleteBeforeReplace
    diff = links.diff(id_, outs, links.checked({**KAFKA, "name": "audit-log-2"}))
    assert list(diff.replaces) == ["name"] and not diff.deleteBeforeReplace


def test_refresh_shows_drift_and_update_repairs_it(links: Engine, gateway: Gateway,
                                                   client: ApinizerClient) -> None:
    id_, outs = links.up(EMAIL)
    live = client.connections.get("Demo", "mailer")
    client.connections.update("Demo", live.model_copy(update={"port": 2525, "enabled": False}))
    gateway.reset_stats()
    read_id, read_outs, read_inputs = links.read(id_, outs)
    assert gateway.stats()["requests"] == {LIST: 1}
    assert read_id == id_ and read_outs["enabled"] is False
    assert plain_settings(read_outs)["port"] == 2525
    assert plain_settings(read_outs)["password"] == PASSWORD  # masked by the list: the declared one
    assert read_inputs is not None and rpc.is_rpc_secret(read_inputs["settings"])
    news = links.checked(EMAIL)
    assert links.diff(id_, read_outs, news).changes == DIFF_SOME
    links.update(id_, read_outs, news)
    repaired = client.connections.get("Demo", "mailer")
    assert (repaired.port, repaired.enabled) == (587, True)  # type: ignore[union-attr]


def test_refresh_reads_one_list_per_type(links: Engine, gateway: Gateway, emulator_url: str) -> None:
    made = [links.up({**KAFKA, "name": f"k{n}"}, name=f"k{n}") for n in range(4)]
    made += [links.up({**EMAIL, "name": f"m{n}"}, name=f"m{n}") for n in range(3)]
    gateway.reset_stats()
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_READ_CACHE_TTL": "600",
                                     "APINIZER_SKIP_CONNECTION_CHECK": "1"}) as refreshing:
        engine = links.on(refreshing)
        futures = [engine.read_future(id_, outs, name=f"r{n}") for n, (id_, outs) in enumerate(made)]
        assert all(future.result().id for future in futures)
    assert gateway.stats()["requests"] == {LIST: 2}


def test_a_connection_deleted_outside_is_dropped_by_refresh(links: Engine, client: ApinizerClient) -> None:
    id_, outs = links.up(KAFKA)
    client.connections.delete("Demo", "audit-log")
    read_id, read_outs, _ = links.read(id_, outs)
    assert read_id == "" and read_outs == {}
    links.delete(id_, outs)  # gone already: nothing to do, no error


def test_an_existing_connection_needs_adopt(links: Engine, gateway: Gateway, client: ApinizerClient) -> None:
    client.connections.create("Demo", {"type": "email", "name": "mailer", "host": "old.example.com"})
    with pytest.raises(grpc.RpcError) as info:
        links.up(EMAIL)
    details = str(info.value.details())
    assert "already exists" in details and "adopt=True" in details and PASSWORD not in details
    assert client.connections.get("Demo", "mailer").host == "old.example.com"  # type: ignore[union-attr]
    gateway.reset_stats()
    id_, _ = links.up({**EMAIL, "adopt": True})
    assert id_ == "Demo/mailer" and gateway.stats()["requests"] == {CREATE: 1, UPDATE: 1}
    live = client.connections.get("Demo", "mailer")
    assert (live.host, live.password) == ("smtp.example.com", PASSWORD)  # type: ignore[union-attr]


def test_adopting_a_connection_of_another_type_fails_clearly(links: Engine, client: ApinizerClient) -> None:
    client.connections.create("Demo", {"type": "kafka", "name": "mailer", **{
        "topicName": "t", "propertiesMap": {k: {"value": "v", "valueType": "STRING"} for k in (
            "bootstrap.servers", "key.serializer", "value.serializer")}}})
    with pytest.raises(grpc.RpcError) as info:
        links.up({**EMAIL, "adopt": True})
    details = str(info.value.details())
    assert "apinizer:Connection mailer in Demo" in details and "type" in details and PASSWORD not in details
    assert client.connections.get("Demo", "mailer").type == "kafka"


@pytest.mark.parametrize(
    "lost",
    [{"drop": True, "after": True}, {"status": 504, "after": True}, {"status": 503, "after": True}],
    ids=["connection dropped after the create", "504 after the create", "503 after the create"],
)
def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    links: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/connections/", count=1, **lost)
    id_, _ = links.up(EMAIL)
    assert id_ == "Demo/mailer" and len(stored(gateway)) == 1
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 1, "the create was sent again"
    assert requests[GET] >= 1  # the look-up that found it


def test_a_create_that_never_arrived_is_sent_again_after_looking(links: Engine, gateway: Gateway) -> None:
    fault(gateway, method="POST", path="/connections/", count=1, drop=True)
    links.up(KAFKA)
    assert len(stored(gateway)) == 1
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 2 and requests[GET] == 1


def test_someone_elses_connection_found_after_a_lost_answer_is_not_taken(
    links: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    client.connections.create("Demo", {"type": "email", "name": "mailer", "host": "theirs.example.com"})
    fault(gateway, method="POST", path="/connections/", count=1, drop=True)
    with pytest.raises(grpc.RpcError) as info:
        links.up(EMAIL)
    assert "adopt=True" in str(info.value.details())
    assert client.connections.get("Demo", "mailer").host == "theirs.example.com"  # type: ignore[union-attr]


def test_delete_removes_the_connection(links: Engine, gateway: Gateway) -> None:
    id_, outs = links.up({**KAFKA, "name": "leaver"})
    gateway.reset_stats()
    links.delete(id_, outs)
    assert stored(gateway) == []
    assert gateway.stats()["requests"] == {DELETE: 1}


def test_a_refused_write_names_the_resource_and_no_secret(links: Engine, gateway: Gateway) -> None:
    fault(gateway, method="POST", path="/connections/", count=1, status=400, error="bad_request",
          error_description="Connection host can not be reached!")
    with pytest.raises(grpc.RpcError) as info:
        links.up(EMAIL)
    details = str(info.value.details())
    assert "apinizer:Connection mailer in Demo" in details and "can not be reached" in details
    assert PASSWORD not in details


# -- every type with secret fields: secret in the inputs, outputs and refresh, masked on the gateway's
# -- state page, and no drift from the list's masking --------------------------------------------


def documented(connection_type: str) -> dict[str, Any]:
    """The resource's inputs from the first example of the type's page that its model takes."""
    from _documented_connections import TYPE_PAGES_DIR, connection_bodies
    from apinizer_pulumi.models import parse_connection
    from apinizer_pulumi.resources.connection import settings_of

    for page, _, body in connection_bodies():
        if not page.startswith(TYPE_PAGES_DIR):
            continue
        try:
            model = parse_connection(body)
        except ValueError:
            continue
        if model.type == connection_type:
            return {"project_name": "Demo", "name": f"documented-{connection_type}",
                    "connection_type": connection_type, "settings": settings_of(model),
                    "enabled": model.enabled, "deploy_to_worker": model.deploy_to_worker}
    raise AssertionError(f"no documented example of {connection_type} validates")


def secret_values(settings: Any, path: list[str]) -> list[str]:
    if isinstance(settings, list):
        return [found for item in settings for found in secret_values(item, path)]
    if not isinstance(settings, dict) or path[0] not in settings:
        return []
    value = settings[path[0]]
    if len(path) > 1:
        return secret_values(value, path[1:])
    return [value] if isinstance(value, str) and value else []


def _secret_types() -> list[str]:
    from apinizer_pulumi.models import CONNECTION_TYPES

    return sorted(name for name, model in CONNECTION_TYPES.items() if model.secret_fields())


@pytest.mark.parametrize("connection_type", _secret_types())
def test_every_types_secret_fields_stay_secret(connection_type: str, links: Engine, gateway: Gateway) -> None:
    from apinizer_pulumi.models import CONNECTION_TYPES

    declared = documented(connection_type)
    for path in CONNECTION_TYPES[connection_type].secret_fields():
        # The example leaves a secret field out (the ActiveMQ page sets no password): one is given.
        if "." not in path and path not in declared["settings"]:
            declared["settings"][path] = f"S3cret-{path}"
    secrets = [value for path in CONNECTION_TYPES[connection_type].secret_fields()
               for value in secret_values(declared["settings"], path.split("."))]
    assert secrets, f"the documented {connection_type} example sets no secret field"
    checked = links.check({**declared, "settings": rpc.wrap_rpc_secret(declared["settings"])})
    assert checked.failures == {} and rpc.is_rpc_secret(checked.inputs["settings"])
    created = links.create_future(checked.inputs, "r").result()
    id_, outs = created.id, deserialize(created.properties)
    assert rpc.is_rpc_secret(outs["settings"])
    assert not [value for value in secrets if value in json.dumps(stored(gateway))]
    read = links.read_future(id_, outs).result()
    assert not read.HasField("inputs"), "the list's masked secrets showed as drift"
    # As the engine keeps them: each secret field marked, the rest of the settings in clear.
    for answer in (as_kept(checked_as_kept(links, declared)), as_kept(created.properties),
                   as_kept(read.properties)):
        assert not rpc.is_rpc_secret(answer["settings"]), "the whole settings are marked secret"
        assert secret_paths(answer) and all(path.startswith("settings.") for path in secret_paths(answer))
        assert not [value for value in secrets if value in in_clear(answer)]


# -- get_connections and get_connection: called from the program's process ------------------------


def test_get_connections_lists_one_type_or_all_with_no_secret(
    emulator_url: str, client: ApinizerClient, gateway: Gateway
) -> None:
    import apinizer_pulumi as apinizer
    from apinizer_pulumi.client import InvalidArgumentError, NotFoundError
    from apinizer_pulumi.resources._connection import close_clients

    client.connections.create("Demo", {"type": "email", "name": "mailer", "host": "smtp.example.com",
                                       "auth": True, "username": "u", "password": PASSWORD})
    client.connections.create("Demo", {"type": "webhook", "name": "hook", "fullUrl": "https://hooks.example.com/x",
                                       "headerList": [{"name": "X-Token", "value": PASSWORD}]})
    connection = apinizer.ConnectionArgs(url=emulator_url, token=ADMIN_TOKEN)
    gateway.reset_stats()
    try:
        emails = apinizer.get_connections("Demo", "email", connection=connection)
        assert [(c.name, c.type) for c in emails] == [("mailer", "email")]
        assert gateway.stats()["requests"] == {LIST: 1}
        every = apinizer.get_connections("Demo", connection=connection)
        assert sorted(c.name for c in every) == ["hook", "mailer"]
        assert gateway.stats()["requests"] == {LIST: 15}  # one per type
        one = apinizer.get_connection("Demo", "HOOK", connection=connection)  # names ignore case
        assert one.type == "webhook" and one.header_list[0].name == "X-Token"  # type: ignore[union-attr]
        found = [*every, one, apinizer.get_connection("Demo", "mailer", connection=connection)]
        assert PASSWORD not in repr(found) + json.dumps([c.model_dump(mode="json") for c in found])
        with pytest.raises(InvalidArgumentError):
            apinizer.get_connections("Demo", "pigeon", connection=connection)
        with pytest.raises(NotFoundError):
            apinizer.get_connection("Demo", "nowhere", connection=connection)
        with pytest.raises(NotFoundError):
            apinizer.get_connections("Nowhere", "email", connection=connection)
    finally:
        close_clients()


def test_check_names_an_unknown_field_inside_a_map_value(links: Engine) -> None:
    properties = {**KAFKA_SETTINGS["properties_map"],
                  "bootstrap.servers": {"value": "kafka:9092", "type": "STRING"}}
    failures = links.check({**KAFKA, "settings": {**KAFKA_SETTINGS, "properties_map": properties}}).failures
    assert failures == {"settings.properties_map.bootstrap.servers.type": "unknown property"}


def test_a_read_from_the_id_alone_finds_the_type_and_keeps_secrets_secret(
    links: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    # `pulumi import apinizer:Connection mailer Demo/mailer`: no recorded type, so one get.
    client.connections.create("Demo", {"type": "email", "name": "mailer", "host": "smtp.example.com",
                                       "auth": True, "username": "u", "password": PASSWORD})
    gateway.reset_stats()
    read_id, outs, inputs = links.read("Demo/mailer", {})
    assert read_id == "Demo/mailer" and gateway.stats()["requests"] == {GET: 1}
    assert outs["connection_type"] == "email" and rpc.is_rpc_secret(outs["settings"])
    assert inputs is not None and rpc.is_rpc_secret(inputs["settings"])
    assert plain_settings(outs)["password"] == PASSWORD
    assert links.read("Demo/nowhere", {})[0] == ""
