"""Connections (Kafka, SMTP, LDAP ...) through the provider: gateway requests of the preview, up,
refresh and destroy of N connections spread over five types, and of one in-place change.

Drives ``ConnectionProvider`` through the SDK's dynamic provider server over gRPC as the engine does,
against an emulator subprocess, and counts requests with the emulator's ``GET /_emulator/stats``. Each
operation runs in a provider process of its own (as the CLI gives each), with every call of a kind
sent at once; the preview's connection check is skipped (it is one request per process whatever the
resources: docs/resources/index.md). Run alone:

    .venv/bin/python benchmarks/connection_requests.py [--connections 50]
"""

from __future__ import annotations

from typing import Any

from _common import TOKEN, Row, counts_main, destroy_all, emulator, provider_process, refresh_all, stats

from apinizer_pulumi.resources import ConnectionProvider

LIST = "GET /apiops/projects/{projectName}/connections/"
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}
_SERIALIZER = {"value": "org.apache.kafka.common.serialization.StringSerializer", "value_type": "STRING"}
#: One declaration per type: what each connection of the benchmark is, by its index modulo five.
SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("kafka", {"topic_name": "audit", "properties_map": {
        "bootstrap.servers": {"value": "kafka:9092", "value_type": "STRING"},
        "key.serializer": _SERIALIZER, "value.serializer": _SERIALIZER}}),
    ("email", {"host": "smtp.example.com", "auth": True, "username": "alerts", "password": "bench-Pa55"}),
    ("webhook", {"full_url": "https://hooks.example.com/x",
                 "header_list": [{"name": "X-Token", "value": "bench-token"}]}),
    ("ldap", {"server_address": "ldap://ldap.example.com:389", "username": "cn=admin",
              "password": "bench-Pa55", "base_dn": "dc=example,dc=com"}),
    ("graylog", {"hostname": "graylog.example.com"}),
]


def declared(index: int, description: str = "bench") -> dict[str, Any]:
    connection_type, settings = SETTINGS[index % len(SETTINGS)]
    return {"project_name": "Demo", "name": f"bench{index}", "connection_type": connection_type,
            "description": description, "settings": settings}


def counts(connections: int) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    types = min(connections, len(SETTINGS))
    with emulator() as url:
        config["apinizer:url"] = url
        names = [f"c{index}" for index in range(connections)]
        with provider_process(config, ConnectionProvider(), "Connection", SKIP_CHECK) as engine:
            stats(url)
            inputs = [engine.checked(declared(index)) for index in range(connections)]
            previewed = stats(url)
            futures = [engine.create_future(item, name) for item, name in zip(inputs, names, strict=True)]
            made = [(future.result().id, engine_outputs(future.result())) for future in futures]
            created = stats(url)
        with provider_process(config, ConnectionProvider(), "Connection", SKIP_CHECK) as engine:
            for index, (id_, outs) in enumerate(made):
                engine.diff(id_, outs, engine.checked(declared(index)), name=names[index])
            unchanged = stats(url)
        with provider_process(config, ConnectionProvider(), "Connection", SKIP_CHECK) as engine:
            refresh_all(engine, made, names.__getitem__)
            refreshed = stats(url)
        with provider_process(config, ConnectionProvider(), "Connection", SKIP_CHECK) as engine:
            id_, outs = made[0]
            engine.update(id_, outs, engine.checked(declared(0, "changed")), name=names[0])
            changed = stats(url)
            destroy_all(engine, made, names.__getitem__)
            deleted = stats(url)
    return [
        Row(f"preview of N={connections} new connections of {types} types (requests)", previewed["total"], 0,
            "req", "= 0 (check is offline)", str(dict(previewed["requests"]))),
        Row(f"up: create of the {connections} connections, sent at once (requests)", created["total"],
            connections, "req", "= N (one create each)", str(dict(created["requests"]))),
        Row(f"preview of the unchanged {connections} (check and diff; requests)", unchanged["total"], 0,
            "req", "= 0", str(dict(unchanged["requests"]))),
        Row(f"refresh of the {connections}, every Read at once (requests)", refreshed["total"], types,
            "req", "= T (one list per type)", f"lists {refreshed['requests'].get(LIST, 0)}"),
        Row("an in-place change of one (requests)", changed["total"], 1, "req", "= 1 (update)",
            str(dict(changed["requests"]))),
        Row(f"destroy of the {connections} (requests)", deleted["total"], connections, "req", "= N",
            str(dict(deleted["requests"]))),
    ]


def engine_outputs(response: Any) -> dict[str, Any]:
    from apinizer_pulumi.resources.testing import deserialize

    return deserialize(response.properties)


def main() -> None:
    counts_main(__doc__, "connections", 50, counts)


if __name__ == "__main__":
    main()
