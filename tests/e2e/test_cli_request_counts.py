"""Many endpoints created and refreshed under the real CLI: every id right, and the requests it took.

The engine sends a program's creates several at a time, as it registers them; the provider reads
their ids back from lists that the creates of one proxy share. Whatever the timing, every
``endpoint_id`` must be the gateway's id of that very endpoint, and no create may fall back to
reading one endpoint at a time. A refresh is exact: one list per proxy and one login (twice with
the preview that ``pulumi refresh`` runs first unless told ``--skip-preview``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import httpx

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source

PROXIES = ("PetStore", "Orders")  # the default fixture's REST proxies
PER_PROXY = 12
LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
CREATE = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
DETAILS = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"
TOKEN = "POST /apiops/auth/token"

PROGRAM = f"""
import pulumi
import apinizer_pulumi as apinizer

ids = {{}}
for proxy in {PROXIES!r}:
    for index in range({PER_PROXY}):
        endpoint = apinizer.Endpoint(
            f"{{proxy}}-{{index}}", project_name="Demo", api_proxy_name=proxy, name=f"/many/{{index}}",
            http_method="GET", backend_resource_url=f"/backend/{{index}}", backend_http_method="GET",
        )
        ids[f"{{proxy}} /many/{{index}}"] = endpoint.endpoint_id
pulumi.export("ids", ids)
"""


def requests(url: str) -> dict[str, int]:
    with httpx.Client(base_url=url, timeout=10) as inspect:
        counted: dict[str, int] = inspect.get("/_emulator/stats").json()["requests"]
        inspect.post("/_emulator/stats/reset", json={}).raise_for_status()
    return {key: count for key, count in counted.items() if count}


def test_many_creates_get_their_own_ids_and_a_refresh_reads_one_list_per_proxy(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    source = program_source(tmp_path / "source", "many", textwrap.dedent(PROGRAM))
    project: Project = make_project(source, name="many")
    project.configure(
        {"apinizer:url": emulator_url, "apinizer:username": "admin"}, secrets={"apinizer:password": "admin"}
    )
    requests(emulator_url)

    project.up()
    created = requests(emulator_url)
    count = len(PROXIES) * PER_PROXY
    assert created[CREATE] == count, created
    assert created[TOKEN] == 1, created
    assert DETAILS not in created, created
    assert 1 <= created[LIST] <= count, created

    with ApinizerClient(emulator_url, token=admin_token) as client:
        live = {f"{proxy} {item.endpoint}": item.id
                for proxy in PROXIES for item in client.endpoints.list("Demo", proxy)}
    requests(emulator_url)
    ids = project.outputs()["ids"]
    assert len(ids) == count
    assert ids == {key: live[key] for key in ids}

    project.refresh("--expect-no-changes", "--skip-preview")
    assert requests(emulator_url) == {LIST: len(PROXIES), TOKEN: 1}
    # With its preview, a refresh reads everything twice, in two provider processes.
    project.refresh("--expect-no-changes")
    assert requests(emulator_url) == {LIST: 2 * len(PROXIES), TOKEN: 2}
