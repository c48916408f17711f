"""What one request per resource costs under the real CLI, at the least: the floor of `up` and `destroy`.

The API has no bulk create or delete, so `pulumi up` sends one request per create and `pulumi
destroy` one per delete. This runs five programs of N resources with the same inputs, alternated
command by command in one run, as ``engine_floor.py`` does:

- **floor**: the engine's floor (``_null_provider.NullProvider``: no request);
- **wire**: the same provider plus one ``http.client`` request per create and delete, on kept-alive
  connections, to a server that answers ``200 {}`` and does nothing else (``_wire_provider``,
  ``_answering_server``), with the provider server widened at the first check or write as ours is:
  the cheapest request a Python dynamic provider can send, to the cheapest gateway, on the same
  machine as the engine;
- **uvicorn**: the same provider and requests, to a bare ASGI app under the emulator's uvicorn
  settings that answers ``200 {}`` (``_answering_server.py uvicorn``): the HTTP server's own cost;
- **fastapi**: the same, to a bare FastAPI app under the emulator's uvicorn settings that answers
  ``200 {}`` (``_answering_server.py fastapi``): the web framework's own cost, with no
  authentication, lookup or store;
- **ours**: N ``Endpoint`` resources against the emulator.

``wire`` over ``floor`` is the least that any provider which sends one request per resource can reach
here; ``uvicorn`` and ``fastapi`` add what answering through the emulator's HTTP server and web
framework costs, before any work; ``ours`` adds our client and the emulator's work. Beside each
command: the CPU time of the CLI's processes and of the server that answered (the emulator, or the
answering server). Run alone:

    .venv/bin/python benchmarks/request_floor.py [--count 500] [--proxies 5] [--rounds 3] [--parallel 64]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from _common import Row, cpu_seconds, emulator_process, proxies_fixture, stop
from cli_counts import cli
from engine_floor import FLOOR, HERE, OURS, ROLES, Peaks, init_stacks, ready_cli, run

WIRE = FLOOR.replace("from _null_provider import NullProvider", "from _wire_provider import WireProvider")
WIRE = WIRE.replace("NullProvider()", "WireProvider()")
SIDES = ("ours", "wire", "uvicorn", "fastapi", "floor")
#: The sides whose WireProvider sends to an answering server, and that server's mode.
ANSWERING = {"wire": (), "uvicorn": ("uvicorn",), "fastapi": ("fastapi",)}
#: Their order in the table.
REPORTED = ("floor", "wire", "uvicorn", "fastapi", "ours")
SHOWN = {"wire": "http.client to an asyncio server that answers 200",
         "uvicorn": "http.client to a bare ASGI app under uvicorn",
         "fastapi": "http.client to a bare FastAPI app",
         "ours": "Endpoint against the emulator"}
COMMANDS = (("up (creates)", ("up", "--yes", "--skip-preview")),
            ("destroy", ("destroy", "--yes", "--skip-preview")))


@contextmanager
def answering_server(*mode: str) -> Iterator[tuple[int, str]]:
    """The answering server in a child process; yields its pid and base URL."""
    process = subprocess.Popen([sys.executable, str(HERE / "_answering_server.py"), *mode],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        if not url.startswith("http://"):
            raise RuntimeError(f"the answering server did not start: {url!r}")
        yield process.pid, url
    finally:
        stop(process)


@dataclass
class Measured:
    """Wall seconds; CPU seconds of the CLI's processes and of the server; per (side, command)."""

    seconds: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    cpu: dict[tuple[str, str], list[tuple[float, float]]] = field(default_factory=dict)

    def median(self, side: str, label: str) -> float:
        return statistics.median(self.seconds[(side, label)])

    def median_cpu(self, side: str, label: str) -> tuple[float, float]:
        pairs = self.cpu[(side, label)]
        return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def measure(count: int, proxies: int, rounds: int, parallel: int,
            sides: tuple[str, ...] = SIDES) -> Measured:
    binary = ready_cli()
    sources = {side: (OURS if side == "ours" else FLOOR if side == "floor" else WIRE).format(
        count=count, proxies=proxies) for side in sides}
    measured = Measured()
    with tempfile.TemporaryDirectory(prefix="apinizer-request-floor-") as tmp:
        for number in range(rounds):
            with ExitStack() as servers_of_round:
                servers_of_round.callback(os.environ.pop, "WIRE_URL", None)
                emulator, url = servers_of_round.enter_context(
                    emulator_process(proxies_fixture(Path(tmp), proxies)))
                started = {side: servers_of_round.enter_context(answering_server(*mode))
                           for side, mode in ANSWERING.items() if side in sides}
                servers: dict[str, int | None] = {side: pid for side, (pid, _) in started.items()}
                servers.update(ours=emulator.pid, floor=None)
                folders = init_stacks(binary, Path(tmp), number, sources, url)
                # Each side goes first in turn.
                order = sides[number % len(sides):] + sides[:number % len(sides)]
                for label, command in COMMANDS:
                    for side in order:
                        os.environ["WIRE_URL"] = started[side][1] if side in started else ""
                        server = servers[side]
                        before = cpu_seconds(server) if server else 0.0
                        peaks = Peaks()
                        took = run(binary, folders[side], url,
                                   (*command, "--stack", "bench", "--parallel", str(parallel)), peaks)
                        served = (cpu_seconds(server) - before) if server else 0.0
                        clis = sum(peaks.cpu_seconds(name) for name in ROLES)
                        measured.seconds.setdefault((side, label), []).append(took)
                        measured.cpu.setdefault((side, label), []).append((clis, served))
                        print(f"  round {number + 1} {label} {side}: {took:.2f} s (CPU s: CLI's processes "
                              f"{clis:.1f}, provider {peaks.cpu_seconds('provider'):.1f}, "
                              f"server {served:.1f})", file=sys.stderr, flush=True)
    return measured


def rows(count: int, proxies: int, rounds: int, parallel: int) -> list[Row]:
    """For `up` and `destroy`: each answering side beside the engine's floor, and ours beside it."""
    if cli() is None:
        print("no Pulumi CLI: the request-floor rows are left out; scripts/bench.sh finds it")
        return []
    measured = measure(count, proxies, rounds, parallel)
    out: list[Row] = []
    for label, _ in COMMANDS:
        floor = measured.median("floor", label)
        for side in REPORTED[1:]:
            pairs = zip(measured.seconds[(side, label)], measured.seconds[("floor", label)], strict=True)
            ratios = "/".join(f"{a / b:.2f}" for a, b in pairs)
            clis, served = measured.median_cpu(side, label)
            out.append(Row(f"`pulumi {label}`, N={count} on K={proxies}, --parallel {parallel}: "
                           f"{SHOWN[side]}, median of {rounds}", measured.median(side, label), floor, "s",
                           "the least a request per resource allows" if side != "ours"
                           else "<= 1.15x the engine's floor",
                           f"rounds {ratios}; CPU s: CLI's processes {clis:.1f}, server {served:.1f}"))
    return out


def markdown(measured: Measured, title: str, sides: tuple[str, ...] = SIDES) -> str:
    reported = tuple(side for side in REPORTED if side in sides)
    lines = [f"| {title} | " + " | ".join(reported) + " | "
             + " | ".join(f"{side} / floor" for side in reported[1:])
             + " | CPU s: CLI's processes + server, " + " / ".join(reported) + " |",
             "|---|" + "---:|" * (2 * len(reported) - 1) + "---|"]
    for label, _ in COMMANDS:
        median = {side: measured.median(side, label) for side in reported}
        used = " / ".join("{:.1f} + {:.1f}".format(*measured.median_cpu(side, label)) for side in reported)
        lines.append(f"| {label} | " + " | ".join(f"{median[side]:.2f} s" for side in reported)
                     + " | " + " | ".join(f"{median[side] / median['floor']:.2f}" for side in reported[1:])
                     + f" | {used} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--proxies", type=int, default=0, help="default: one per 100 endpoints")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parallel", type=int, default=64)
    parser.add_argument("--sides", default=",".join(SIDES),
                        help=f"the sides to run, of {', '.join(SIDES)} (floor always runs)")
    args = parser.parse_args()
    proxies = args.proxies or max(1, args.count // 100)
    chosen = [side for side in args.sides.split(",") if side]
    unknown = sorted(set(chosen) - set(SIDES))
    if unknown:
        parser.error(f"--sides: unknown {', '.join(unknown)}; the sides are {', '.join(SIDES)}")
    sides = tuple(side for side in SIDES if side in chosen or side == "floor")
    measured = measure(args.count, proxies, args.rounds, args.parallel, sides)
    print(markdown(measured, f"command, N={args.count} on {proxies} proxies, --parallel {args.parallel}, "
                             f"median of {args.rounds}", sides))


if __name__ == "__main__":
    main()
