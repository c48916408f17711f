"""examples/consumers: a partner's credential with access to two proxies, an IP allow-list fed by an IP
group, and an environment variable whose value is each stack's own.

The program runs as in ``pulumi up`` (each resource handed to its real provider against the emulator),
with the dev stack's config and with the prod stack file's (its gateway moved to the test's emulator);
then a refresh after a console edit, and a destroy that leaves the gateway as the fixture had it.
"""

from __future__ import annotations

from typing import Any

from apinizer_pulumi.client import ApinizerClient

from .harness import EXAMPLES, comparable_state, destroy, refresh, stack_config

PROJECT_DIR = EXAMPLES / "consumers"
PREFIX = "apinizer-consumers"


def config_of(stack: str, emulator_url: str, token: str) -> dict[str, str]:
    config = stack_config(PROJECT_DIR, stack)
    config["apinizer:url"] = emulator_url
    config["apinizer:token"] = token
    return config


def project_state(state: dict[str, Any]) -> dict[str, Any]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    return dict(project)


def test_the_stacks_give_the_variable_different_values() -> None:
    dev, prod = stack_config(PROJECT_DIR, "dev"), stack_config(PROJECT_DIR, "prod")
    assert dev[f"{PREFIX}:partnerBackendUrl"] != prod[f"{PREFIX}:partnerBackendUrl"]


def test_dev_stack_makes_the_credential_the_allow_list_and_the_variable(
    program_runner, emulator_url, admin_token, client: ApinizerClient, inspect
) -> None:
    initial = comparable_state(inspect("state"))

    run = program_runner(PROJECT_DIR, config_of("dev", emulator_url, admin_token))

    # The partner may call exactly the two proxies.
    assert run.outputs["credential"] == "partner-app"
    assert run.outputs["access"] == ["API_PROXY Orders", "API_PROXY PetStore"]
    access = sorted((item.type, item.name) for item in client.credentials.access("Demo", "partner-app"))
    assert [name for _, name in access] == ["Orders", "PetStore"]
    # The IP group holds the partner's networks, and PetStore's allow-list takes them from it.
    demo = project_state(inspect("state"))
    (group,) = [g for g in demo["ipGroups"] if g["name"] == "PartnerNetworks"]
    assert group["ipList"] == ["203.0.113.0/24", "198.51.100.7"] == run.outputs["allowedNetworks"]
    live = client.policies.list("Demo", "PetStore")
    (allow,) = [p for p in live.request_policy_list if p.name == "allow-partner-networks"]
    assert allow.type == "policy-white-ip" and list(allow.ip_list) == group["ipList"]  # type: ignore[attr-defined]
    # The variable has the dev stack's value.
    (variable,) = [v for v in client.environment_variables.list("Demo") if v.name == "PARTNER_BACKEND_URL"]
    assert variable.global_value == "https://sandbox.partner.example/api" == run.outputs["partnerBackendUrl"]
    # The group of the two proxies, deployed to the dev stack's environment.
    assert (run.outputs["proxyGroup"], run.outputs["proxyGroupDeployed"]) == ("PartnerApis", True)
    deployed = {
        e.environment_name for e in client.api_proxy_groups.environments("Demo", "PartnerApis") if e.deployed
    }
    assert deployed == {"test"}
    # The partner's password is the gateway's alone: neither answered nor in the inspection state.
    assert "dev-only-Partner-Pa55" not in str(inspect("state"))

    # A console edit of the variable is drift that refresh sees; the rest reads back the same.
    client.environment_variables.update(
        "Demo", {"name": "PARTNER_BACKEND_URL", "global": True, "globalValue": "https://edited.example"}
    )
    verdicts = refresh(run)
    assert verdicts["partner-backend-url"] == "update"
    assert verdicts["partner"] == verdicts["partner-networks"] == "same"

    destroy(run)
    assert comparable_state(inspect("state")) == initial


def test_prod_stack_gives_the_variable_its_own_value(
    program_runner, emulator_url, admin_token, client: ApinizerClient
) -> None:
    run = program_runner(PROJECT_DIR, config_of("prod", emulator_url, admin_token))
    (variable,) = [v for v in client.environment_variables.list("Demo") if v.name == "PARTNER_BACKEND_URL"]
    assert variable.global_value == "https://api.partner.example" == run.outputs["partnerBackendUrl"]
    assert run.outputs["allowedNetworks"] == ["192.0.2.0/24"]
    deployed = {
        e.environment_name for e in client.api_proxy_groups.environments("Demo", "PartnerApis") if e.deployed
    }
    assert deployed == {"production"}
    destroy(run)
