"""Shared by the benchmarks: emulator processes, counters, CPU time of a process, the result table.

Every load stays on 127.0.0.1 and is bounded in time and in count.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from apinizer_emulator.testing import start_subprocess

if TYPE_CHECKING:
    import pulumi.dynamic as dyn

    from apinizer_pulumi.resources.testing import Engine

#: What a benchmark made: (id, outputs) of each resource, in order.
Made = Sequence[tuple[str, dict[str, Any]]]

TOKEN = "dev-admin-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ENDPOINTS = "/apiops/projects/{project}/apiProxies/{proxy}/endpoints/"


def endpoints_path(project: str = "Demo", proxy: str = "PetStore") -> str:
    return ENDPOINTS.format(project=project, proxy=proxy)


@contextlib.contextmanager
def emulator(fixtures: Path | None = None, synchronous: str | None = None) -> Iterator[str]:
    """An emulator subprocess on a fresh SQLite file; yields its base URL."""
    with emulator_process(fixtures, synchronous) as (_, url):
        yield url


@contextlib.contextmanager
def emulator_process(fixtures: Path | None = None,
                     synchronous: str | None = None) -> Iterator[tuple[subprocess.Popen[Any], str]]:
    """An emulator subprocess on a fresh SQLite file; yields it (to read its CPU time) and its base URL."""
    with tempfile.TemporaryDirectory(prefix="apinizer-bench-") as tmp:
        saved = os.environ.get("APINIZER_EMULATOR_SYNCHRONOUS")
        if synchronous is not None:
            os.environ["APINIZER_EMULATOR_SYNCHRONOUS"] = synchronous
        try:
            proc, url = start_subprocess(db=Path(tmp) / "bench.db", fixtures=fixtures)
        finally:
            if saved is None:
                os.environ.pop("APINIZER_EMULATOR_SYNCHRONOUS", None)
            else:
                os.environ["APINIZER_EMULATOR_SYNCHRONOUS"] = saved
        try:
            yield proc, url
        finally:
            stop(proc)


def stop(proc: subprocess.Popen[Any]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def stats(url: str, *, reset: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(f"{url}/_emulator/stats").json()
    if reset:
        httpx.post(f"{url}/_emulator/stats/reset", json={}).raise_for_status()
    return body


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Row:
    """One figure of the issue's table: ours beside its baseline."""

    figure: str
    ours: float
    baseline: float
    unit: str
    goal: str
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours / self.baseline if self.baseline else float("nan")


def table(rows: list[Row]) -> str:
    head = "| figure | ours | baseline | ratio | goal | note |\n|---|---:|---:|---:|---|---|\n"
    lines = [
        f"| {r.figure} | {r.ours:.4g} {r.unit} | {r.baseline:.4g} {r.unit} | {r.ratio:.2f} | {r.goal} "
        f"| {r.note} |"
        for r in rows
    ]
    return head + "\n".join(lines)


@contextlib.contextmanager
def provider_process(config: dict[str, str], provider: dyn.ResourceProvider, kind: str,
                     env: dict[str, str] | None = None) -> Iterator[Engine]:
    """A new provider process, as each ``pulumi`` command starts one, and an engine driving ``provider``."""
    from apinizer_pulumi.resources.testing import Engine, ProviderServer

    with ProviderServer(config, env=env) as server:
        yield Engine(server, provider, kind)


def refresh_all(engine: Engine, made: Made, name: Callable[[int], str]) -> None:
    """Every Read at once, as a refresh sends them (the n-th named ``name(n)``); each must find its object."""
    futures = [engine.read_future(id_, outs, name=name(n)) for n, (id_, outs) in enumerate(made)]
    assert all(future.result().id for future in futures)


def destroy_all(engine: Engine, made: Made, name: Callable[[int], str]) -> None:
    """A Delete of each, in order, as ``pulumi destroy`` sends independent resources one by one here."""
    for n, (id_, outs) in enumerate(made):
        engine.delete(id_, outs, name=name(n))


def counts_main(doc: str | None, option: str, default: int, counts: Callable[[int], list[Row]]) -> None:
    """The ``main`` of a request-count benchmark of one size: ``--<option> N`` (``default``), its table."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument(f"--{option}", type=int, default=default)
    print(table(counts(getattr(parser.parse_args(), option))))


def proxies_fixture(directory: Path, proxies: int) -> Path:
    """The default fixture's users and tokens with one project of ``proxies`` empty REST proxies."""
    from importlib import resources

    import yaml

    from apinizer_emulator.fixtures import DEFAULT_FIXTURE

    base = yaml.safe_load(resources.files("apinizer_emulator").joinpath(DEFAULT_FIXTURE).read_text())
    base["projects"] = [{
        "name": "Bench",
        "api_proxies": [{"name": f"P{k}", "type": "REST", "sharing_type": "INTERNAL", "endpoints": []}
                        for k in range(proxies)],
        "rlcls": [],
    }]
    path = directory / "fixture.yaml"
    path.write_text(yaml.safe_dump(base))
    return path
