"""A program that makes an RLCL and fills its endpoint list in the same run (Rlcl -> RlclEndpoints)."""

from __future__ import annotations

from pathlib import Path

from .harness import destroy

PROGRAM = '''
import apinizer_pulumi as apinizer

gold = apinizer.Rlcl("gold", project_name="Demo", name="Gold", description="Gold tier",
                     time_interval_window_type="SLIDING")
apinizer.RlclEndpoints(
    "gold-endpoints",
    project_name="Demo",
    rlcl_name=gold.name,
    endpoints=[
        apinizer.EndpointRateLimitArgs(
            api_proxy_name="PetStore", endpoint_name="/pets", endpoint_http_method="GET",
            permitted_message_count=100, time_interval_period_length=1, time_interval="ONE_MINUTE",
            cache_connection_timeout_in_seconds=3, cache_error_handling_type="FAIL",
            time_interval_window_type="SLIDING",
        ),
    ],
)
'''


def test_rlcl_endpoints_fill_an_rlcl_made_in_the_same_program(
    tmp_path: Path, program_runner, emulator_url: str, admin_token: str, inspect
):
    (tmp_path / "Pulumi.yaml").write_text("name: rlcl-program\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(PROGRAM)
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token}

    run = program_runner(tmp_path, config)

    # The list was registered after the RLCL, whose output it consumes.
    assert [r.type for r in run.mocks.registrations] == ["apinizer:Rlcl", "apinizer:RlclEndpoints"]
    assert inspect("projects/Demo/rlcl/Gold")["timeIntervalWindowType"] == "SLIDING"
    (item,) = inspect("projects/Demo/rlcl/Gold/endpoints")["endpointRateLimitList"]
    assert (item["apiProxyName"], item["endpointName"]) == ("PetStore", "/pets")
    assert item["permittedMessageCount"] == 100

    again = program_runner(tmp_path, config, previous=run)
    assert again.mocks.steps() == {"create": 0, "same": 2, "update": 0}

    destroy(run)
    assert "Gold" not in [r["name"] for r in inspect("state")["projects"][0]["rlcls"]]
