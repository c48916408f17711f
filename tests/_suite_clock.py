"""Where the suite's time goes, printed at the end of every run, folder by folder.

Registered by tests/conftest.py. Under pytest-xdist the controller receives every worker's reports, so
the table covers the whole run; the workers themselves print nothing. Two figures a folder: its *span*
(the first of its tests' start to the last one's end, wall clock, overlapping other folders when
workers run them side by side) and its *busy* time (its tests' own setup, call and teardown summed over
every worker: what the folder would take alone on one worker). And its *cpu*: the CPU time, user and
system, that its tests' setup, call and teardown cost the process running them and that process's
children (the servers a test starts, the provider servers forked for it), whatever else shares the
machine: the figure to compare between runs on a loaded machine, where wall clocks are not.
"""

from __future__ import annotations

import os
import resource
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


CPU = "cpu"


def _children_cpu(pid: str) -> float:
    """A running child's CPU time, with that of its own children it has waited for (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # utime, stime, cutime, cstime: fields 14 to 17 of proc(5), the 12th to 15th after the name
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    """This process's CPU time, with its children's: those waited for and those still running."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:  # not Linux: the running children are left out
        return total
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as children:
                total += sum(_children_cpu(pid) for pid in children.read().split())
        except OSError:
            continue
    return total


@dataclass(eq=False)
class CpuMeter:
    """In the process that runs the tests: each report gets the CPU time spent since the last one."""

    last: float = 0.0

    def pytest_runtest_logstart(self) -> None:
        self.last = cpu_seconds()

    @pytest.hookimpl(tryfirst=True)  # before the xdist worker sends the report, and before the clock
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        now = cpu_seconds()
        report.user_properties.append((CPU, now - self.last))
        self.last = now


@dataclass
class FolderTime:
    tests: int = 0
    busy: float = 0.0
    cpu: float = 0.0
    first_start: float = float("inf")
    last_stop: float = 0.0


@dataclass(eq=False)  # a pytest plugin: pluggy keeps plugins in sets, so it hashes by identity
class SuiteClock:
    started: float = field(default_factory=time.time)
    folders: dict[str, FolderTime] = field(default_factory=dict)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        folder = self.folders.setdefault(folder_of(report.nodeid), FolderTime())
        folder.busy += report.duration
        folder.cpu += sum(value for name, value in report.user_properties if name == CPU)
        folder.first_start = min(folder.first_start, report.start)
        folder.last_stop = max(folder.last_stop, report.stop)
        if report.when == "call" or (report.when == "setup" and not report.passed):
            folder.tests += 1

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.folders:
            return
        wall = time.time() - self.started
        terminalreporter.section("suite time per folder")
        terminalreporter.write_line(f"{'folder':<24} {'tests':>6} {'span':>8} {'busy':>8} {'cpu':>8}")
        for name, folder in sorted(self.folders.items(), key=lambda item: -item[1].busy):
            span = folder.last_stop - folder.first_start
            terminalreporter.write_line(f"{name:<24} {folder.tests:>6} {minutes(span):>8} "
                                        f"{minutes(folder.busy):>8} {minutes(folder.cpu):>8}")
        total_busy = sum(folder.busy for folder in self.folders.values())
        total_cpu = sum(folder.cpu for folder in self.folders.values())
        total_tests = sum(folder.tests for folder in self.folders.values())
        terminalreporter.write_line(f"{'pytest, wall clock':<24} {total_tests:>6} {minutes(wall):>8} "
                                    f"{minutes(total_busy):>8} {minutes(total_cpu):>8}")


def register(config: pytest.Config) -> None:
    """Adds the clock to a run's controller (or the only process), which an xdist worker reports to,
    and the CPU meter to the process that runs the tests (a worker, or the only process)."""
    worker = hasattr(config, "workerinput")
    if not worker:
        config.pluginmanager.register(SuiteClock(), "apinizer-suite-clock")
    if worker or not getattr(config.option, "numprocesses", None):
        config.pluginmanager.register(CpuMeter(), "apinizer-cpu-meter")
