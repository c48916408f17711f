"""A fresh provider freezes the heap before its first check builds models (``apinizer_pulumi._heap``).

The first check of a fresh provider imports pydantic, httpx and the models; CPython then ran a full
collection over the ~40,000 objects the provider server had made, 28-38 ms of the ~190 ms a fresh
provider's first check and create cost (docs/performance.md, "The request floor: a fresh
provider's start"). Frozen, they are left out of every full pass. Only the provider server freezes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from apinizer_pulumi.resources import EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._heap_provider import HeapProvider
from .conftest import ADMIN_TOKEN

#: Where pytest imports this package from (as ``provider``): the provider server must find it there too.
TESTS = Path(__file__).resolve().parents[1]

ENDPOINT = {"project_name": "Demo", "api_proxy_name": "PetStore", "name": "/heap", "http_method": "GET",
            "backend_resource_url": "/b", "backend_http_method": "GET"}


def heap_after_a_check(emulator_url: str, env: dict[str, str]) -> dict[str, object]:
    env = {"PYTHONPATH": str(TESTS), "APINIZER_SKIP_CONNECTION_CHECK": "1", **env}
    with ProviderServer({"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}, env=env) as server:
        before = Engine(server, HeapProvider(), "Heap").read("heap", {})[1]
        assert not Engine(server, EndpointProvider(), "Endpoint").check(ENDPOINT).failures
        after = Engine(server, HeapProvider(), "Heap").read("heap", {})[1]
    assert before == {"frozen": 0, "pydantic": False, "spec": "absent"}  # nothing before the first model
    assert after["pydantic"] is True
    return after


def test_the_provider_server_freezes_its_heap_at_the_first_check(emulator_url: str) -> None:
    after = heap_after_a_check(emulator_url, {})

    assert isinstance(after["frozen"], float) and after["frozen"] > 10_000  # a number on the wire
    assert after["spec"] == "collected"  # what the check made after the freeze is collected as before


def test_apinizer_gc_freeze_0_turns_it_off(emulator_url: str) -> None:
    after = heap_after_a_check(emulator_url, {"APINIZER_GC_FREEZE": "0"})

    assert after["frozen"] == 0


@pytest.mark.parametrize("module", ["apinizer_pulumi.models", "apinizer_pulumi.resources.endpoint"])
def test_a_process_other_than_the_provider_server_keeps_its_collector(module: str) -> None:
    # A program, a script or the emulator that builds models: nothing is frozen.
    code = (f"import gc, importlib; m = importlib.import_module({module!r}); "
            "m.EndpointSpec if hasattr(m, 'EndpointSpec') else m.EndpointProvider.inputs_model; "
            "import sys; assert 'pydantic' in sys.modules; print(gc.get_freeze_count())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert done.stdout.strip() == "0"
