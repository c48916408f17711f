"""What ``from apinizer_pulumi import Endpoint`` costs beside ``import pulumi``, in fresh interpreters.

Each statement runs in its own ``python -c``, timed inside it (interpreter start-up left out),
alternating the two, and the best of the runs counts: this machine's noise only ever adds time.

    .venv/bin/python benchmarks/import_bench.py [--runs 15]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from _common import Row, table

OURS = "from apinizer_pulumi import Endpoint"
BASELINE = "import pulumi"


def timed(statement: str) -> float:
    code = f"import time\nstarted = time.perf_counter()\n{statement}\nprint(time.perf_counter() - started)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def row(runs: int) -> Row:
    ours: list[float] = []
    baseline: list[float] = []
    for _ in range(runs):
        baseline.append(timed(BASELINE))
        ours.append(timed(OURS))
    return Row(f"`{OURS}` (best of {runs})", min(ours) * 1000, min(baseline) * 1000, "ms",
               "<= 1.3x `import pulumi`", f"medians {sorted(ours)[runs // 2] * 1000:.0f} / "
               f"{sorted(baseline)[runs // 2] * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    print(table([row(parser.parse_args().runs)]))


if __name__ == "__main__":
    main()
