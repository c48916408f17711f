"""An API proxy created from an OpenAPI spec with N operations, then read back: the requests it
takes and the time the emulator needs for each.

Starts the emulator in-process on a temporary database file, uploads a generated spec through
``client.api_proxies.create_from_file`` (and again through ``create_from_url`` from a local HTTP
server), reads the proxy and its endpoints back, and prints the emulator's request counters and
the wall time of each request over loopback. Run:
``.venv/bin/python benchmarks/api_proxy_create.py [--operations 200] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import ApiProxyRequest


def spec(operations: int) -> bytes:
    methods = ("get", "post", "put", "delete")
    paths: dict[str, Any] = {}
    for i in range(operations):
        item = paths.setdefault(f"/resources{i // len(methods)}", {})
        item[methods[i % len(methods)]] = {
            "summary": f"operation {i}",
            "responses": {"200": {"description": "ok"}},
        }
    document = {"openapi": "3.0.3", "info": {"title": "bench", "version": "1"}, "paths": paths}
    return json.dumps(document).encode()


def timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def create_and_read(
    client: ApinizerClient,
    name: str,
    content: bytes,
    spec_url: str | None,
    operations: int,
    times: dict[str, list[float]],
) -> None:
    """Create one proxy (from the file, or from ``spec_url``) and read it and its endpoints back."""
    request = ApiProxyRequest(
        api_proxy_name=name,
        api_proxy_creation_type="OPEN_API",
        client_route={"relative_path_list": [f"/{name.lower()}"]},
        spec_url=spec_url,
    )
    if spec_url is None:
        times.setdefault("create_from_file", []).append(
            timed(lambda: client.api_proxies.create_from_file("Demo", request, content))
        )
    else:
        times.setdefault("create_from_url", []).append(
            timed(lambda: client.api_proxies.create_from_url("Demo", request))
        )
    times.setdefault("get", []).append(timed(lambda: client.api_proxies.get("Demo", name)))
    endpoints: list[Any] = []
    times.setdefault("endpoints", []).append(
        timed(lambda: endpoints.extend(client.endpoints.list("Demo", name)))
    )
    assert len(endpoints) == operations, len(endpoints)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--operations", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    content = spec(args.operations)

    class Serve(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, format: str, *args: object) -> None:
            pass

    specs = ThreadingHTTPServer(("127.0.0.1", 0), Serve)
    threading.Thread(target=specs.serve_forever, daemon=True).start()
    spec_url = f"http://127.0.0.1:{specs.server_address[1]}/spec.json"

    with tempfile.TemporaryDirectory() as tmp, EmulatorServer(db=Path(tmp) / "bench.db") as server:
        url = server.base_url
        times: dict[str, list[float]] = {}
        with ApinizerClient(url, token="dev-admin-token") as client:
            for round_ in range(args.rounds):
                httpx.post(f"{url}/_emulator/stats/reset", json={}).raise_for_status()
                for how in ("file", "url"):
                    create_and_read(
                        client,
                        f"Bench-{how}-{round_}",
                        content,
                        spec_url if how == "url" else None,
                        args.operations,
                        times,
                    )
                stats = httpx.get(f"{url}/_emulator/stats").json()
        size = len(content)
        print(f"spec: OpenAPI 3.0.3, {args.operations} operations, {size} bytes; {args.rounds} rounds")
        print(f"requests per round (both proxies, read back): {stats['total']}")
        for key, count in sorted(stats["requests"].items()):
            print(f"  {count:3d}  {key}")
        for key, values in times.items():
            print(f"{key:17s} median {statistics.median(values):7.1f} ms   min {min(values):7.1f} ms")
    specs.shutdown()


if __name__ == "__main__":
    main()
