"""The CPU of ``apinizer-pulumi generate``'s start (its import, ``--help``) and of a whole run.

Each command runs in a process of its own, as a user's shell or a docs block runs it: this tree beside
a baseline tree of the package (``--baseline``: the ``provider/`` folder of another checkout, put
first on ``PYTHONPATH``), alternated, the side that goes first swapped each round. A row is the
process's user+system CPU (``os.wait4``), median of the runs, with the smallest and largest. Both
trees are compiled first (``compileall``, as ``scripts/_venv.sh`` compiles this one), so that neither
pays for compiling. The whole run reads the default fixture of an emulator subprocess and one JWK.

    .venv/bin/python benchmarks/generate_import.py [--baseline ../main/provider] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import TOKEN, emulator

from apinizer_pulumi.client import ApinizerClient

HERE = Path(__file__).resolve().parents[1] / "provider"
BIN = Path(sys.executable).parent


def commands(url: str, out: Path) -> dict[str, list[str]]:
    python, cli = str(BIN / "python"), str(BIN / "apinizer-pulumi")
    return {
        "`python -c pass` (the interpreter alone)": [python, "-c", "pass"],
        "`import apinizer_pulumi.generate`": [python, "-c", "import apinizer_pulumi.generate"],
        "`from apinizer_pulumi.generate import generate_program`":
            [python, "-c", "from apinizer_pulumi.generate import generate_program"],
        "`apinizer-pulumi --help`": [cli, "--help"],
        "`apinizer-pulumi generate --help`": [cli, "generate", "--help"],
        "`apinizer-pulumi generate --project Demo` (a whole run)":
            [cli, "generate", "--project", "Demo", "--url", url, "--quiet", "--out", str(out)],
    }


def cpu_seconds(argv: list[str], tree: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "APINIZER_TOKEN": TOKEN}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        said = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{' '.join(argv)} with {tree} failed: {said}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout's provider/ folder")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    trees = {"this tree": HERE, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    for tree in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True,
                       stdout=subprocess.DEVNULL)
    with emulator() as url, tempfile.TemporaryDirectory() as tmp:
        with ApinizerClient(url, token=TOKEN) as client:
            client.jwks.generate("Demo", {"name": "signing", "type": "RSA", "rsa": {"keySize": 2048}})
        rows = commands(url, Path(tmp) / "__main__.py")
        figures: dict[tuple[str, str], list[float]] = {(row, side): [] for row in rows for side in trees}
        for index in range(args.runs):
            order = list(trees.items()) if index % 2 == 0 else list(reversed(trees.items()))
            for row, argv in rows.items():
                for side, tree in order:
                    figures[(row, side)].append(cpu_seconds(argv, tree))
    print(f"| command | {' | '.join(f'{side}: CPU, median of {args.runs} (min-max)' for side in trees)} |")
    print(f"|---|{'---|' * len(trees)}")
    for row in rows:
        cells = []
        for side in trees:
            values = sorted(figures[(row, side)])
            median, low, high = (round(value * 1000)
                                 for value in (statistics.median(values), values[0], values[-1]))
            cells.append(f"{median} ms ({low}-{high})")
        print(f"| {row} | {' | '.join(cells)} |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
