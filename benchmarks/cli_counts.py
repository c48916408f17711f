"""Gateway requests of ``pulumi up`` and ``pulumi refresh`` under the real CLI, as a user runs them.

A generated program declares N endpoints spread over K proxies, logs in with a password, and runs
against an emulator subprocess; the emulator's counters give the requests of each command. The
endpoints are declared proxy by proxy (as a program usually lists them) or interleaved (endpoint
``i`` on proxy ``i % K``, the order least kind to sharing a list). ``up`` runs at the CLI's default
``--parallel`` (4 per CPU) and at ``--parallel N``, each on a fresh stack and gateway.

The CLI is found as the scripts find it (``scripts/_pulumi.sh``): ``PULUMI_CLI`` when set (as
``scripts/bench.sh`` sets it), else ``pulumi`` on PATH. Without one, these rows say so. Run alone:

    .venv/bin/python benchmarks/cli_counts.py [--count 100] [--proxies 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from _common import Row, emulator, proxies_fixture, stats, table

ROOT = Path(__file__).resolve().parents[1]
LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
#: Only a bound: a command that hangs fails the benchmark instead of stalling it.
COMMAND_TIMEOUT = 600

PROGRAM = """
import apinizer_pulumi as apinizer

for index in range({count}):
    apinizer.Endpoint(
        f"bench-{{index}}",
        project_name="Bench",
        api_proxy_name=f"P{{{proxy}}}",
        name=f"/bench/{{index}}",
        http_method="GET",
        backend_resource_url=f"/backend/{{index}}",
        backend_http_method="GET",
    )
"""


def cli() -> Path | None:
    found = os.environ.get("PULUMI_CLI") or shutil.which("pulumi")
    return Path(found) if found else None


def pulumi(binary: Path, project: Path, url: str, *args: str) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("APINIZER_", "PULUMI_"))}
    env.update({
        "PATH": os.pathsep.join([str(binary.parent), str(Path(sys.executable).parent), env.get("PATH", "")]),
        "PULUMI_HOME": str(project / ".pulumi-home"),
        "PULUMI_BACKEND_URL": f"file://{project / '.state'}",
        "PULUMI_CONFIG_PASSPHRASE": "benchmark-only",
        "PULUMI_SKIP_UPDATE_CHECK": "true",
        "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
        "NO_COLOR": "1",
        # The lowest-priority connection settings, read by the provider process.
        "APINIZER_URL": url,
        "APINIZER_USERNAME": "admin",
        "APINIZER_PASSWORD": "admin",
    })
    done = subprocess.run([str(binary), *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=COMMAND_TIMEOUT, check=False)
    if done.returncode != 0:
        command = " ".join(args)
        raise RuntimeError(f"`pulumi {command}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}")


#: How each layout names endpoint ``index``'s proxy, as an expression of the program.
LAYOUTS = {
    "declared proxy by proxy": "index * {proxies} // {count}",
    "interleaved over the proxies": "index % {proxies}",
}


def project(directory: Path, count: int, proxies: int, layout: str) -> Path:
    directory.mkdir()
    (directory / ".state").mkdir()
    (directory / "Pulumi.yaml").write_text(textwrap.dedent(f"""\
        name: apinizer-bench
        runtime:
          name: python
          options:
            virtualenv: {Path(sys.prefix)}
        """))
    proxy = LAYOUTS[layout].format(count=count, proxies=proxies)
    (directory / "__main__.py").write_text(PROGRAM.format(count=count, proxies=proxies, proxy=proxy))
    return directory


def counts(count: int, proxies: int) -> list[Row]:
    """``up`` at the default and at ``--parallel N``, then ``refresh``, under the real CLI."""
    binary = cli()
    if binary is None:
        print("no Pulumi CLI (`pulumi` on PATH or PULUMI_CLI): the CLI rows are left out; "
              "scripts/bench.sh finds or builds it")
        return []
    parallel = 4 * (os.cpu_count() or 1)
    rows: list[Row] = []
    runs = [(layout, label, extra) for layout in LAYOUTS
            for label, extra in ((f"default --parallel ({parallel})", ()),
                                 (f"--parallel {count}", ("--parallel", str(count))))]
    with tempfile.TemporaryDirectory(prefix="apinizer-cli-bench-") as tmp:
        for number, (layout, label, extra) in enumerate(runs):
            with emulator(proxies_fixture(Path(tmp), proxies)) as url:
                folder = project(Path(tmp) / f"p{number}", count, proxies, layout)
                pulumi(binary, folder, url, "stack", "init", "bench", "--secrets-provider", "passphrase")
                stats(url)
                started = time.perf_counter()
                pulumi(binary, folder, url, "up", "--yes", "--skip-preview", "--stack", "bench", *extra)
                up_seconds = time.perf_counter() - started
                up = stats(url)
                rows.append(Row(f"`pulumi up`, N={count} endpoints on K={proxies} proxies {layout}, {label} "
                                "(requests)", up["total"], count + proxies + 1, "req", "<= N + K + 1",
                                f"lists {up['requests'].get(LIST, 0)}; {up_seconds:.1f} s"))
                if number:
                    continue
                started = time.perf_counter()
                pulumi(binary, folder, url, "refresh", "--yes", "--skip-preview", "--stack", "bench")
                refresh_seconds = time.perf_counter() - started
                refresh = stats(url)
                rows.append(Row("`pulumi refresh` of the same (requests)", refresh["total"], proxies + 1,
                                "req", "<= K + 1",
                                f"lists {refresh['requests'].get(LIST, 0)}; {refresh_seconds:.1f} s"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--proxies", type=int, default=5)
    args = parser.parse_args()
    print(table(counts(args.count, args.proxies)))


if __name__ == "__main__":
    main()
