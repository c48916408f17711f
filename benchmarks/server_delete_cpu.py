"""The provider process's CPU per Delete, through the SDK's provider server, two versions side by side.

``delete_cpu.py`` and ``wire_cpu_ab.py`` call ``EndpointProvider.delete`` in-process: they leave out
what the provider process does for each of the engine's Delete calls before and after ours (gRPC's
server, the SDK's ``rpc.deserialize_properties`` of the recorded outputs, its look-up of the
``__provider`` value). Here the engine's part is played as ``pulumi destroy`` plays it: a
``python -m pulumi.dynamic`` server per side (this worktree's package, and ``--base``: a copy of
another commit's ``provider/`` folder, e.g. ``git archive main provider | tar -x -C /tmp/base``),
configured, then sent Deletes of an ``Endpoint``'s recorded outputs with ``--parallel`` in flight.
The endpoints of each block are made beforehand through the client, outside both servers. With
``--bare``, a third server runs the bare side of ``request_floor.py`` (``_wire_provider``: one
``http.client`` request per delete to a bare FastAPI app that answers ``200 {}``). The sides
take turns block by block, so that whatever else runs on the machine falls on both alike; the CPU is
each server process's own. Prints the median per Delete of each side and their ratio::

    .venv/bin/python benchmarks/server_delete_cpu.py --base /tmp/base/provider [--blocks 10] [--block 400]
    .venv/bin/python benchmarks/server_delete_cpu.py --bare [--base /tmp/base/provider]
    .venv/bin/python benchmarks/server_delete_cpu.py --blocks 4 --profile /tmp/deletes.txt   # ours alone

``--profile FILE`` records this worktree's server with py-spy (``pip install py-spy``) over the
blocks and writes its collapsed stacks (``--format raw``) there.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from _common import Row, cpu_seconds, emulator_process, table
from _wire_provider import WireProvider
from pulumi.runtime.proto import provider_pb2
from request_floor import answering_server

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.endpoint import EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

HERE = Path(__file__).resolve().parent
#: The other sides, as the table names them.
SHOWN = {"base": "--base", "bare": "the bare FastAPI side of request_floor.py"}
INPUTS = {"project_name": "Demo", "api_proxy_name": "PetStore", "name": "/server-delete-template",
          "http_method": "GET", "backend_resource_url": "/b", "backend_http_method": "GET"}


def delete_all(engine: Engine, requests: list[Any], parallel: int) -> None:
    """Each Delete, at most ``parallel`` in flight, as the engine sends them; each must succeed."""
    slots = threading.Semaphore(parallel)
    futures = []
    for request in requests:
        slots.acquire()
        future = engine.stub.Delete.future(request)
        future.add_done_callback(lambda _: slots.release())
        futures.append(future)
    for future in futures:
        future.result()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="the other version's provider/ folder (none: ours alone)")
    parser.add_argument("--bare", action="store_true",
                        help="also the bare side of request_floor.py: _wire_provider to a bare FastAPI app")
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--block", type=int, default=400, help="endpoints deleted per side and block")
    parser.add_argument("--parallel", type=int, default=64, help="Deletes in flight (pulumi's --parallel)")
    parser.add_argument("--profile", type=Path, help="py-spy's collapsed stacks of our server, to this file")
    args = parser.parse_args()
    sides: dict[str, Path | None] = {"ours": None}
    if args.base is not None:
        sides["base"] = args.base.resolve()
    if args.bare:
        sides["bare"] = HERE
    with emulator_process() as (_, url), ApinizerClient(url, username="admin", password="admin") as client, \
            contextlib.ExitStack() as servers:
        credentials = {"APINIZER_URL": url, "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin"}
        engines: dict[str, tuple[int, Engine]] = {}
        for side, path in sides.items():
            env = dict(credentials)
            if path is not None:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), os.environ.get("PYTHONPATH")]))
            if side == "bare":
                env["WIRE_URL"] = servers.enter_context(answering_server("fastapi"))[1]
            server = servers.enter_context(ProviderServer({}, env=env))
            provider = WireProvider() if side == "bare" else EndpointProvider()
            engines[side] = (server.process.pid, Engine(server, provider, "Endpoint"))
        # One real create gives the recorded outputs every Delete carries (then the warm-up deletes);
        # the bare side's are its inputs, as its create gives them back.
        template = engines["ours"][1].up(INPUTS, name="template")[1]
        bare_template = {key: INPUTS[key] for key in ("project_name", "api_proxy_name", "name", "http_method",
                                                      "backend_resource_url", "backend_http_method")}

        def made_for(side: str, block: int) -> list[Any]:
            """The block's endpoints, made through the client; the Delete request of each (built here:
            the engine's serializing is not the provider's CPU)."""
            engine = engines[side][1]
            names = [f"/server-delete-{side}-{block}-{n}" for n in range(args.block)]
            if side == "bare":
                return [provider_pb2.DeleteRequest(id=f"wire/{name}", urn=engine.urn(f"d{n}"),
                                                   properties=engine._props({**bare_template, "name": name}))
                        for n, name in enumerate(names)]
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda name: client.endpoints.create(
                    "Demo", "PetStore", {**INPUTS, "name": name}), names))
            return [provider_pb2.DeleteRequest(id=f"Demo/PetStore/GET/{name}", urn=engine.urn(f"d{n}"),
                                               properties=engine._props({**template, "name": name}))
                    for n, name in enumerate(names)]

        profiler = None
        if args.profile is not None:
            spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or "py-spy"
            profiler = subprocess.Popen([spy, "record", "--gil", "--format", "raw", "-r", "500",
                                         "-o", str(args.profile),
                                         "--pid", str(engines["ours"][0])], stdout=subprocess.DEVNULL)
        figures: dict[str, list[float]] = {side: [] for side in sides}
        loads = []
        try:
            for block in range(args.blocks + 1):  # the first block pays the imports: not counted
                order = list(sides) if block % 2 else list(sides)[::-1]
                for side in order:
                    made = made_for(side, block)
                    pid, engine = engines[side]
                    before = cpu_seconds(pid)
                    delete_all(engine, made, args.parallel)
                    if block:
                        figures[side].append((cpu_seconds(pid) - before) / args.block * 1000)
                loads.append(os.getloadavg()[0])
        finally:
            if profiler is not None:
                profiler.send_signal(signal.SIGINT)
                profiler.wait(timeout=60)
    note = (f"median of {args.blocks} blocks of {args.block} Deletes, {args.parallel} in flight; "
            f"load {min(loads):.1f}-{max(loads):.1f}")
    rows = []
    for other in ("base", "bare"):
        if other not in figures:
            continue
        paired = statistics.quantiles([mine / theirs for mine, theirs
                                       in zip(figures["ours"], figures[other], strict=True)], n=4)
        figure = f"provider process CPU per Delete: this worktree (ours) and {SHOWN[other]} (baseline)"
        rows.append(Row(figure,
                        statistics.median(figures["ours"]), statistics.median(figures[other]), "ms", "",
                        f"{note}; paired ratios' quartiles {paired[0]:.2f} {paired[1]:.2f} {paired[2]:.2f}"))
    if not rows:
        rows.append(Row("provider process CPU per Delete: this worktree", statistics.median(figures["ours"]),
                        float("nan"), "ms", "", note))
    print(table(rows))
    for side, values in figures.items():
        print(f"by block, {side}:", " ".join(f"{value:.3f}" for value in values))


if __name__ == "__main__":
    main()
