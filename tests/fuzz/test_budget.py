"""The fuzzing's number of cases: CI's unless the fast loop asks for fewer, never more."""

from __future__ import annotations

import pytest

from ._budget import FAST_LOOP_ENV, cases


@pytest.mark.parametrize("value", [None, "", "0", "true", "yes"])
def test_ci_and_plain_runs_fuzz_the_full_number(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv(FAST_LOOP_ENV, raising=False)
    else:
        monkeypatch.setenv(FAST_LOOP_ENV, value)
    assert cases(full=20, fast_loop=12) == 20


def test_the_fast_loop_fuzzes_its_own_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAST_LOOP_ENV, "1")
    assert cases(full=20, fast_loop=12) == 12


def test_a_fast_loop_number_above_ci_s_is_refused() -> None:
    with pytest.raises(ValueError, match="fast loop's 30 cases would be more than CI's 20"):
        cases(full=20, fast_loop=30)
