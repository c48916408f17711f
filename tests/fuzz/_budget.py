"""How many generated cases the fuzzing modules run: CI's number, or fewer in the fast loop.

``bash scripts/test.sh --fast`` sets :data:`FAST_LOOP_ENV` to ``1``; every other run (CI's
``bash scripts/test.sh``, a plain ``pytest``) fuzzes with the full number. Generating the cases is
most of the fuzzing's CPU (Hypothesis drawing schema-shaped bodies), so the loop before a commit
runs fewer of the same derandomized cases, and CONTRIBUTING.md says so.
"""

from __future__ import annotations

import os

FAST_LOOP_ENV = "TESTS_FAST_LOOP"


def in_fast_loop() -> bool:
    return os.environ.get(FAST_LOOP_ENV) == "1"


def cases(full: int, fast_loop: int) -> int:
    """``full`` (CI's number), or ``fast_loop`` under ``scripts/test.sh --fast``."""
    if fast_loop > full:
        raise ValueError(f"the fast loop's {fast_loop} cases would be more than CI's {full}")
    return fast_loop if in_fast_loop() else full
