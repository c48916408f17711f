"""Two stacks of one program on ONE management API, under the real ``pulumi`` CLI (docs/stacks.md).

``examples/new-service`` as it ships: the dev stack owns the definitions and their deployment to ``test``,
the prod stack only the deployment to ``production``, promoted from ``test``. One lifecycle: a prod preview
refused before ``test`` runs the proxy; both stacks created; a promotion refused while ``test`` is stale and
allowed once it is deployed again; drift in ``production`` seen and repaired by the prod stack alone; the
token rotated in both stacks' config (the old one revoked), after which ``refresh`` and ``destroy`` say to
run the program and work with ``--run-program``; and the destroy of each stack, prod first, which leaves
``test`` running.

Along the same lifecycle, each stack owns its own environment's value of one variable
(``EnvironmentVariableValue``): each stack's write leaves the other's value as it is, a refresh of one stack
finds its value whatever the other environment's is, drift of one environment's value is repaired by that
environment's stack only, and the destroy of each stack removes its own value only.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient

from .conftest import ROOT, Project, summary

EXAMPLE = ROOT / "examples" / "new-service"
EMULATOR_CLI = Path(sys.executable).with_name("apinizer-emulator")


def emulator_token(db: str, *args: str) -> str:
    done = subprocess.run([str(EMULATOR_CLI), "token", *args, "--db", db], capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.strip()


def deployments(client: ApinizerClient) -> dict[str, tuple[bool, bool]]:
    proxy = client.api_proxies.find("Demo", "Orders-v2")
    if proxy is None:
        return {}
    found = client.api_proxies.get("Demo", "Orders-v2").deployment_list
    return {line.environment_name: (line.deployed, line.redeploy_required) for line in found if line.deployed}


TEST_URL = "https://payments.sandbox.example/v1"
PRODUCTION_URL = "https://payments.example/v1"


def payments_urls(client: ApinizerClient) -> dict[str, str | None]:
    """The values of ORDERS_PAYMENTS_URL by environment ({} when the variable is gone)."""
    found = [v for v in client.environment_variables.list("Demo") if v.name == "ORDERS_PAYMENTS_URL"]
    return {item.environment_name: item.value for v in found for item in v.environment_value_list or []}


def edit_payments_url(client: ApinizerClient, environment: str, value: str) -> None:
    """A console edit of one environment's value (the console, as the API, writes the variable whole)."""
    values = {**payments_urls(client), environment: value}
    client.environment_variables.update("Demo", {
        "name": "ORDERS_PAYMENTS_URL", "global": False, "environmentValueList": [
            {"environmentName": env, "value": url, "visible": True} for env, url in values.items()]})


# One lifecycle of about twenty CLI commands, shared so that no stack is made twice: 4 to 5 minutes on the
# 2-core machine under other sessions' load (load average 15), past the suite's 300 s per test.
@pytest.mark.timeout(900)
def test_two_stacks_of_one_program_share_one_management_api(
    make_project: Any, emulator: EmulatorServer, emulator_url: str
) -> None:
    token = emulator_token(emulator.db, "create", "--user", "admin", "--name", "stacks-before")
    dev: Project = make_project(EXAMPLE, stack="dev")
    prod = Project(cli=dev.cli, directory=dev.directory, backend=dev.backend, stack="prod")
    prod.init()
    try:
        for stack in (dev, prod):
            stack.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": token})
        with ApinizerClient(emulator_url, token="dev-admin-token") as client:
            lifecycle(dev, prod, client, emulator.db)
    finally:
        prod.run("stack", "rm", "--yes", "--force", "--stack", "prod", check=False)


def lifecycle(dev: Project, prod: Project, client: ApinizerClient, db: str) -> None:
    # Before the dev stack deployed the proxy to test, there is nothing tested to promote: said at preview.
    early = prod.preview(check=False)
    assert early.returncode != 0 and "is not deployed to 'test'" in early.output, early.output

    created = dev.up()
    assert summary(created.stdout) == {"created": 7}, created.stdout
    assert payments_urls(client) == {"test": TEST_URL}
    promoted = prod.up()
    assert summary(promoted.stdout) == {"created": 3}, promoted.stdout
    assert deployments(client) == {"test": (True, False), "production": (True, False)}
    # The prod stack's value joined the variable: test's, written by the other stack, is as it was.
    assert payments_urls(client) == {"test": TEST_URL, "production": PRODUCTION_URL}
    # Each stack's up again changes nothing: prod's below, once dev put its definitions back; dev's after
    # prod's promotion below (and right after its first up in test_example_new_service.py).

    # A console edit of the definition: test no longer runs it, and the promotion is refused at preview.
    # The same console session edits test's value of the variable.
    client.api_proxies.set_client_route("Demo", "Orders-v2", {"relative_path_list": ["/orders/v2", "/o2"]})
    edit_payments_url(client, "test", "https://edited.test")
    stale = prod.preview(check=False)
    assert stale.returncode != 0, stale.output
    assert "has changed since it was deployed to 'test'" in stale.output, stale.output
    # The dev stack, which owns the definition and test's value, puts them back: what runs everywhere
    # again, nothing to promote; production's value untouched.
    dev.refresh()
    dev.up()
    assert deployments(client) == {"test": (True, False), "production": (True, False)}
    assert payments_urls(client) == {"test": TEST_URL, "production": PRODUCTION_URL}
    prod.up("--expect-no-changes")

    # A change of the definitions in the dev stack reaches test with its up, and production with prod's.
    dev.set_config("apinizer-new-service:backendUrl", "https://orders-v3.internal.example/api/v2")
    dev.up()
    assert deployments(client) == {"test": (True, False), "production": (True, True)}
    followed = prod.up()
    assert summary(followed.stdout) == {"updated": 1, "unchanged": 2}, followed.stdout
    assert deployments(client) == {"test": (True, False), "production": (True, False)}

    # Drift in production (the deployment, and production's value) is the prod stack's: its refresh sees
    # it, its up repairs it; the dev stack's refresh finds test's value as it was, and dev has nothing to do.
    client.api_proxies.undeploy("Demo", "Orders-v2", "production")
    edit_payments_url(client, "production", "https://edited.example")
    dev.refresh()
    dev.up("--expect-no-changes")
    assert payments_urls(client) == {"test": TEST_URL, "production": "https://edited.example"}
    prod.refresh()
    repaired = prod.up()
    assert summary(repaired.stdout) == {"updated": 2, "unchanged": 1}, repaired.stdout
    assert deployments(client) == {"test": (True, False), "production": (True, False)}
    assert payments_urls(client) == {"test": TEST_URL, "production": PRODUCTION_URL}

    # The token rotated in both stacks' config, the old one revoked: a refresh without the program gets
    # the recorded config and says what to run; with the program it uses the new token.
    rotated = emulator_token(db, "create", "--user", "admin", "--name", "stacks-after")
    emulator_token(db, "revoke", "--user", "admin", "--name", "stacks-before")
    for stack in (dev, prod):
        stack.set_config("apinizer:token", rotated, secret=True)
    refused = prod.refresh(check=False)
    assert refused.returncode != 0 and "pulumi refresh --run-program" in refused.output, refused.output
    assert rotated not in refused.output
    prod.refresh("--run-program")

    # Destroying the prod stack leaves everything of test running; then the dev stack goes.
    prod.destroy("--run-program")
    assert deployments(client) == {"test": (True, False)}
    assert payments_urls(client) == {"test": TEST_URL}
    dev.destroy("--run-program")
    assert client.api_proxies.find("Demo", "Orders-v2") is None
    assert payments_urls(client) == {}
