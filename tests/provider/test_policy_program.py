"""``Policy`` as a Pulumi program registers it (Pulumi's mocks stand in for the engine): the secret fields
of a type secret, each alone, and the revision a secret output (a digest of them)."""

from __future__ import annotations

from typing import Any

import pulumi

import apinizer_pulumi as apinizer

from .test_connection_resource import secret_paths
from .test_connection_resource_program import SENT, mocks  # noqa: F401  # the autouse fixture: the mocks


@pulumi.runtime.test
def test_only_the_secret_fields_are_sent_secret_and_the_revision_is_a_secret_output() -> Any:
    login = apinizer.Policy(
        "login", project_name="Demo", api_proxy_name="Orders", name="login", pipeline="REQUEST",
        settings=apinizer.policies.Oidc(
            issuer="https://id.example.com", authorization_endpoint="https://id.example.com/auth",
            token_endpoint="https://id.example.com/token", client_id="orders", client_secret="Oidc-S3cret",
            redirect_uri="https://api.example.com/cb"))
    users = apinizer.Policy(
        "users", project_name="Demo", api_proxy_name="Orders", name="users", pipeline="REQUEST",
        policy_type="policy-api-authentication",
        settings={"auth_type": "BASIC",
                  "api_auth_cond_expression_list": [{"username": "u", "password": "Pa55"}]})
    ips = apinizer.Policy("ips", project_name="Demo", api_proxy_name="Orders", name="ips", pipeline="REQUEST",
                          settings=apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8"]))

    async def verify() -> None:
        assert await login.settings.is_secret()  # the program's SDK moves a nested mark up
        await users.settings.future()
        assert not await ips.settings.is_secret()
        # What the engine gets: the secret marked (a list holding one, whole), the rest in clear.
        sent, additional = SENT["login"]
        assert secret_paths(sent) == {"settings.client_secret"}
        assert "revision" in additional and "settings" not in additional
        assert sent["settings"]["client_id"] == "orders"
        sent, additional = SENT["users"]
        assert secret_paths(sent) == {"settings.api_auth_cond_expression_list"}
        assert "revision" in additional and "settings" not in additional
        assert sent["settings"]["auth_type"] == "BASIC"
        sent, additional = SENT["ips"]
        assert secret_paths(sent) == set() and "revision" not in additional

    return verify()
