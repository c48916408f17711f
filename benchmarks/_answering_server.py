"""An HTTP/1.1 server that answers every request with ``200 {}`` and does nothing else.

``python _answering_server.py`` is the cheapest gateway a benchmark can talk to in Python (asyncio,
no framework, no store); ``python _answering_server.py uvicorn`` is a bare ASGI app under the
emulator's uvicorn settings, and ``python _answering_server.py fastapi`` a bare FastAPI app under
them, that answer the same (both read the request's body, as a gateway must).
Either prints ``http://127.0.0.1:PORT`` once it listens, and serves until it is terminated. Both keep
connections alive.
"""

from __future__ import annotations

import asyncio
import sys
import threading

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from apinizer_emulator.server import ReadyServer, uvicorn_config

ANSWER = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"


class Answering(asyncio.Protocol):
    def __init__(self) -> None:
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            length = 0
            for line in self.buffer[:end].split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length:]
            assert self.transport is not None
            self.transport.write(ANSWER)


async def main() -> None:
    server = await asyncio.get_running_loop().create_server(Answering, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"http://127.0.0.1:{port}", flush=True)
    async with server:
        await server.serve_forever()


async def bare_asgi(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"{}"})


def bare_fastapi() -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    async def answer(request: Request) -> Response:
        await request.body()
        return Response(b"{}", media_type="application/json")

    app.add_api_route("/{rest:path}", answer, methods=["POST", "DELETE"])
    return app


def serve(app: ASGIApp) -> None:
    server = ReadyServer(uvicorn_config(app, "127.0.0.1", 0))

    def announce() -> None:
        server.ready.wait()
        print(f"http://127.0.0.1:{server.port}", flush=True)

    threading.Thread(target=announce, daemon=True).start()
    server.run()


if __name__ == "__main__":
    if sys.argv[1:] == ["fastapi"]:
        serve(bare_fastapi())
    elif sys.argv[1:] == ["uvicorn"]:
        serve(bare_asgi)
    else:
        asyncio.run(main())
