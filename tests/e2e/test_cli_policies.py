"""Policies under the real ``pulumi`` CLI: add, reorder, change in place, replace by type, drift from the
console repaired, destroy; and a bad policy refused at preview, naming the field.

The program declares the policies that the stack config ``policies`` (JSON) lists, each with its type's
settings class, so each step changes the config and runs ``up`` as a user would.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.policy import find_policy, pipelines

from .conftest import Project, summary

PROXY = "Orders"
PROGRAM = """
import json

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
for item in json.loads(config.require("policies")):
    settings = apinizer.policies.POLICY_ARGS[item["type"]](**item["settings"])
    apinizer.Policy(
        item.get("resource", item["name"]),
        project_name="Demo",
        api_proxy_name="Orders",
        name=item["name"],
        pipeline="REQUEST",
        order=item["order"],
        settings=settings,
    )
"""


def white_ip(name: str, order: int, *ips: str) -> dict[str, Any]:
    return {"name": name, "type": "policy-white-ip", "order": order,
            "settings": {"ip_list": list(ips or ("10.0.0.0/8",))}}


def script(name: str, order: int) -> dict[str, Any]:
    return {"name": name, "type": "policy-script", "order": order,
            "settings": {"script_language": "GROOVY", "script_body": "return"}}


@pytest.fixture
def stack(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Callable[..., Project]:
    def make() -> Project:
        source = tmp_path / "source"
        source.mkdir()
        (source / "Pulumi.yaml").write_text("name: policy-life\nruntime: python\n")
        (source / "__main__.py").write_text(textwrap.dedent(PROGRAM))
        project: Project = make_project(source, name="policy-life")
        project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})
        return project

    return make


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


def declare(project: Project, *policies: dict[str, Any], secret: bool = False) -> None:
    project.set_config("policies", json.dumps(list(policies)), secret=secret)


def request_pipeline(client: ApinizerClient) -> list[tuple[str, str]]:
    live = client.policies.list("Demo", PROXY)
    return [(str(entry.name), str(entry.type)) for entry in pipelines(live)[(("ALL", None, None), "REQUEST")]]


def test_policies_through_their_whole_life(stack: Callable[..., Project], client: ApinizerClient) -> None:
    project = stack()

    # Add: two policies, in order.
    declare(project, white_ip("office", 1), script("stamp", 2))
    up = project.up()
    assert summary(up.stdout) == {"created": 3}, up.stdout
    assert request_pipeline(client) == [("office", "policy-white-ip"), ("stamp", "policy-script")]
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    # Reorder: each moved in place.
    declare(project, white_ip("office", 2), script("stamp", 1))
    reordered = project.up()
    assert summary(reordered.stdout) == {"updated": 2, "unchanged": 1}, reordered.stdout
    assert [name for name, _ in request_pipeline(client)] == ["stamp", "office"]

    # A type-specific field changed in place.
    declare(project, white_ip("office", 2, "192.0.2.0/24"), script("stamp", 1))
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 2}, changed.stdout
    office = find_policy(client.policies.list("Demo", PROXY), "office")
    assert office is not None and office.policy.ip_list == ["192.0.2.0/24"]  # type: ignore[attr-defined]

    # Replace by type: the script becomes an IP list under the same name, at the same place.
    declare(project, white_ip("office", 2, "192.0.2.0/24"), white_ip("stamp", 1, "198.51.100.0/24"))
    replaced = project.up()
    assert summary(replaced.stdout) == {"replaced": 1, "unchanged": 2}, replaced.stdout
    assert request_pipeline(client) == [("stamp", "policy-white-ip"), ("office", "policy-white-ip")]
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    # Drift from the console: office disabled, its list changed and moved first; refresh sees it,
    # up puts it back.
    live = find_policy(client.policies.list("Demo", PROXY), "office")
    assert live is not None
    client.policies.update("Demo", PROXY, "office",
                           live.policy.model_copy(update={"active": False, "ip_list": ["0.0.0.0/0"]}),
                           {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False, "order": 1})
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated", 0) >= 1, refreshed.stdout
    repaired = project.up()
    assert summary(repaired.stdout).get("updated", 0) >= 1, repaired.stdout
    assert [name for name, _ in request_pipeline(client)] == ["stamp", "office"]
    office = find_policy(client.policies.list("Demo", PROXY), "office")
    assert office is not None and office.policy.active is True
    assert office.policy.ip_list == ["192.0.2.0/24"]  # type: ignore[attr-defined]
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    # Destroy: both gone.
    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 3}, destroyed.stdout
    assert request_pipeline(client) == []


def test_a_bad_policy_is_refused_at_preview_naming_the_field(
        stack: Callable[..., Project], client: ApinizerClient) -> None:
    project = stack()
    declare(project, {"name": "limit", "type": "policy-api-based-throttling", "order": 1, "settings": {
        "target_variable_for_identity": {"type": "HEADER", "header_name": "X-Key"},
        "message_count_for_interval": 10, "throttling_interval": "ONE_WEEK"}})
    preview = project.preview(check=False)
    assert preview.returncode != 0, preview.output
    assert "settings.throttling_interval" in preview.stdout and "ONE_MINUTE" in preview.stdout, preview.stdout
    assert request_pipeline(client) == []


def test_a_secret_field_is_never_in_the_state_in_clear_text(
        stack: Callable[..., Project], client: ApinizerClient) -> None:
    from apinizer_pulumi.models._policy_registry import POLICY_TYPES
    from apinizer_pulumi.resources.policy import settings_of

    data = Path(__file__).parents[1] / "unit" / "data" / "policy_doc_examples.json"
    examples = json.loads(data.read_text())
    bodies = [example["body"].get("policy", example["body"])
              for page in examples.values() for example in page if isinstance(example.get("body"), dict)]
    policy = next(body for body in bodies if body.get("type") == "policy-api-call"
                  and body.get("headersToBeAddedBeforeCallList"))
    settings = settings_of(POLICY_TYPES["policy-api-call"].model_validate(policy))
    settings["headers_to_be_added_before_call_list"][0]["value"] = "Bearer tok-e2e-secret-value"
    project = stack()
    # The config that carries it is a secret too: the program's input is what is tested, not the config.
    declare(project, {"name": "call", "type": "policy-api-call", "order": 1, "settings": settings},
            secret=True)

    up = project.up()
    assert summary(up.stdout) == {"created": 2}, up.stdout
    assert "tok-e2e-secret-value" not in up.output
    assert "tok-e2e-secret-value" not in project.export()
    live = find_policy(client.policies.list("Demo", PROXY), "call")
    assert live is not None
    headers = live.policy.headers_to_be_added_before_call_list  # type: ignore[attr-defined]
    assert headers[0].value == "Bearer tok-e2e-secret-value"
    project.destroy("--skip-preview")
