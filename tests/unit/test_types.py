"""The enumerated inputs are ``Literal`` types: mypy flags a value outside them where it is written."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import get_args

import pytest

from apinizer_pulumi import models
from apinizer_pulumi.resources import _types

ROOT = Path(__file__).resolve().parents[2]
MYPY = (sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
        "--hide-error-context", "--show-error-codes")


#: Where the files that the tests give mypy are written: one path per file, the same in every run.
#: The runs share the repository's mypy cache (pulumi and pydantic in it: a start takes seconds instead
#: of 20-40 s), and mypy 2 takes a module whose text is unchanged from that cache with its errors
#: under the path of the run that checked it. A file at a new path every run (a pytest ``tmp_path``)
#: got the last run's errors under the last run's path, so its own lines read clean: a bad case
#: passed as good, and a wrong value went unflagged, depending on which test had last written the
#: cache's module of that name. So each file keeps one path, and its name is its test module's.
CHECKED = ROOT / ".mypy_cache" / "checked-by-tests"


def checked_files(owner: str, sources: Mapping[str, str]) -> dict[str, Path]:
    """Each ``sources`` text, by its key, in ``CHECKED/<owner>/<owner>_<key>.py`` (a module name of its
    own in the shared cache); a file is written only when its text changed, so an unchanged one is
    taken from the cache as is."""
    folder = CHECKED / owner
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for key, text in sources.items():
        files[key] = written_if_changed(folder / f"{owner}_{key}.py", text)
    return files


def written_if_changed(path: Path, text: str) -> Path:
    """``path`` holding ``text``, written only when it held something else (an unchanged file is taken
    from mypy's cache as is), whole or not at all: another pytest session may be reading it."""
    if not path.is_file() or path.read_text() != text:
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(path)
    return path


def mypy(*paths: Path) -> subprocess.CompletedProcess[str]:
    # Run from the repository root so the project's mypy cache (pulumi, pydantic) is reused.
    return subprocess.run([*MYPY, *map(str, paths)], cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("enum_name", sorted(_types.PAIRS))
def test_each_literal_holds_exactly_its_enums_values(enum_name: str) -> None:
    enum: type[StrEnum] = getattr(models, enum_name)
    assert get_args(_types.PAIRS[enum_name]) == tuple(member.value for member in enum)


GOOD = """
    import pulumi

    import apinizer_pulumi as apinizer
    from apinizer_pulumi.models import CacheStorageType, HttpMethod

    ep = apinizer.Endpoint("e", project_name="Demo", api_proxy_name="PetStore", name="/x",
                           http_method="GET", backend_resource_url="/x", backend_http_method=HttpMethod.POST)
    apinizer.EndpointCache(
        "c", project_name="Demo", api_proxy_name="PetStore", endpoint_name=ep.name,
        endpoint_http_method=ep.http_method,  # an Output of the endpoint flows in
        cache_settings=apinizer.CacheSettingsArgs(
            name="c", handling_action="STOP", cache_key_type="CUSTOM",
            cache_storage_type=CacheStorageType.LOCAL,
            variable_list=[apinizer.VariableArgs(name="v", type="PARAMETER", param_type="QUERY",
                                                 param_name="q")],
        ),
    )
    apinizer.EndpointWsa("w", project_name="Demo", api_proxy_name="Calculator", endpoint_name="Add",
                         endpoint_http_method=pulumi.Output.from_input("POST"),
                         wsa_settings=apinizer.WsaSettingsArgs(wsa_must_understand="TRUE",
                                                               wsa_version="V200408"))
    apinizer.Rlcl("r", project_name="Demo", name="Gold", execution_order="LAST",
                  cache_error_handling_type="CONTINUE", time_interval_window_type="SLIDING")
    apinizer.RlclEndpoints("l", project_name="Demo", rlcl_name="Gold", endpoints=[
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="PetStore", endpoint_name="ALL", endpoint_http_method="ALL",
            permitted_message_count=5,
            time_interval_period_length=1, time_interval="ONE_MINUTE", cache_connection_timeout_in_seconds=3,
            cache_error_handling_type="FAIL", time_interval_window_type="FIXED",
            target_variable=apinizer.VariableArgs(name="t", type="CONTEXT_VALUES",
                                                  context_value="DATETIME_HOUR", zone_id="UTC"),
        ),
    ])
"""

#: Each line is a wrong value of one enumerated input, and the argument mypy must name.
BAD = {
    'http_method="FETCH"': "http_method",
    'backend_http_method="get"': "backend_http_method",
    'cache_storage_type="REDIS"': "cache_storage_type",
    'handling_action="SKIP"': "handling_action",
    'time_interval="ONE_WEEK"': "time_interval",
    'type="COOKIE"': "type",
    'wsa_version="2008"': "wsa_version",
    'execution_order="MIDDLE"': "execution_order",
}


BAD_SOURCE = (textwrap.dedent(GOOD)
              .replace('http_method="GET"', 'http_method="FETCH"')
              .replace("backend_http_method=HttpMethod.POST", 'backend_http_method="get"')
              .replace("cache_storage_type=CacheStorageType.LOCAL", 'cache_storage_type="REDIS"')
              .replace('handling_action="STOP"', 'handling_action="SKIP"')
              .replace('time_interval="ONE_MINUTE"', 'time_interval="ONE_WEEK"')
              .replace('type="PARAMETER"', 'type="COOKIE"')
              .replace('wsa_version="V200408"', 'wsa_version="2008"')
              .replace('execution_order="LAST"', 'execution_order="MIDDLE"'))

PROGRAMS = sorted(str(path.relative_to(ROOT)) for path in [
    ROOT / "infra" / "__main__.py", *ROOT.glob("examples/*/__main__.py")])


def copy_name(program: str) -> str:
    """``examples/new-service/__main__.py`` -> ``examples_new_service``: one module name per program."""
    return Path(program).parent.as_posix().replace("/", "_").replace("-", "_")


class Checked:
    """One mypy run over many files; each test reads its own file's lines."""

    def __init__(self, result: subprocess.CompletedProcess[str]) -> None:
        # 0 (clean) or 1 (errors found); anything else is mypy failing to run, which every test must see.
        assert result.returncode in (0, 1), result.stdout + result.stderr
        self.result = result

    def errors(self, path: Path) -> list[str]:
        # mypy shows a path under its working directory (the repository's root) relative to it.
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        return [line for line in self.result.stdout.splitlines()
                if line.startswith(f"{shown}:") and ": error: " in line]


@pytest.fixture(scope="module")
def checked() -> tuple[Checked, dict[str, Path]]:
    """mypy run once over the good and bad cases and a copy of every shipped program.

    Each cold start of mypy costs 20-40 s on a loaded 2-core machine, so the module's cases share one.
    The programs are all ``__main__.py``, which mypy refuses to check together (one module name twice);
    a copy each, under its own name, type-checks the same text.
    """
    # A program's own modules beside it (examples/secured-api/pki.py) go beside its copy, under their
    # own names, as the program imports them.
    siblings = [path for program in PROGRAMS for path in (ROOT / program).parent.glob("*.py")
                if path.name != "__main__.py"]
    assert len({path.name for path in siblings}) == len(siblings), f"two programs' modules share a name: "\
                                                                   f"{siblings}"
    written = checked_files("types", {"good": textwrap.dedent(GOOD), "bad": BAD_SOURCE, **{
        copy_name(program): (ROOT / program).read_text() for program in PROGRAMS}})
    for path in siblings:
        written_if_changed(CHECKED / "types" / path.name, path.read_text())
    files = {"good": written["good"], "bad": written["bad"],
             **{program: written[copy_name(program)] for program in PROGRAMS}}
    return Checked(mypy(*files.values())), files


def test_mypy_flags_a_value_outside_the_enumeration_and_passes_the_right_ones(
        checked: tuple[Checked, dict[str, Path]]) -> None:
    result, files = checked
    assert result.errors(files["good"]) == [], result.result.stdout

    errors = result.errors(files["bad"])
    for argument in BAD.values():
        assert any(f'Argument "{argument}" to ' in line and "[arg-type]" in line for line in errors), (
            argument, result.result.stdout)
    assert len(errors) == len(BAD), result.result.stdout


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_shipped_programs_type_check(program: str, checked: tuple[Checked, dict[str, Path]]) -> None:
    result, files = checked
    assert result.errors(files[program]) == [], result.result.stdout + result.result.stderr
