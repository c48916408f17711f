"""The floor the emulator is measured against: a bare FastAPI app under the emulator's uvicorn settings.

``GET`` answers the bytes it was given (the emulator's own list answer, so both send the same
body); ``POST`` reads a JSON body and answers ``{"success":true}``. Nothing is authenticated,
validated or stored. Run by ``emulator_bench.py``:

    python benchmarks/bare_app.py BODY_FILE   (prints its port once it listens)
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from apinizer_emulator.server import ReadyServer, uvicorn_config

PATH = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"


def build(body: bytes) -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    async def listing() -> Response:
        return Response(body, media_type="application/json")

    async def create(request: Request) -> Response:
        json.loads(await request.body())
        return Response(b'{"success":true}', media_type="application/json")

    app.add_api_route(PATH, listing, methods=["GET"])
    app.add_api_route(PATH, create, methods=["POST"])
    return app


def main() -> None:
    server = ReadyServer(uvicorn_config(build(Path(sys.argv[1]).read_bytes()), "127.0.0.1", 0))

    def announce() -> None:
        server.ready.wait()
        print(server.port, flush=True)

    threading.Thread(target=announce, daemon=True).start()
    server.run()


if __name__ == "__main__":
    main()
