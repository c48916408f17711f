"""A program that ``apinizer-pulumi generate`` wrote from the live gateway, run by the real Pulumi CLI.

Its first ``pulumi up`` only adopts (the gateway is read; the one write is a deployment's deploy, again, of
what already runs), and the next one runs with ``--expect-no-changes``. The token comes from
``APINIZER_TOKEN``; the generated stack file holds none.
``pulumi destroy`` leaves what the program adopted on the gateway (``retain_on_delete``), unless it was
generated with ``--no-retain`` or the option was dropped since.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import write_project
from examples.harness import comparable_state

from .conftest import Project, summary

FIXTURE_PROXIES = ("--proxy", "PetStore", "--proxy", "Orders", "--proxy", "Calculator")

DETAILS = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"
DEPLOY = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/"


def generate(directory: Path, emulator_url: str, token: str, *extra: str) -> Path:
    """``apinizer-pulumi generate`` as a user runs it (the console script), laid out as a project."""
    result = subprocess.run(
        [str(Path(sys.executable).with_name("apinizer-pulumi")), "generate", "--project", "Demo",
         *FIXTURE_PROXIES, "--quiet", *extra],
        capture_output=True, text=True, check=True, timeout=120,
        env={"PATH": str(Path(sys.executable).parent), "APINIZER_URL": emulator_url, "APINIZER_TOKEN": token},
    )
    return write_project(directory, result.stdout, config={"apinizer:url": emulator_url},
                         virtualenv=sys.prefix)


def state(url: str) -> dict[str, Any]:
    return comparable_state(httpx.get(f"{url}/_emulator/state", timeout=10).json())


def proxies_of(snapshot: dict[str, Any]) -> list[str]:
    (demo,) = [project for project in snapshot["projects"] if project["name"] == "Demo"]
    return [item["name"] for item in demo["apiProxies"]]


def endpoints_of(snapshot: dict[str, Any], proxy: str) -> dict[tuple[str, str], dict[str, Any]]:
    (demo,) = [project for project in snapshot["projects"] if project["name"] == "Demo"]
    (found,) = [item for item in demo["apiProxies"] if item["name"] == proxy]
    return {(e["httpMethod"], e["endpoint"]): e for e in found["endpoints"]}


def test_generated_program_adopts_the_gateway_and_destroy_leaves_it(
    tmp_path: Path, make_project: Any, emulator_url: str, admin_token: str
) -> None:
    # One stack's whole life: the adopting up (a deployed proxy with its deployment), an up and a refresh
    # that change nothing, an undeployment in the console repaired, then destroy.
    credentials = {"APINIZER_TOKEN": admin_token}
    with ApinizerClient(emulator_url, token=admin_token) as client, \
            httpx.Client(base_url=emulator_url, timeout=10) as inspect:
        client.api_proxies.deploy("Demo", "Orders", "test")
        source = generate(tmp_path / "source-retained", emulator_url, admin_token)
        assert '"demo-orders-test": apinizer.ApiProxyDeployment(' in (source / "__main__.py").read_text()
        project: Project = make_project(source, name="retained")
        before = state(emulator_url)
        pets = endpoints_of(before, "PetStore")[("GET", "/pets")]
        assert pets["requestPolicyList"], "the fixture's GET /pets has policies"
        inspect.post("/_emulator/stats/reset", json={}).raise_for_status()

        adopted = project.run("up", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
        # The stack, its six endpoints, three proxies and the one deployment, each a "create" that is an
        # adoption.
        assert summary(adopted.stdout).get("created") == 11, adopted.stdout
        requests = inspect.get("/_emulator/stats").json()["requests"]
        # Reads, and the deployment's create, which deploys what already runs to test once more (a
        # deployment has no adopt): the gateway's state does not move.
        assert requests.pop(DEPLOY, None) == 1, requests
        assert set(requests) <= {
            DETAILS,
            "GET /apiops/environments/{projectName}",
            "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/",
            "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/",
        }, requests
        assert state(emulator_url) == before

        inspect.post("/_emulator/stats/reset", json={}).raise_for_status()
        project.run("up", "--yes", "--expect-no-changes", "--stack", project.stack, env=credentials)
        # Only the connection check of each provider process (the preview's and the update's), and in each
        # the deployment's one read of the project's environments.
        assert inspect.get("/_emulator/stats").json()["requests"] == {
            "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/": 2,
            "GET /apiops/environments/{projectName}": 2}
        project.run("refresh", "--yes", "--expect-no-changes", "--stack", project.stack, env=credentials)

        # Undeployed in the console: refresh sees it, up deploys again.
        client.api_proxies.undeploy("Demo", "Orders", "test")
        project.run("refresh", "--yes", "--stack", project.stack, env=credentials)
        project.run("up", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
        lines = client.api_proxies.get("Demo", "Orders").deployment_list
        assert {d.environment_name: d.deployed for d in lines}.get("test") is True
        kept = state(emulator_url)

        destroyed = project.run("destroy", "--yes", "--skip-preview", "--stack", project.stack,
                                env=credentials)
        assert summary(destroyed.stdout).get("deleted") == 11, destroyed.stdout  # out of the state only

        # retain_on_delete: destroy neither undeploys nor deletes what was adopted. Every endpoint the program
        # took over is on the gateway as it was, GET /pets with its policies.
        after = state(emulator_url)
        assert endpoints_of(after, "PetStore")[("GET", "/pets")] == pets
        assert after == kept
        proxy = client.api_proxies.get("Demo", "Orders")
        assert [d.environment_name for d in proxy.deployment_list if d.deployed] == ["test"]
    assert project.run("stack", "export", "--stack", project.stack).json()["deployment"].get("resources") \
        in (None, [])


def test_no_retain_and_a_dropped_option_let_destroy_delete(
    tmp_path: Path, make_project: Any, emulator_url: str, admin_token: str
) -> None:
    credentials = {"APINIZER_TOKEN": admin_token}
    # As docs/generate.md says: generated with the option, which is then dropped and applied with
    # `pulumi up`; destroy then deletes.
    source = generate(tmp_path / "source-dropped", emulator_url, admin_token)
    project: Project = make_project(source, name="dropped")
    project.run("up", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
    main = project.directory / "__main__.py"
    option = "        opts=pulumi.ResourceOptions(retain_on_delete=True),\n"
    assert main.read_text().count(option) == 9  # six endpoints and three proxies
    main.write_text(main.read_text().replace(option, ""))
    # Generated with --no-retain, the program is that same program (less the `import pulumi` only the
    # option used): its destroy is the one below.
    no_retain = generate(tmp_path / "source-no-retain", emulator_url, admin_token, "--no-retain")
    code = [program.read_text().split('"""', 2)[2] for program in (main, no_retain / "__main__.py")]
    assert code[1] == code[0].replace("import pulumi\n", "")
    project.run("up", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
    project.run("destroy", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
    # The adopted proxies too: deleting a proxy deletes its endpoints (SOAP operations included).
    assert not {"PetStore", "Orders", "Calculator"} & set(proxies_of(state(emulator_url)))
