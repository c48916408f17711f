"""Where the suite's time goes, printed at the end of every run, folder by folder.

Registered by tests/conftest.py. Under pytest-xdist the controller receives every worker's reports, so
the table covers the whole run; the workers themselves print nothing. Two figures a folder: its *span*
(the first of its tests' start to the last one's end, wall clock, overlapping other folders when
workers run them side by side) and its *busy* time (its tests' own setup, call and teardown summed over
every worker: what the folder would take alone on one worker).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest


def folder_of(nodeid: str) -> str:
    """``tests/e2e/test_x.py::test_y`` -> ``tests/e2e``; a file right under the root stays itself."""
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else path


def minutes(seconds: float) -> str:
    """``4m05s``, or ``12.3s`` under a minute."""
    if seconds < 59.95:
        return f"{seconds:.1f}s"
    whole = round(seconds)
    return f"{whole // 60}m{whole % 60:02d}s"


@dataclass
class FolderTime:
    tests: int = 0
    busy: float = 0.0
    first_start: float = float("inf")
    last_stop: float = 0.0


@dataclass(eq=False)  # a pytest plugin: pluggy keeps plugins in sets, so it hashes by identity
class SuiteClock:
    started: float = field(default_factory=time.time)
    folders: dict[str, FolderTime] = field(default_factory=dict)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        folder = self.folders.setdefault(folder_of(report.nodeid), FolderTime())
        folder.busy += report.duration
        folder.first_start = min(folder.first_start, report.start)
        folder.last_stop = max(folder.last_stop, report.stop)
        if report.when == "call" or (report.when == "setup" and not report.passed):
            folder.tests += 1

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.folders:
            return
        wall = time.time() - self.started
        terminalreporter.section("suite time per folder")
        terminalreporter.write_line(f"{'folder':<24} {'tests':>6} {'span':>8} {'busy':>8}")
        for name, folder in sorted(self.folders.items(), key=lambda item: -item[1].busy):
            span = folder.last_stop - folder.first_start
            terminalreporter.write_line(
                f"{name:<24} {folder.tests:>6} {minutes(span):>8} {minutes(folder.busy):>8}"
            )
        total_busy = sum(folder.busy for folder in self.folders.values())
        total_tests = sum(folder.tests for folder in self.folders.values())
        terminalreporter.write_line(f"{'pytest, wall clock':<24} {total_tests:>6} {minutes(wall):>8} "
                                    f"{minutes(total_busy):>8}")


def register(config: pytest.Config) -> None:
    """Adds the clock to a run's controller (or the only process); an xdist worker reports to it."""
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(SuiteClock(), "apinizer-suite-clock")
