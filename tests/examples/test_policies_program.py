"""examples/policies: a proxy whose REQUEST pipeline runs five policies in the declared order."""

from __future__ import annotations

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.policy import pipelines

from .harness import EXAMPLES, destroy, stack_config

PROJECT_DIR = EXAMPLES / "policies"
ORDER = ["authenticate", "office-only", "per-user-limit", "reshape-request", "stamp"]


def test_the_pipeline_runs_in_the_declared_order_and_is_deployed(
    program_runner, emulator_url, admin_token, client: ApinizerClient
):
    config = stack_config(PROJECT_DIR, "dev")
    config["apinizer:url"] = emulator_url
    config["apinizer:token"] = admin_token

    run = program_runner(PROJECT_DIR, config)

    live = client.policies.list("Demo", "Payments")
    request = pipelines(live)[(("ALL", None, None), "REQUEST")]
    assert [entry.name for entry in request] == ORDER
    assert [entry.type for entry in request] == [
        "policy-auth-basic", "policy-white-ip", "policy-api-based-throttling", "policy-json-transformation",
        "policy-script"]
    assert run.outputs["policies"] == ORDER
    proxy = client.api_proxies.get("Demo", "Payments")
    lines = {(line.environment_name, line.deployed, line.redeploy_required) for line in proxy.deployment_list}
    assert lines == {("test", True, False)}

    destroy(run)
    assert "Payments" not in {summary.name for summary in client.api_proxies.list("Demo")}
