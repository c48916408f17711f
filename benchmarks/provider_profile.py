"""Where the provider process's (and the emulator's) CPU goes in `pulumi up` and `destroy` of N endpoints.

Runs ``request_floor.py``'s programs of N resources under the real CLI, ours (``Endpoint``s against
the emulator) and the do-nothing provider sending one request to a bare FastAPI app, with the
provider process sampling itself through py-spy (``_profiled/sitecustomize.py``, put on PYTHONPATH
here only) and py-spy attached to the emulator for the length of each command. Prints, for each
command and side, the samples of the provider and of the emulator, the functions with the most
samples of their own, and the most inclusive frames of the project's and the SDK's code. Needs
py-spy (``.venv/bin/pip install py-spy``) and root or ptrace rights. Run alone:

    .venv/bin/python benchmarks/provider_profile.py [--count 500] [--proxies 5] [--top 25] [--keep DIR]
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from _common import emulator_process, proxies_fixture, stop
from engine_floor import FLOOR, HERE, OURS, init_stacks, ready_cli, run
from request_floor import COMMANDS, WIRE, answering_server

PY_SPY = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")


def stacks(path: Path) -> collections.Counter[tuple[str, ...]]:
    """py-spy's raw output: one ``frame;frame;... count`` line per stack, outermost first."""
    counted: collections.Counter[tuple[str, ...]] = collections.Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            counted[tuple(stack.split(";"))] += int(count)
    return counted


def short(frame: str) -> str:
    """``function (module/file.py:line)`` without the line and the folders above the package."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")").rsplit(":", 1)[0]
    for marker in ("site-packages/", "/provider/", "/emulator/", "/lib/python3.11/"):
        if marker in where:
            where = where.split(marker, 1)[1]
    return f"{name} ({where})"


def summary(counted: collections.Counter[tuple[str, ...]], top: int) -> str:
    total = sum(counted.values()) or 1
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    for stack, count in counted.items():
        own[short(stack[-1])] += count
        for frame in {short(frame) for frame in stack}:
            inclusive[frame] += count
    # A fresh process's imports: every sample taken under the import machinery, at any depth.
    imports = sum(count for stack, count in counted.items()
                  if any("_find_and_load" in frame for frame in stack))
    lines = [f"    {total} samples, {imports} of them ({imports / total:.0%}) importing modules"]
    lines += ["    own:"] + [f"      {count / total:6.1%}  {frame}" for frame, count in own.most_common(top)]
    lines += ["    inclusive:"] + [f"      {count / total:6.1%}  {frame}"
                                   for frame, count in inclusive.most_common(top * 3)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--proxies", type=int, default=0, help="default: one per 100 endpoints")
    parser.add_argument("--parallel", type=int, default=64)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sides", default="ours,fastapi")
    parser.add_argument("--keep", type=Path, help="a folder to keep the raw profiles in")
    args = parser.parse_args()
    proxies = args.proxies or max(1, args.count // 100)
    binary = ready_cli()
    sides = args.sides.split(",")
    sources = {side: (OURS if side == "ours" else WIRE if side == "fastapi" else FLOOR).format(
        count=args.count, proxies=proxies) for side in sides}
    with tempfile.TemporaryDirectory(prefix="apinizer-profile-") as tmp, ExitStack() as servers:
        keep = args.keep or Path(tmp) / "profiles"
        keep.mkdir(parents=True, exist_ok=True)
        emulator, url = servers.enter_context(emulator_process(proxies_fixture(Path(tmp), proxies)))
        _, fastapi_url = servers.enter_context(answering_server("fastapi"))
        folders = init_stacks(binary, Path(tmp), 0, sources, url)
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE / "_profiled"),
                                                                 os.environ.get("PYTHONPATH")]))
        os.environ["APINIZER_PROFILE_PY_SPY"] = PY_SPY
        for label, command in COMMANDS:
            for side in sides:
                folder = keep / f"{label.split()[0]}-{side}"
                folder.mkdir()
                os.environ["APINIZER_PROFILE_DIR"] = str(folder)
                os.environ["WIRE_URL"] = fastapi_url
                server = subprocess.Popen(
                    [PY_SPY, "record", "--pid", str(emulator.pid), "--rate", "250", "--format", "raw",
                     "--nonblocking", "--output", str(folder / "emulator.txt")],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) if side == "ours" else None
                took = run(binary, folders[side], url,
                           (*command, "--stack", "bench", "--parallel", str(args.parallel)))
                if server is not None:
                    server.send_signal(2)  # py-spy writes its output on SIGINT
                    server.wait(timeout=60)
                for _ in range(100):  # the provider's py-spy writes once its process has exited
                    if any(folder.glob("provider-*.txt")):
                        break
                    time.sleep(0.2)
                time.sleep(1)
                print(f"== {label}, {side}: {took:.2f} s", flush=True)
                for profile in sorted(folder.glob("*.txt")):
                    print(f"  {profile.stem}:")
                    print(summary(stacks(profile), args.top), flush=True)
        os.environ.pop("APINIZER_PROFILE_DIR", None)
        stop(emulator)


if __name__ == "__main__":
    main()
