"""The errors a person reads when the gateway is not where the settings say: one line with the URL and
the attempts, retries explained at INFO, public class paths, and under Pulumi the resource's name."""

from __future__ import annotations

import logging
import socket
import traceback

import pytest

from apinizer_pulumi import ApinizerResourceError
from apinizer_pulumi.client import APIConnectionError, ApinizerClient
from apinizer_pulumi.resources.endpoint import EndpointProvider

PATH = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"


@pytest.fixture
def closed_url() -> str:
    """A loopback port that nothing listens on: bound, then released, so connecting is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_an_unreachable_gateway_is_one_line_with_the_url_and_the_attempts(
    closed_url: str, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO, logger="apinizer_pulumi.client")
    with (
        ApinizerClient(closed_url, token="secret-token-1", max_retries=1) as client,
        pytest.raises(APIConnectionError) as caught,
    ):
        client.endpoints.list("Demo", "PetStore")
    message = str(caught.value)
    assert message.startswith(f"GET {closed_url}{PATH} failed after 2 attempts: ConnectError: ")
    assert "\n" not in message
    shown = "".join(traceback.format_exception(caught.value))
    assert shown.splitlines()[-1].startswith("apinizer_pulumi.client.APIConnectionError: GET ")
    assert "httpcore" not in shown and "During handling" not in shown and "secret-token-1" not in shown
    (retry,) = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert retry.startswith(f"retrying GET {closed_url}{PATH} in ")
    assert "(attempt 2 of 2) after ConnectError: " in retry


def test_under_pulumi_the_error_names_the_resource_and_the_cause(closed_url: str):
    props = {
        "project_name": "Demo", "api_proxy_name": "PetStore", "name": "/pets", "http_method": "GET",
        "backend_resource_url": "/pets", "backend_http_method": "GET",
        "connection": {"url": closed_url, "token": "secret-token-2"},
    }
    with pytest.raises(ApinizerResourceError) as caught:
        EndpointProvider().create(props)
    message = str(caught.value)
    assert message.startswith(f"apinizer:Endpoint GET /pets in Demo/PetStore: POST {closed_url}/apiops/")
    assert "failed after 4 attempts: ConnectError: " in message
    assert "\n" not in message and "secret-token-2" not in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    last = traceback.format_exception(caught.value)[-1]
    assert last.startswith("apinizer_pulumi.ApinizerResourceError: apinizer:Endpoint GET /pets")
