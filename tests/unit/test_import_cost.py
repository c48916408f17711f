"""What a Pulumi program pays to import the resources: modules counted, never timed."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("httpx", "pydantic", "apinizer_pulumi.client", "apinizer_pulumi.models",
         "apinizer_pulumi.resources._reads")
HTTPX_CLI = ("click", "pygments", "rich", "httpx._main")


def loaded_after(statement: str, names: tuple[str, ...]) -> list[str]:
    code = (f"import json, sys\n{statement}\n"
            f"print(json.dumps([n for n in {list(names)!r} if n in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_declaring_an_endpoint_imports_no_client_models_pydantic_or_httpx() -> None:
    assert loaded_after("from apinizer_pulumi import Endpoint", HEAVY) == []
    assert loaded_after("import apinizer_pulumi as apinizer; apinizer.Endpoint", HEAVY) == []


def test_declaring_an_endpoint_imports_no_other_resource_kind() -> None:
    others = ("apinizer_pulumi.resources.endpoint_cache", "apinizer_pulumi.resources.endpoint_wsa",
              "apinizer_pulumi.resources.rlcl_endpoints", "apinizer_pulumi.resources.functions")
    assert loaded_after("from apinizer_pulumi import Endpoint", others) == []


def test_the_client_imports_httpx_without_its_command_line() -> None:
    assert loaded_after("import apinizer_pulumi.client", HTTPX_CLI) == []
    assert loaded_after("from apinizer_pulumi.client import ApinizerClient", ("httpx",)) == ["httpx"]


def test_the_provider_still_loads_everything_it_needs_on_first_use() -> None:
    statement = ("from apinizer_pulumi.resources.endpoint import EndpointProvider\n"
                 "EndpointProvider.inputs_model.model_validate({'project_name': 'P', 'api_proxy_name': 'A',"
                 " 'name': '/n', 'http_method': 'GET', 'backend_resource_url': '/b',"
                 " 'backend_http_method': 'GET'})")
    needed = ["pydantic", "apinizer_pulumi.models"]
    assert loaded_after(statement, tuple(needed)) == needed
