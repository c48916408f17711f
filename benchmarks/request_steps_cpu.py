"""The CPU of each step of a pooled request that the client does itself, beside what it replaced.

No server: each step runs on its own, in one process, the old way and the new way taking turns in
blocks, on a delete's request (``DELETE`` with its ``{name, httpMethod}`` body, the pooled client's
headers) and uvicorn's answer head, as the emulator sends it:

* building the request: ``httpx.Request`` with the merged default headers, and ``build_request``;
* writing its head: ``http.client``'s ``putrequest``/``putheader``/``endheaders``, and
  ``_keepalive._request_head``;
* reading the answer's head and body from a socket: ``http.client.HTTPResponse`` and
  ``_keepalive._Response``;
* reading the answer into an ``httpx.Response``: ``Response.read()`` and ``_read_whole``.

Prints the median microseconds per step of each, with the load::

    .venv/bin/python benchmarks/request_steps_cpu.py [--rounds 15] [--block 5000]
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import time
from collections.abc import Callable

import httpx
from httpx._client import BoundSyncStream

from apinizer_pulumi.client._keepalive import _request_head, _Response
from apinizer_pulumi.client._transport_pool import _read_whole, _timeout, build_request, lean_cookies

URL = httpx.URL("http://127.0.0.1:8080/apiops/projects/Demo/apiProxies/PetStore/endpoints/")
HEADERS = (("Accept", "application/json"), ("Content-Type", "application/json"))
BODY = b'{"name":"/pets/{id}","httpMethod":"GET"}'
ANSWER_HEAD = [(b"date", b"Fri, 27 Nov 2026 17:00:00 GMT"), (b"server", b"uvicorn"),
               (b"content-length", b"16"), (b"content-type", b"application/json")]
ANSWER = (b"HTTP/1.1 200 OK\r\n" + b"".join(name + b": " + value + b"\r\n" for name, value in ANSWER_HEAD)
          + b'\r\n{"success":true}')


class _Sink:
    def sendall(self, data: bytes) -> None:
        pass


def steps() -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    client = lean_cookies(httpx.Client(follow_redirects=False))
    merged = httpx.Headers(client.headers)
    merged.update(dict(HEADERS))
    request = build_request(client, "DELETE", URL, content=BODY, headers=HEADERS, timeout=30.0)
    request.headers["Authorization"] = "Bearer " + "t" * 40
    raw = request.headers.raw
    target = URL.raw_path.decode("ascii")
    connection = http.client.HTTPConnection("127.0.0.1", 8080)
    connection.sock = _Sink()  # type: ignore[assignment]
    ours, theirs = socket.socketpair()

    def write_with_http_client() -> None:
        connection.putrequest("DELETE", target, skip_host=True, skip_accept_encoding=True)
        for name, value in raw:
            connection.putheader(name.decode("latin-1"), value.decode("latin-1"))
        connection.endheaders(BODY)
        connection._HTTPConnection__state = "Idle"  # type: ignore[attr-defined]  # ready for the next

    def write_ours() -> None:
        head = _request_head(connection, "DELETE", target, raw)
        head.extend((b"", BODY))
        connection.sock.sendall(b"\r\n".join(head))  # type: ignore[union-attr]

    def read_with(response_class: type[http.client.HTTPResponse]) -> Callable[[], object]:
        def read() -> object:
            theirs.sendall(ANSWER)
            answer = response_class(ours, method="DELETE")
            answer.begin()
            content = answer.read()
            answer.close()
            return content
        return read

    def answered() -> httpx.Response:
        response = httpx.Response(200, headers=ANSWER_HEAD, stream=httpx.ByteStream(b'{"success":true}'),
                                  request=request)
        response.stream = BoundSyncStream(response.stream, response=response,  # type: ignore[arg-type]
                                          start=time.perf_counter())
        return response

    return {
        "build the request": (
            lambda: httpx.Request("DELETE", URL, content=BODY, headers=merged,
                                  extensions={"timeout": _timeout(30.0)}),
            lambda: build_request(client, "DELETE", URL, content=BODY, headers=HEADERS, timeout=30.0)),
        "write its head": (write_with_http_client, write_ours),
        "read the answer from the socket": (read_with(http.client.HTTPResponse), read_with(_Response)),
        "read it into the httpx.Response": (lambda: answered().read(),
                                            lambda: _read_whole(answered(), b'{"success":true}')),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--block", type=int, default=5000)
    args = parser.parse_args()
    spent: dict[tuple[str, int], list[float]] = {}
    measured = steps()
    for _ in range(args.rounds):
        for name, ways in measured.items():
            for way, step in enumerate(ways):
                before = time.process_time()
                for _ in range(args.block):
                    step()
                spent.setdefault((name, way), []).append((time.process_time() - before) / args.block * 1e6)
    print(f"CPU per step, median of {args.rounds} blocks of {args.block} (load {os.getloadavg()[0]:.1f}):")
    for name in measured:
        before, after = (statistics.median(spent[name, way]) for way in (0, 1))
        print(f"  {name:34} {before:5.1f} us before, {after:5.1f} us now")


if __name__ == "__main__":
    main()
