"""Every command of a program of N endpoints under the real CLI, beside the engine's own floor.

The floor is the same CLI running a program of N resources of a dynamic provider that does nothing
(``_null_provider.NullProvider``: no instance state, no request), with the same inputs as the
endpoints. The two programs alternate command by command in one run, against one emulator with K
proxies (the endpoints declared proxy by proxy): ``preview``, ``up`` (N creates), ``up`` with nothing
changed, ``refresh`` and ``destroy``, all but the preview with ``--skip-preview`` (the preview is its
own row), all at the same ``--parallel``. Each round starts on fresh stacks; the side that goes first
changes from one round to the next. The ratio is of the medians over the rounds.

Both sides run with ``PULUMI_SKIP_CHECKPOINTS=true``: without it the file backend writes the whole
state after every step, which at thousands of resources is most of the time of both (docs/performance.md).

Beside the times: the gateway requests of our up and refresh (the emulator's counters), the load
average when each command began, and the peak resident memory (sampled from /proc every 0.2 s) of
the engine (the CLI), the language host, the program's interpreter and the provider process.
Run alone:

    .venv/bin/python benchmarks/engine_floor.py [--count 500] [--proxies 5] [--rounds 3] [--parallel 64]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from _common import Row, cpu_seconds, emulator, proxies_fixture, stats, table
from cli_counts import LIST, cli

HERE = Path(__file__).resolve().parent
#: Only a bound: a command that hangs fails the benchmark instead of stalling it.
COMMAND_TIMEOUT = 1800
GOAL = 1.15

#: Our program: N endpoints, declared proxy by proxy.
OURS = """
import apinizer_pulumi as apinizer

for index in range({count}):
    apinizer.Endpoint(
        f"bench-{{index}}", project_name="Bench", api_proxy_name=f"P{{index * {proxies} // {count}}}",
        name=f"/bench/{{index}}", http_method="GET", backend_resource_url=f"/backend/{{index}}",
        backend_http_method="GET",
    )
"""

#: The floor: the same inputs on a provider that does nothing (imported by reference from benchmarks/).
FLOOR = """
import pulumi.dynamic as dyn
from _null_provider import NullProvider

PROVIDER = NullProvider()


class Null(dyn.Resource):
    pass


for index in range({count}):
    Null(
        PROVIDER, f"bench-{{index}}", dict(
            project_name="Bench", api_proxy_name=f"P{{index * {proxies} // {count}}}",
            name=f"/bench/{{index}}", http_method="GET", backend_resource_url=f"/backend/{{index}}",
            backend_http_method="GET",
        ),
    )
"""

#: (row label, pulumi arguments); every one gets ``--stack bench --parallel P`` after it.
COMMANDS = (
    ("preview", ("preview",)),
    ("up (creates)", ("up", "--yes", "--skip-preview")),
    ("up, nothing changed", ("up", "--yes", "--skip-preview")),
    ("refresh", ("refresh", "--yes", "--skip-preview")),
    ("destroy", ("destroy", "--yes", "--skip-preview")),
)
SIDES = ("ours", "floor")
#: Settings of the provider process that a run may set, to compare them (docs/performance.md).
TUNING = ("APINIZER_PROVIDER_", "APINIZER_READ_", "APINIZER_SERIALIZE_FIX", "APINIZER_PROFILE")
#: Processes by role, told apart by their command lines.
ROLES = ("engine", "language host", "program", "provider")


def role(command_line: str, cli_pid: int, pid: int) -> str | None:
    if pid == cli_pid:
        return "engine"
    if "pulumi.dynamic" in command_line:
        return "provider"
    if "language_host.py" in command_line or "pulumi-language-python" in command_line:
        return "program" if " exec" in command_line else "language host"
    return None


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


@dataclass
class Peaks:
    """Peak resident memory (MiB) of each role's processes during one command, and their CPU time.

    CPU is the last sample of each process (up to 0.2 s short of its end), summed by role.
    """

    mib: dict[str, float] = field(default_factory=dict)
    cpu: dict[int, tuple[str, float]] = field(default_factory=dict)

    def cpu_seconds(self, name: str) -> float:
        return sum(seconds for role_name, seconds in self.cpu.values() if role_name == name)

    def sample(self, cli_pid: int) -> None:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command_line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                status = (entry / "status").read_text()
                environ_owner = int(entry.name)
            except OSError:
                continue
            if environ_owner != cli_pid and not descends(environ_owner, cli_pid):
                continue
            name = role(command_line, cli_pid, environ_owner)
            rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
            if name is not None:
                self.mib[name] = max(self.mib.get(name, 0.0), rss / 1024)
                with suppress(OSError, ValueError, IndexError):
                    self.cpu[environ_owner] = (name, cpu_seconds(environ_owner))


def descends(pid: int, ancestor: int) -> bool:
    for _ in range(16):
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


@contextmanager
def sampled(process: subprocess.Popen[str], peaks: Peaks) -> Iterator[None]:
    done = threading.Event()

    def loop() -> None:
        while not done.is_set():
            peaks.sample(process.pid)
            done.wait(0.2)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def environment(binary: Path, directory: Path, url: str) -> dict[str, str]:
    # The provider's tuning settings pass through (to compare them); nothing else of the caller's.
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("APINIZER_", "PULUMI_")) or key.startswith(TUNING)}
    env.update({
        "PATH": os.pathsep.join([str(binary.parent), str(Path(sys.executable).parent), env.get("PATH", "")]),
        "PULUMI_HOME": str(directory / ".pulumi-home"),
        "PULUMI_BACKEND_URL": f"file://{directory / '.state'}",
        "PULUMI_CONFIG_PASSPHRASE": "benchmark-only",
        "PULUMI_SKIP_UPDATE_CHECK": "true",
        "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
        "PULUMI_SKIP_CHECKPOINTS": "true",
        "NO_COLOR": "1",
        # The floor's provider is imported by reference from here, in the program and the provider.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH", "")])),
        "APINIZER_URL": url,
        "APINIZER_USERNAME": "admin",
        "APINIZER_PASSWORD": "admin",
    })
    return env


def run(binary: Path, directory: Path, url: str, args: tuple[str, ...], peaks: Peaks | None = None) -> float:
    """``pulumi ARGS`` in ``directory``; its wall time in seconds."""
    started = time.perf_counter()
    with subprocess.Popen([str(binary), *args], cwd=directory, env=environment(binary, directory, url),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        if peaks is None:
            stdout, stderr = process.communicate(timeout=COMMAND_TIMEOUT)
        else:
            with sampled(process, peaks):
                stdout, stderr = process.communicate(timeout=COMMAND_TIMEOUT)
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(f"`pulumi {' '.join(args)}` in {directory.name} exited {process.returncode}:\n"
                           f"{stdout[-3000:]}\n{stderr[-3000:]}")
    return seconds


def project(directory: Path, source: str) -> Path:
    directory.mkdir()
    (directory / ".state").mkdir()
    (directory / "Pulumi.yaml").write_text(textwrap.dedent(f"""\
        name: apinizer-floor
        runtime:
          name: python
          options:
            virtualenv: {Path(sys.prefix)}
        """))
    (directory / "__main__.py").write_text(source)
    return directory


@dataclass
class Measured:
    seconds: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    loads: dict[str, list[float]] = field(default_factory=dict)
    requests: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    memory: dict[tuple[str, str], list[Peaks]] = field(default_factory=dict)


def compile_package() -> None:
    """Write the package's bytecode, as pip does when it installs a wheel.

    An editable install leaves that to the interpreter, which writes none where
    PYTHONDONTWRITEBYTECODE is set: each command's processes would then compile the package again,
    while the floor's code (the SDK's) was compiled at its install (scripts/_venv.sh does the same).
    """
    import compileall

    import apinizer_emulator
    import apinizer_pulumi

    for package in (apinizer_pulumi, apinizer_emulator):
        compileall.compile_dir(str(Path(package.__file__).parent), quiet=1)


def ready_cli() -> Path:
    """The Pulumi CLI to measure with, once the package's bytecode is written."""
    binary = cli()
    compile_package()
    if binary is None:
        raise RuntimeError("no Pulumi CLI (`pulumi` on PATH or PULUMI_CLI)")
    return binary


def init_stacks(binary: Path, directory: Path, number: int, sources: dict[str, str],
                url: str) -> dict[str, Path]:
    """Round ``number``'s project of each side (named by ``sources``), each with a new stack ``bench``."""
    folders = {side: project(directory / f"{side}{number}", source) for side, source in sources.items()}
    for folder in folders.values():
        run(binary, folder, url, ("stack", "init", "bench", "--secrets-provider", "passphrase"))
    return folders


def measure(count: int, proxies: int, rounds: int, parallel: int) -> Measured:
    binary = ready_cli()
    measured = Measured()
    sources = {"ours": OURS.format(count=count, proxies=proxies),
               "floor": FLOOR.format(count=count, proxies=proxies)}
    with tempfile.TemporaryDirectory(prefix="apinizer-floor-") as tmp:
        for number in range(rounds):
            with emulator(proxies_fixture(Path(tmp), proxies)) as url:
                folders = init_stacks(binary, Path(tmp), number, sources, url)
                order = SIDES if number % 2 == 0 else SIDES[::-1]
                for label, args in COMMANDS:
                    for side in order:
                        measured.loads.setdefault(label, []).append(load_average())
                        stats(url)
                        peaks = Peaks()
                        seconds = run(binary, folders[side], url,
                                      (*args, "--stack", "bench", "--parallel", str(parallel)), peaks)
                        measured.seconds.setdefault((side, label), []).append(seconds)
                        measured.memory.setdefault((side, label), []).append(peaks)
                        if side == "ours":
                            sent = stats(url)
                            measured.requests.setdefault(label, []).append(
                                (sent["total"], sent["requests"].get(LIST, 0)))
                        cpu = ", ".join(f"{name} {peaks.cpu_seconds(name):.1f}" for name in ROLES)
                        print(f"  round {number + 1} {label} {side}: {seconds:.1f} s (CPU s: {cpu}; "
                              f"load {load_average():.1f})", file=sys.stderr, flush=True)
    return measured


def rows(count: int, proxies: int, rounds: int, parallel: int) -> list[Row]:
    """One row per command: our median beside the floor's, with requests, load and memory."""
    if cli() is None:
        print("no Pulumi CLI: the engine-floor rows are left out; scripts/bench.sh finds it")
        return []
    measured = measure(count, proxies, rounds, parallel)
    out: list[Row] = []
    for label, _ in COMMANDS:
        ours, floor = measured.seconds[("ours", label)], measured.seconds[("floor", label)]
        ratios = "/".join(f"{a / b:.2f}" for a, b in zip(ours, floor, strict=True))
        loads = measured.loads[label]
        cpu = {side: statistics.median(sum(p.cpu_seconds(name) for name in ROLES)
                                       for p in measured.memory[(side, label)]) for side in SIDES}
        note = [f"rounds {ratios}", f"load {min(loads):.1f}-{max(loads):.1f}",
                f"CPU of the CLI's processes {cpu['ours']:.1f}/{cpu['floor']:.1f} s "
                f"({cpu['ours'] / cpu['floor']:.2f})"]
        sent = measured.requests.get(label, [])
        if label in ("up (creates)", "refresh", "up, nothing changed"):
            note.append("requests " + "/".join(f"{total} ({lists} lists)" for total, lists in sent))
        out.append(Row(f"`pulumi {label}`, N={count} endpoints on K={proxies} proxies, "
                       f"--parallel {parallel}, median of {rounds}",
                       statistics.median(ours), statistics.median(floor), "s",
                       f"<= {GOAL}x the engine's floor", "; ".join(note)))
    return out + memory_rows(count, measured)


def memory_rows(count: int, measured: Measured) -> list[Row]:
    """Peak RSS of each role over all commands, ours beside the floor's, and the CPU of each role."""
    out: list[Row] = []
    for name in ROLES:
        peak = {side: max(((label, p.mib.get(name, 0.0)) for (s, label), runs in measured.memory.items()
                           if s == side for p in runs), key=lambda item: item[1], default=("", 0.0))
                for side in SIDES}
        (worst, ours), (_, floor) = peak["ours"], peak["floor"]
        cpu = "; ".join(f"{label} {median_cpu(measured, 'ours', label, name):.1f}/"
                        f"{median_cpu(measured, 'floor', label, name):.1f}" for label, _ in COMMANDS)
        out.append(Row(f"peak RSS of the {name}, N={count}", ours, floor, "MiB", "flat per resource",
                       f"ours at `{worst}`, {(ours - floor) * 1024 / count:.1f} KiB a resource above the "
                       f"floor; CPU s ours/floor: {cpu}"))
    return out


def median_cpu(measured: Measured, side: str, label: str, name: str) -> float:
    return statistics.median(p.cpu_seconds(name) for p in measured.memory[(side, label)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--proxies", type=int, default=0, help="default: one per 100 endpoints")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parallel", type=int, default=64)
    args = parser.parse_args()
    proxies = args.proxies or max(1, args.count // 100)
    print(table(rows(args.count, proxies, args.rounds, args.parallel)))


if __name__ == "__main__":
    main()
