"""The floor's provider plus the cheapest request a Python provider can send for each create and delete.

Each create and delete sends one HTTP/1.1 request with the standard library's ``http.client``, on a
kept-alive connection of the calling thread, to the server named by ``WIRE_URL``
(``_answering_server``: it answers every request with ``200 {}`` and does nothing else). What this
costs beside the floor is what one request per resource costs on this machine at the least, whatever
the client and the gateway: ``request_floor.py`` measures it. Like ours, its first check or write lets
the SDK's provider server run as many calls at once as the engine sends
(``apinizer_pulumi.resources._server``), so that its requests wait side by side, not four at a time.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
from typing import Any
from urllib.parse import urlsplit

import pulumi.dynamic as dyn

from apinizer_pulumi.resources._server import widen_provider_server

_local = threading.local()


def _send(method: str, path: str, body: bytes | None = None) -> None:
    connection: http.client.HTTPConnection | None = getattr(_local, "connection", None)
    kept = connection is not None
    if connection is None:
        address = urlsplit(os.environ["WIRE_URL"])
        connection = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port)
        _local.connection = connection
    headers = {"Content-Type": "application/json"} if body is not None else {}
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
    except (http.client.RemoteDisconnected, ConnectionError):
        if not kept:
            raise
        # A kept-alive connection the server closed while idle (server_delete_cpu.py's pauses): once more.
        connection.close()
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
    answer.read()
    if answer.status != 200:
        raise RuntimeError(f"{method} {path}: {answer.status}")


class WireProvider(dyn.ResourceProvider):
    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        widen_provider_server()
        return dyn.CheckResult(news, [])

    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        widen_provider_server()
        _send("POST", f"/{props['api_proxy_name']}/endpoints/", json.dumps({"name": props["name"]}).encode())
        return dyn.CreateResult(f"wire/{props['name']}", dict(props))

    def delete(self, id_: str, _props: dict[str, Any]) -> None:
        widen_provider_server()
        _send("DELETE", f"/endpoints/{id_}")
