"""What a program that declares policies pays to import them: modules counted, never timed."""

from __future__ import annotations

from .test_import_cost import HEAVY, loaded_after


def test_declaring_policies_imports_no_client_models_pydantic_or_httpx() -> None:
    statement = ("import apinizer_pulumi as apinizer; apinizer.Policy; "
                 "apinizer.policies.WhiteIp(ip_list=['10.0.0.0/8']); apinizer.policies.ApiBasedThrottling")
    assert loaded_after(statement, HEAVY) == []
    assert loaded_after(statement, ("apinizer_pulumi.resources._policy_inputs",)) == []
