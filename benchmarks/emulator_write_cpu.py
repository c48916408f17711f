"""The writer thread's CPU per endpoint create and delete: the SQL alone, on one thread.

Runs ``endpoints.create_endpoint`` and ``endpoints.delete_endpoint`` on a store over a fresh SQLite
file, as the writer thread runs them (:meth:`Store.write`), each write alone (its own transaction)
and in groups of ``--group`` (one transaction, as the writer commits the writes waiting together).
The thread's own CPU (``time.thread_time``) moves far less with the machine's load than a served
run. ``--delete-in-transaction`` runs the delete as the routes did before it was one statement
(``one_statement=False``: BEGIN IMMEDIATE and COMMIT alone, a savepoint in a group); with
``PYTHONPATH=<other checkout>/emulator`` it measures that checkout's functions.

    .venv/bin/python benchmarks/emulator_write_cpu.py [--count 4000] [--group 32]
"""

from __future__ import annotations

import argparse
import functools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from apinizer_emulator import endpoints
from apinizer_emulator.families import FAMILIES, Backend
from apinizer_emulator.fixtures import load_fixture
from apinizer_emulator.store import Store
from apinizer_pulumi.models import EndpointSpec, HttpMethod

SPEC = {"httpMethod": "GET", "backendResourceUrl": "/b", "backendHttpMethod": "GET"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--group", type=int, default=32)
    parser.add_argument("--delete-in-transaction", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="apinizer-write-cpu-") as folder:
        store = Store(Path(folder) / "bench.db", families=FAMILIES)
        Backend(store, load_fixture(None), time.time)
        for group in (1, args.group):
            names = [f"/write-cpu-{group}-{index}" for index in range(args.count)]
            specs = [EndpointSpec.model_validate({"name": name, **SPEC}) for name in names]
            writes = (("create", functools.partial(create, store, specs)),
                      ("delete", functools.partial(delete, store, names, not args.delete_in_transaction)))
            for kind, write in writes:
                print(f"{kind}, {'alone' if group == 1 else f'in groups of {group}'}:"
                      f" {timed(store, write, args.count, group) * 1e6:.1f} us of the thread's CPU a write")
        store.close()


def create(store: Store, specs: list[EndpointSpec], index: int) -> None:
    with store.write(one_statement=True) as db:
        endpoints.create_endpoint(db, "Demo", "PetStore", specs[index])


def delete(store: Store, names: list[str], one_statement: bool, index: int) -> None:
    with store.write(one_statement=one_statement) as db:
        endpoints.delete_endpoint(db, "Demo", "PetStore", names[index], HttpMethod.GET)


def timed(store: Store, write: Callable[[int], None], count: int, group: int) -> float:
    started = time.thread_time()
    for first in range(0, count, group):
        if group == 1:
            write(first)
            continue
        with store.batch():
            for index in range(first, min(first + group, count)):
                write(index)
    return (time.thread_time() - started) / count


if __name__ == "__main__":
    main()
