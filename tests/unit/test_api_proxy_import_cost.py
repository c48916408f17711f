"""What a program that declares proxies pays to import them: modules counted, never timed."""

from __future__ import annotations

from .test_import_cost import HEAVY, loaded_after


def test_declaring_proxies_and_deployments_imports_no_client_models_pydantic_or_httpx() -> None:
    statement = ("import apinizer_pulumi as apinizer; apinizer.ApiProxy; apinizer.ApiProxyDeployment; "
                 "apinizer.RoutingArgs; apinizer.ClientRouteArgs; apinizer.CorsSettingsArgs")
    assert loaded_after(statement, HEAVY) == []
    assert loaded_after(statement, ("apinizer_pulumi.resources._proxy_inputs",)) == []
