"""What a spec costs a preview, and how long its upload waits for the gateway's answer (issue 27).

A preview parses a new or changed ``spec_file`` offline with the parser the emulator also answers with
(``apinizer_pulumi.models.parse_spec``); an upload waits for its answer 60 s plus 20 s per MiB, or the
connection's timeout when that is longer. For each spec this prints its size, the best of ``--rounds``
parse times and the upload's timeout under the default 10 s: generated specs of ``--operations``
operations (``api_proxy_create.spec``: no schemas, so a floor), and any ``--spec`` files, such as
Stripe's ``openapi/spec3.json``. Run:
``.venv/bin/python benchmarks/spec_preview.py [--operations 500 2000] [--spec FILE ...] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from api_proxy_create import spec

from apinizer_pulumi.client._constants import DEFAULT_TIMEOUT, upload_timeout
from apinizer_pulumi.models import parse_spec


def measure(label: str, content: bytes, filename: str, rounds: int) -> None:
    times = []
    for round_ in range(rounds):
        # A preview's provider process parses a new or changed spec once; the parser keeps the last
        # documents it parsed (by their bytes), so each round is a document it has not seen: one
        # trailing newline more, which JSON, YAML and XML all ignore.
        unseen = content + b"\n" * (round_ + 1)
        started = time.perf_counter()
        found = parse_spec("OPEN_API", unseen, filename)
        times.append(time.perf_counter() - started)
    print(f"{label}, {len(content) / 1024:.0f} KiB: parse {min(times):.2f} s ({len(found)} endpoints), "
          f"upload timeout {upload_timeout(len(content), DEFAULT_TIMEOUT):.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--operations", type=int, nargs="*", default=[500, 2000])
    parser.add_argument("--spec", type=Path, nargs="*", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    parse_spec("OPEN_API", spec(2))  # the validator's import is paid once per process, not per spec
    for operations in args.operations:
        measure(f"{operations} generated operations", spec(operations), "spec.json", args.rounds)
    for path in args.spec:
        measure(str(path), path.read_bytes(), path.name, args.rounds)


if __name__ == "__main__":
    main()
