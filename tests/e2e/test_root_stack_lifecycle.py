"""The root project's whole life through the Pulumi CLI: preview, up, drift, refresh, update, destroy.

Driven by the Automation API (``pulumi.automation``) on a copy of the project in a temporary directory,
with a local file backend there and the session's emulator as the dev stack's gateway. Nothing in the
repository (stack files, state) is touched.

The CLI comes from the ``pulumi_cli`` fixture (tests/e2e/conftest.py): found on PATH, or built pinned.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from pulumi import automation as auto

from apinizer_pulumi.client import ApinizerClient
from examples.harness import comparable_state

from .conftest import ROOT, PulumiCli

pytestmark = pytest.mark.e2e

STACK = "dev"
DRIFTED = ("PetStore", "/pets/search", "GET")


def counts(changes: Mapping[Any, int] | None) -> dict[str, int]:
    """An operation summary with plain string keys (``create``, ``same``...) and no zero entries."""
    return {str(getattr(op, "value", op)): n for op, n in (changes or {}).items() if n}


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The root project (Pulumi.yaml, Pulumi.dev.yaml, infra/) in a temporary directory, same venv."""
    work = tmp_path / "project"
    work.mkdir()
    settings = yaml.safe_load((ROOT / "Pulumi.yaml").read_text())
    settings["runtime"]["options"]["virtualenv"] = os.path.relpath(ROOT / ".venv", work)
    (work / "Pulumi.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    shutil.copy(ROOT / f"Pulumi.{STACK}.yaml", work / f"Pulumi.{STACK}.yaml")
    shutil.copytree(ROOT / "infra", work / "infra", ignore=shutil.ignore_patterns("__pycache__"))
    return work


@pytest.fixture
def stack(
    project_copy: Path,
    tmp_path: Path,
    emulator_url: str,
    pulumi_cli: PulumiCli,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[auto.Stack]:
    backend = tmp_path / "state"
    backend.mkdir()
    env = pulumi_cli.env(backend)
    # The Automation API runs the `pulumi` it finds on this process's PATH.
    monkeypatch.setenv("PATH", env["PATH"])
    created = auto.create_stack(
        STACK,
        work_dir=str(project_copy),
        opts=auto.LocalWorkspaceOptions(env_vars=env, secrets_provider="passphrase"),
    )
    created.set_config("apinizer:url", auto.ConfigValue(value=emulator_url))
    yield created
    # A failed test may leave resources behind; the emulator is reset for the next test anyway.
    created.workspace.remove_stack(STACK, force=True)


def test_preview_up_refresh_update_destroy(stack: auto.Stack, emulator_url: str, admin_token: str) -> None:
    with httpx.Client(base_url=emulator_url, timeout=10) as inspect:
        initial = inspect.get("/_emulator/state").json()

        # A preview of the new stack plans every resource and makes nothing.
        preview = stack.preview()
        planned = counts(preview.change_summary)
        # The stack itself, 5 endpoints, 2 caches, 1 WS-Addressing setting and 1 RLCL list.
        assert planned.get("create", 0) == 10, planned
        assert comparable_state(inspect.get("/_emulator/state").json()) == comparable_state(initial)

        up = stack.up(on_output=print)
        assert counts(up.summary.resource_changes).get("create") == 10
        ids = up.outputs["endpointIds"].value
        assert len(ids) == 5
        assert up.outputs["externallySharedProxies"].value == ["Calculator", "PetStore"]

        # A second preview finds nothing to do.
        again = counts(stack.preview().change_summary)
        assert set(again) == {"same"}, again

        # Someone edits an endpoint behind Pulumi's back: refresh reports it.
        with ApinizerClient(emulator_url, token=admin_token) as client:
            client.endpoints.update("Demo", *DRIFTED, description="edited in the console")
            refreshed = counts(stack.refresh(on_output=print).summary.resource_changes)
            assert refreshed.get("update") == 1, refreshed

            # An input change (a longer cache lifetime) and the drift are both fixed in place by up.
            stack.set_config("apinizer-gateway:cacheTtl", auto.ConfigValue(value="45"))
            updated = counts(stack.up(on_output=print).summary.resource_changes)
            assert updated.get("update") == 3, updated  # the drifted endpoint and both caches
            assert not {"create", "delete", "replace"} & set(updated), updated
            live = client.endpoints.get("Demo", *DRIFTED)
            assert live.description == "Search pets by tag"
            assert live.id == ids["PetStore GET /pets/search"]

        state = inspect.get("/_emulator/state").json()
        (demo,) = state["projects"]
        caches = [
            endpoint["cacheSettings"]
            for proxy in demo["apiProxies"]
            for endpoint in proxy["endpoints"]
            if endpoint.get("cacheSettings") and endpoint["cacheSettings"].get("cacheActive")
        ]
        assert sorted(cache["ttl"] for cache in caches) == [45, 45]

        # Destroy leaves the gateway as the fixture made it.
        destroyed = counts(stack.destroy(on_output=print).summary.resource_changes)
        assert destroyed.get("delete") == 10, destroyed
        assert comparable_state(inspect.get("/_emulator/state").json()) == comparable_state(initial)
