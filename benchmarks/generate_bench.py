"""``apinizer-pulumi generate`` and ``generate --check`` against a big gateway: time and requests.

The emulator is seeded through a fixture file written here: one project of K proxies (found by
``generate`` through the project's proxy list) holding N endpoints in all, every fifth with a
request policy. ``generate`` writes the
program, then ``generate --check`` compares it with the gateway; the emulator's counters give the
requests of each, by route. The goal: one read per proxy for each kind of object written (its
endpoint list, the proxy with its deployments, its policies), plus the token request, the project
list and the project's proxy list; no read per endpoint. Run alone:

    .venv/bin/python benchmarks/generate_bench.py [--count 5000] [--proxies 50]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from _common import Row, emulator, stats, table

from apinizer_emulator.fixtures import DEFAULT_FIXTURE

#: Only a bound: a command that hangs fails the benchmark instead of stalling it.
COMMAND_TIMEOUT = 600
PROXY_PATH = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}"


def gateway_fixture(directory: Path, count: int, proxies: int) -> Path:
    """The default users and tokens; a project of ``proxies`` proxies, ``count`` endpoints in all."""
    base = yaml.safe_load(resources.files("apinizer_emulator").joinpath(DEFAULT_FIXTURE).read_text())

    def endpoint(index: int) -> dict[str, Any]:
        item: dict[str, Any] = {
            "name": f"/bench/{index}", "http_method": "GET", "description": f"endpoint {index}",
            "backend_resource_url": f"/backend/{index}", "backend_http_method": "GET",
        }
        if index % 5 == 0:
            item["request_policies"] = [{"type": "policy-script", "name": f"script-{index}", "active": True}]
        return item

    base["projects"] = [{
        "name": "Bench",
        "api_proxies": [
            {"name": f"P{k}", "type": "REST", "sharing_type": "BOTH",
             "endpoints": [endpoint(i) for i in range(count) if i * proxies // count == k]}
            for k in range(proxies)
        ],
        "rlcls": [],
    }]
    path = directory / "gateway.yaml"
    path.write_text(yaml.safe_dump(base))
    return path


def generate(url: str, out: Path, *extra: str) -> tuple[float, int]:
    """``apinizer-pulumi generate`` with password auth; its wall time and exit code."""
    command = [str(Path(sys.executable).parent / "apinizer-pulumi"), "generate", "--project", "Bench",
               "--out", str(out), "--quiet", *extra]
    env = {key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")}
    env.update({"APINIZER_URL": url, "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin"})
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
                          check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"`{' '.join(command[1:])}` exited {done.returncode}:\n{done.stderr[-3000:]}")
    return seconds, done.returncode


def by_route(sent: dict[str, Any]) -> str:
    routes: dict[str, int] = sent["requests"]
    return ", ".join(f"{count} {route.replace(PROXY_PATH, '...')}"
                     for route, count in sorted(routes.items(), key=lambda item: -item[1]))


def rows(count: int, proxies: int) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="apinizer-generate-") as tmp:
        fixture = gateway_fixture(Path(tmp), count, proxies)
        with emulator(fixture) as url:
            out = Path(tmp) / "__main__.py"
            stats(url)
            written_seconds, _ = generate(url, out)
            written = stats(url)
            commented = out.read_text().count("# Policies on the gateway")
            checked_seconds, code = generate(url, out, "--check")
            checked = stats(url)
    goal = 3 * proxies + 3
    return [
        Row(f"`apinizer-pulumi generate`, N={count} endpoints on K={proxies} proxies (requests)",
            written["total"], goal, "req", "<= 3K + 3: per proxy its endpoints, itself, its policies",
            f"{written_seconds:.1f} s; {commented} endpoints name their policies; {by_route(written)}"),
        Row("`apinizer-pulumi generate --check` of the same (requests)", checked["total"], goal, "req",
            "<= 3K + 3", f"{checked_seconds:.1f} s, exit {code}; {by_route(checked)}"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--proxies", type=int, default=50)
    args = parser.parse_args()
    print(table(rows(args.count, args.proxies)))


if __name__ == "__main__":
    main()
