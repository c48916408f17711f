"""The emulator's CPU per request, for each request that `up` and `destroy` of endpoints send.

Sends, from a pool of threads on keep-alive ``http.client`` connections (one per thread, as the
provider's transport keeps them), N requests of each kind, in the order a stack's life sends them:
the token request, the endpoint creates, the provider's list read-back, the deletes. The bodies are
the provider's own (see ``ApinizerClient.endpoints``). Prints the server's CPU per request of each
kind, beside the bare FastAPI app of ``_answering_server.py fastapi`` (which answers ``200 {}``
without any work) under the same load. ``--rounds`` alternates the two servers; ``--emulator-src``
serves the emulator from another checkout's ``emulator/`` folder (to measure a change against its
parent in one sitting); ``--profile DIR`` records each phase of each server with py-spy.
``--by-thread`` splits the server's CPU per request by thread (``/proc/<pid>/task``, named by
``py-spy dump``): the event loop's thread, the writer's, the rest.

    .venv/bin/python benchmarks/emulator_request_cpu.py [--count 2000] [--threads 64] [--rounds 2]
    .venv/bin/python benchmarks/emulator_request_cpu.py --threads 4 --kinds create,delete --by-thread
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from _common import ENDPOINTS, cpu_seconds, emulator_process, stop

HERE = Path(__file__).resolve().parent
LIST_PATH = ENDPOINTS.format(project="Demo", proxy="PetStore")
TOKEN_BODY = b"grant_type=client_credentials&client_id=admin&client_secret=admin"
KINDS = ("token", "create", "list", "delete")
#: (method, path, content type, body) of the index-th request of a kind.
Request = tuple[str, str, str | None, bytes]


def request_of(kind: str, index: int) -> Request:
    name = f"/cpu-{index}"
    if kind == "token":
        return "POST", "/apiops/auth/token", "application/x-www-form-urlencoded", TOKEN_BODY
    if kind == "create":
        body = f'{{"name":"{name}","httpMethod":"GET","backendResourceUrl":"/b","backendHttpMethod":"GET"}}'
        return "POST", LIST_PATH, "application/json", body.encode()
    if kind == "list":
        return "GET", LIST_PATH, None, b""
    body = f'{{"name":"{name}","httpMethod":"GET"}}'
    return "POST", f"{LIST_PATH}delete/", "application/json", body.encode()


class Connections:
    """One keep-alive connection per thread, with the token every request carries."""

    def __init__(self, url: str, token: str) -> None:
        self.host, self.port = urlsplit(url).hostname or "127.0.0.1", urlsplit(url).port or 80
        self.auth = f"Bearer {token}"
        self._local = threading.local()
        self._all: list[http.client.HTTPConnection] = []

    def send(self, request: Request) -> int:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = http.client.HTTPConnection(self.host, self.port)
            self._all.append(connection)
        method, path, content_type, body = request
        headers = {"Authorization": self.auth}
        if content_type is not None:
            headers["Content-Type"] = content_type
        connection.request(method, path, body or None, headers)
        response = connection.getresponse()
        response.read()
        return response.status

    def close(self) -> None:
        for connection in self._all:
            connection.close()


def send_one(connections: Connections, kind: str, index: int) -> int:
    return connections.send(request_of(kind, index))


def token_of(url: str) -> str:
    import httpx

    answer = httpx.post(f"{url}/apiops/auth/token", content=TOKEN_BODY,
                        headers={"Content-Type": "application/x-www-form-urlencoded"})
    answer.raise_for_status()
    token = answer.json().get("access_token", "bare")
    return str(token)


@contextlib.contextmanager
def recording(pid: int, profile: Path | None, name: str) -> Iterator[None]:
    """py-spy samples of ``pid`` while the block runs (raw, collapsed stacks), when asked."""
    if profile is None:
        yield
        return
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    profile.mkdir(parents=True, exist_ok=True)
    spy = subprocess.Popen([py_spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "250",
                            "--output", str(profile / f"{name}.txt")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # py-spy attaches
    try:
        yield
    finally:
        spy.send_signal(2)
        spy.wait(timeout=30)


def threads_cpu(pid: int) -> dict[int, float]:
    """Each thread's user + system CPU time so far, by its OS thread id (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seconds: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            seconds[int(task.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return seconds


def thread_names(pid: int) -> dict[int, str]:
    """The Python name of each thread of ``pid``, by OS thread id, from ``py-spy dump``."""
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    dump = subprocess.run([py_spy, "dump", "--pid", str(pid)], capture_output=True, text=True, check=True)
    names: dict[int, str] = {}
    for line in dump.stdout.splitlines():
        if line.startswith("Thread "):
            tid, _, rest = line[len("Thread "):].partition(" ")
            names[int(tid, 0)] = rest.split('"')[1] if '"' in rest else rest
    return names


def by_thread(pid: int, before: dict[int, float], total: int) -> dict[str, float]:
    """µs of CPU a request by thread since ``before``: the loop's, the writer's, the rest's."""
    names = thread_names(pid)
    split = {"loop": 0.0, "writer": 0.0, "other": 0.0}
    for tid, seconds in threads_cpu(pid).items():
        name = names.get(tid, "")
        where = "loop" if tid == pid else "writer" if name == "apinizer-writer" else "other"
        split[where] += (seconds - before.get(tid, 0.0)) / total * 1e6
    return split


def phases(pid: int, url: str, count: int, threads: int, kinds: list[str], profile: Path | None,
           side: str, split: dict[str, dict[str, float]] | None = None) -> dict[str, float]:
    """CPU ms per request of each kind, the server's, sent by ``threads`` threads; with ``split``,
    also its µs a request by thread, per kind."""
    connections = Connections(url, token_of(url))
    figures: dict[str, float] = {}
    try:
        with ThreadPoolExecutor(threads) as pool:
            for kind in kinds:
                if kind == "list" and side.startswith("fastapi"):
                    continue  # the bare app takes POST and DELETE only
                # A token request is slow on purpose (a password hash), a list reads every endpoint
                # created before it: fewer of them.
                total = max(threads, count // 20) if kind in ("token", "list") else count
                sent: Callable[[int], int] = functools.partial(send_one, connections, kind)
                statuses: dict[int, int] = {}
                with recording(pid, profile, f"{side}-{kind}"):
                    before, before_threads = cpu_seconds(pid), threads_cpu(pid)
                    for status in pool.map(sent, range(total)):
                        statuses[status] = statuses.get(status, 0) + 1
                    figures[kind] = (cpu_seconds(pid) - before) / total * 1000
                    if split is not None:
                        split[kind] = by_thread(pid, before_threads, total)
                if set(statuses) != {200}:
                    raise SystemExit(f"{side} {kind}: statuses {statuses}")
    finally:
        connections.close()
    return figures


@contextlib.contextmanager
def bare_fastapi() -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc = subprocess.Popen([sys.executable, str(HERE / "_answering_server.py"), "fastapi"],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    try:
        yield proc, url
    finally:
        stop(proc)


@contextlib.contextmanager
def emulator_from(source: Path | None) -> Iterator[tuple[subprocess.Popen[Any], str]]:
    """The emulator, from this checkout or from ``source`` (a folder holding ``apinizer_emulator``)."""
    saved = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), saved]))
    try:
        with emulator_process() as running:
            if source is not None:
                os.environ.pop("PYTHONPATH", None) if saved is None else os.environ.update(PYTHONPATH=saved)
            yield running
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--sides", default="emulator,fastapi",
                        help="emulator, fastapi, and/or other (the emulator of --emulator-src)")
    parser.add_argument("--emulator-src", type=Path, help="the emulator/ folder of another checkout")
    parser.add_argument("--profile", type=Path, help="record each phase of each server with py-spy here")
    parser.add_argument("--by-thread", action="store_true",
                        help="split the server's CPU by thread: the event loop's, the writer's, the rest")
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if kind]
    sides = [side for side in args.sides.split(",") if side]
    results: dict[str, dict[str, list[float]]] = {side: {kind: [] for kind in kinds} for side in sides}
    for round_index in range(args.rounds):
        for side in sides:
            server = bare_fastapi() if side == "fastapi" else emulator_from(
                args.emulator_src if side == "other" else None)
            split: dict[str, dict[str, float]] | None = {} if args.by_thread else None
            with server as (proc, url):
                figures = phases(proc.pid, url, args.count, args.threads, kinds, args.profile,
                                 f"{side}{round_index}", split)
            for kind, value in figures.items():
                results[side][kind].append(value)
            print(f"round {round_index + 1}, {side}: "
                  + ", ".join(f"{kind} {value:.3f} ms" for kind, value in figures.items())
                  + f" (load {os.getloadavg()[0]:.1f})", flush=True)
            for kind, threads in (split or {}).items():
                print(f"    {kind}, µs a request by thread: "
                      + ", ".join(f"{name} {value:.0f}" for name, value in threads.items()), flush=True)
    print(f"\nThe server's CPU per request, ms: {args.count} requests a kind"
          f" ({args.count // 20} tokens and lists), {args.threads} threads,"
          f" {args.rounds} round(s); medians, then each round")
    print("| side | " + " | ".join(kinds) + " |\n|---|" + "---:|" * len(kinds))
    for side in sides:
        cells = [f"{statistics.median(results[side][kind]):.3f} ("
                 + ", ".join(f"{v:.3f}" for v in results[side][kind]) + ")" if results[side][kind] else "-"
                 for kind in kinds]
        print(f"| {side} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
