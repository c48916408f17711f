"""What a nested check failure shows of its value (resources/_check_failures.py): never a secret."""

from __future__ import annotations

from apinizer_pulumi.resources._check_failures import prefix, split


def test_a_plain_value_is_named_with_its_path() -> None:
    inputs = {"settings": {"throttling_interval": "ONE_WEEK"}, "endpoints": [{"time_interval": "X"}]}
    assert prefix("settings.throttling_interval", inputs) == "settings.throttling_interval is 'ONE_WEEK': "
    assert prefix("endpoints.0.time_interval", inputs) == "endpoints.0.time_interval is 'X': "
    assert prefix("settings.missing", inputs) == "settings.missing: "
    reason = "settings.throttling_interval is 'ONE_WEEK': Input should be 'ONE_MINUTE'"
    assert split("", reason, inputs) == ("settings.throttling_interval", "Input should be 'ONE_MINUTE'")


def test_a_value_that_may_be_secret_is_never_shown() -> None:
    # policy-api-call's header values are secret fields, and an environment variable's values may be.
    headers = {"settings": {"headers_to_be_added_before_call_list": [{"name": "X-Key", "value": "Hunter2"}]}}
    path = "settings.headers_to_be_added_before_call_list[0].value"
    assert prefix(path, headers) == f"{path}: "
    assert prefix("environment_values.test", {"environment_values": {"test": "Hunter2"}}) == (
        "environment_values.test: ")
    assert prefix("connection.url", {"connection": {"url": "x"}}) == "connection.url: "
    secret = {"settings": {"client_secret": "Hunter2"}}
    assert prefix("settings.client_secret", secret) == "settings.client_secret: "
