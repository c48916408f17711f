"""``Connection`` as a Pulumi program registers it (Pulumi's mocks stand in for the engine): the type
from the settings class or the dict's ``type``, and the secret fields of a type secret, each alone."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from google.protobuf import json_format
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockMonitor

import apinizer_pulumi as apinizer

from .test_connection_resource import secret_paths
from .test_resources import Mocks, _registered, mocked_runtime

#: Per registered resource name: its inputs as the engine receives them (each secret mark where the
#: program put it; the mocks' own copy has them moved up to the property) and its additional secret
#: outputs.
SENT: dict[str, tuple[dict[str, Any], list[str]]] = {}


class SentMonitor(MockMonitor):
    def RegisterResource(self, request: Any) -> Any:  # noqa: N802  # the gRPC method's name
        SENT[request.name] = (json_format.MessageToDict(request.object),
                              list(request.additionalSecretOutputs))
        return super().RegisterResource(request)


@pytest.fixture(autouse=True)
def mocks() -> Iterator[None]:
    """As tests/provider/test_resources.py's, with the monitor that keeps what was sent."""
    SENT.clear()
    yield from mocked_runtime(SentMonitor(Mocks()))


@pulumi.runtime.test
def test_a_settings_class_gives_the_type_and_its_secret_fields_are_secret() -> Any:
    mailer = apinizer.Connection(
        "mailer", project_name="Demo", name="mailer",
        settings=apinizer.connections.Email(host="smtp.example.com", auth=True, username="u",
                                            password="smtp-Pa55", from_="noreply@example.com"))
    hook = apinizer.Connection(
        "hook", project_name="Demo", name="hook",
        settings=apinizer.connections.Webhook(full_url="https://hooks.example.com/x", header_list=[
            apinizer.connections.WebhookHeaderArgs(name="X-Token", value="tok-Pa55")]))
    log = apinizer.Connection("log", project_name="Demo", name="log",
                              settings={"type": "graylog", "hostname": "graylog.internal"})

    async def verify() -> None:
        assert await mailer.settings.is_secret()  # the program's SDK moves a nested mark up
        await hook.settings.future()
        assert not await log.settings.is_secret()
        inputs = _registered("mailer").inputs
        assert inputs["connection_type"] == "email"
        assert rpc.unwrap_rpc_secret(inputs["settings"])["from_"] == "noreply@example.com"
        # What the engine gets: the password marked, the rest in clear, no output made secret whole.
        sent, additional = SENT["mailer"]
        assert secret_paths(sent) == {"settings.password"} and "settings" not in additional
        assert sent["settings"]["host"] == "smtp.example.com"
        sent, additional = SENT["hook"]
        assert secret_paths(sent) == {"settings.header_list"} and "settings" not in additional
        assert sent["settings"]["full_url"] == "https://hooks.example.com/x"
        plain = _registered("log").inputs
        assert plain["connection_type"] == "graylog" and plain["settings"] == {"hostname": "graylog.internal"}
        assert secret_paths(SENT["log"][0]) == set()

    return pulumi.Output.from_input(asyncio.ensure_future(verify()))
