"""``Connection`` as a Pulumi program registers it (Pulumi's mocks stand in for the engine): the type
from the settings class or the dict's ``type``, and the settings of a type with secret fields secret."""

from __future__ import annotations

import asyncio
from typing import Any

import pulumi
from pulumi.runtime import rpc

import apinizer_pulumi as apinizer

from .test_resources import _registered, mocks  # noqa: F401  # the autouse fixture: Pulumi's mocks


@pulumi.runtime.test
def test_a_settings_class_gives_the_type_and_its_secrets_make_settings_secret() -> Any:
    mailer = apinizer.Connection(
        "mailer", project_name="Demo", name="mailer",
        settings=apinizer.connections.Email(host="smtp.example.com", auth=True, username="u",
                                            password="smtp-Pa55", from_="noreply@example.com"))
    log = apinizer.Connection("log", project_name="Demo", name="log",
                              settings={"type": "graylog", "hostname": "graylog.internal"})

    async def verify() -> None:
        assert await mailer.settings.is_secret()  # waits for the registrations as well
        assert not await log.settings.is_secret()
        inputs = _registered("mailer").inputs
        assert inputs["connection_type"] == "email"
        assert rpc.is_rpc_secret(inputs["settings"])
        assert rpc.unwrap_rpc_secret(inputs["settings"])["from_"] == "noreply@example.com"
        plain = _registered("log").inputs
        assert plain["connection_type"] == "graylog" and plain["settings"] == {"hostname": "graylog.internal"}

    return pulumi.Output.from_input(asyncio.ensure_future(verify()))

