"""The emulator against a bare FastAPI app with the same uvicorn settings, loaded by wrk.

Each scenario runs ``wrk`` (Debian's package; ``scripts/bench.sh`` installs it when missing) with
32 connections for a few seconds against 127.0.0.1. Also: SQLite's ``synchronous`` NORMAL beside
FULL for creates, and the serialization of a 10k-endpoint list beside the per-row model path.
Run alone:

    .venv/bin/python benchmarks/emulator_bench.py [--seconds 5] [--connections 32]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from _common import AUTH, TOKEN, Row, emulator, endpoints_path, stop, table

from apinizer_emulator import endpoints
from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import load_fixture
from apinizer_emulator.models import endpoint_json, new_id
from apinizer_emulator.store import Store
from apinizer_emulator.testing import start_subprocess

HERE = Path(__file__).resolve().parent

#: Every request of a wrk thread creates a new endpoint: thread number and a counter name it.
CREATE_LUA = """
local made = 0
function setup(thread)
  made = made + 1
  thread:set("tid", made)
end
function init(args)
  counter = 0
  run = args[1] or "r"
end
function request()
  counter = counter + 1
  local body = '{"name":"/wrk/' .. run .. '/' .. tid .. '/' .. counter ..
    '","httpMethod":"GET","backendResourceUrl":"/b","backendHttpMethod":"GET"}'
  return wrk.format("POST", nil, {["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer @TOKEN@"}, body)
end
""".replace("@TOKEN@", TOKEN)
GET_LUA = """
wrk.headers["Authorization"] = "Bearer @TOKEN@"
""".replace("@TOKEN@", TOKEN)

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def wrk(url: str, script: str, seconds: float, connections: int, run: str) -> tuple[float, float]:
    """(requests per second, p99 latency in ms) of one wrk run; fails on any non-2xx answer."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script)
    # The disk's backlog from whatever ran before (the other benchmarks, an earlier load) is
    # written out first, so that neither side of a comparison pays for it.
    os.sync()
    done = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "--latency", "-s", lua.name,
         f"{url}{endpoints_path()}", "--", run],
        capture_output=True, text=True, check=True, timeout=seconds + 60,
    )
    Path(lua.name).unlink()
    out = done.stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError(f"wrk saw errors:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return rps, float(value) * _UNITS[unit]


def bare_app(body: bytes) -> tuple[subprocess.Popen[str], str]:
    with tempfile.NamedTemporaryFile("wb", delete=False) as file:
        file.write(body)
    proc = subprocess.Popen([sys.executable, str(HERE / "bare_app.py"), file.name], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        stop(proc)
        raise RuntimeError("the bare app did not start")
    return proc, f"http://127.0.0.1:{port}"


def http_rows(seconds: float, connections: int) -> list[Row]:
    rows: list[Row] = []
    with emulator() as url:
        body = httpx.get(f"{url}{endpoints_path()}", headers=AUTH).content
        emu_get = wrk(url, GET_LUA, seconds, connections, "get")
        emu_post = wrk(url, CREATE_LUA, seconds, connections, "normal")
    with emulator(synchronous="FULL") as url:
        full_post = wrk(url, CREATE_LUA, seconds, connections, "full")
    proc, bare = bare_app(body)
    try:
        bare_get = wrk(bare, GET_LUA, seconds, connections, "get")
        bare_post = wrk(bare, CREATE_LUA, seconds, connections, "bare")
    finally:
        stop(proc)
    rows.append(Row(f"emulator GET list, {connections} connections (wrk)", emu_get[0], bare_get[0], "req/s",
                    ">= 0.8x bare, p99 < 12 ms", f"p99 {emu_get[1]:.1f} ms (bare {bare_get[1]:.1f} ms)"))
    rows.append(Row(f"emulator POST create, {connections} connections, synchronous=NORMAL", emu_post[0],
                    bare_post[0], "req/s", ">= 0.6x bare, p99 < 20 ms",
                    f"p99 {emu_post[1]:.1f} ms (bare {bare_post[1]:.1f} ms)"))
    rows.append(Row(f"emulator POST create, {connections} connections, synchronous=FULL", full_post[0],
                    bare_post[0], "req/s", "(the alternative)", f"p99 {full_post[1]:.1f} ms"))
    return rows


def seed_big(database: Path, count: int, per_proxy: int = 100) -> None:
    """A database of the default fixture and ``count`` endpoints more, ``per_proxy`` in each new proxy."""
    backend = Backend(Store(database), load_fixture())
    with backend.store.write() as db:
        for start in range(0, count, per_proxy):
            proxy_id = new_id()
            db.execute(
                "INSERT INTO proxies (id, project, name, type, sharing_type, access_list) "
                "SELECT ?, project, ?, type, sharing_type, access_list FROM proxies "
                "WHERE project = 'Demo' AND name = 'PetStore'", (proxy_id, f"Big{start // per_proxy}"))
            db.executemany(
                "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
                " backend_resource_url, backend_http_method) VALUES (?, ?, ?, 'GET', ?, 1, '/b', 'GET')",
                [(new_id(), proxy_id, f"/big/{i}", f"endpoint {i}")
                 for i in range(start, min(count, start + per_proxy))],
            )
    backend.store.close()


def big_rows(seconds: float, connections: int, count: int) -> list[Row]:
    """The list and create rows again with ``count`` endpoints in the database, beside the bare app."""
    with tempfile.TemporaryDirectory(prefix="apinizer-big-") as tmp:
        database = Path(tmp) / "big.db"
        seed_big(database, count)
        proc, url = start_subprocess(db=database)
        try:
            body = httpx.get(f"{url}{endpoints_path()}", headers=AUTH).content
            emu_get = wrk(url, GET_LUA, seconds, connections, "get")
            emu_post = wrk(url, CREATE_LUA, seconds, connections, "big")
        finally:
            stop(proc)
    proc, bare = bare_app(body)
    try:
        bare_get = wrk(bare, GET_LUA, seconds, connections, "get")
        bare_post = wrk(bare, CREATE_LUA, seconds, connections, "bare")
    finally:
        stop(proc)
    return [
        Row(f"emulator GET list holding {count} endpoints, {connections} connections (wrk)", emu_get[0],
            bare_get[0], "req/s", ">= 0.8x bare, p99 < 12 ms",
            f"p99 {emu_get[1]:.1f} ms (bare {bare_get[1]:.1f} ms)"),
        Row(f"emulator POST create holding {count} endpoints, {connections} connections", emu_post[0],
            bare_post[0], "req/s", ">= 0.6x bare, p99 < 20 ms",
            f"p99 {emu_post[1]:.1f} ms (bare {bare_post[1]:.1f} ms)"),
    ]


def list_serialization(count: int) -> Row:
    """Serializing one proxy's ``count`` endpoints: SQLite's JSON beside a record, model and dict per row."""
    with tempfile.TemporaryDirectory() as tmp:
        backend = Backend(Store(Path(tmp) / "big.db"), load_fixture())
        with backend.store.write() as db:
            proxy_id = db.execute("SELECT id FROM proxies WHERE name = 'PetStore'").fetchone()["id"]
            db.executemany(
                "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
                " backend_resource_url, backend_http_method) VALUES (?, ?, ?, 'GET', ?, 1, '/b', 'GET')",
                [(new_id(), proxy_id, f"/big/{i}", f"endpoint {i}") for i in range(count)],
            )

        def timed(work: object) -> float:
            best = float("inf")
            for _ in range(3):
                started = time.perf_counter()
                work()  # type: ignore[operator]
                best = min(best, time.perf_counter() - started)
            return best

        def per_row() -> bytes:
            with backend.store.read() as db:
                items = endpoints.list_endpoints(db, "Demo", "PetStore")
            return json.dumps({"success": True, "resultList": [endpoint_json(e) for e in items],
                               "resultCount": len(items)}, separators=(",", ":")).encode()

        def by_sqlite() -> bytes:
            with backend.store.read(snapshot=False) as db:
                n, items = endpoints.list_endpoints_json(db, "Demo", "PetStore")
            return f'{{"success":true,"resultList":{items},"resultCount":{n}}}'.encode()

        assert json.loads(per_row()) == json.loads(by_sqlite())
        total = count + 3
        ours, baseline = timed(by_sqlite) / total * 1e6, timed(per_row) / total * 1e6
        backend.store.close()
    return Row(f"list of {count} endpoints: serialization per endpoint", ours, baseline, "us",
               "cut per-row overhead", "baseline: record + pydantic model + dict per row")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--gateway", type=int, default=0,
                        help="also the list and create with this many endpoints in the database (e.g. 50000)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk (scripts/bench.sh does it)")
    rows = [*http_rows(args.seconds, args.connections), list_serialization(args.big)]
    if args.gateway:
        rows += big_rows(args.seconds, args.connections, args.gateway)
    print(table(rows))


if __name__ == "__main__":
    main()
