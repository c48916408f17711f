"""How the SDK's dynamic provider server reports a failed call: our errors as their one line only.

The gRPC tests (test_endpoint, test_connection, ...) see it through a real ``python -m pulumi.dynamic``;
here, the swap itself, against a stand-in for the server's module.
"""

from __future__ import annotations

import importlib.machinery
import sys
import traceback
import types

import pytest

from apinizer_pulumi._provider_server import PROVIDER_SERVER
from apinizer_pulumi.resources import ApinizerResourceError
from apinizer_pulumi.resources._errors import quiet_provider_server


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A ``__main__`` that looks like the SDK's provider server: its spec's name and ``import traceback``."""
    module = types.ModuleType("__main__")
    module.__spec__ = importlib.machinery.ModuleSpec(PROVIDER_SERVER, None)
    module.traceback = traceback  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "__main__", module)
    return module


def failure_text(server: types.ModuleType, error: Exception) -> str:
    """What the server's ``_abort_with_traceback`` would send to the engine for ``error``."""
    try:
        raise error
    except Exception:
        text: str = server.traceback.format_exc()
        return text


def test_our_errors_are_answered_with_their_message_alone(server: types.ModuleType) -> None:
    quiet_provider_server()
    quiet_provider_server()  # configure runs once per provider: the swap happens once

    message = "apinizer:Endpoint GET /pets in Demo/PetStore: 401 unauthorized_client: Invalid token"
    assert failure_text(server, ApinizerResourceError(message)) == message
    assert server.traceback.format_exception is traceback.format_exception
    assert sys.modules["traceback"] is traceback and traceback.format_exc is not server.traceback.format_exc


def test_any_other_error_keeps_its_traceback(server: types.ModuleType) -> None:
    quiet_provider_server()

    text = failure_text(server, KeyError("backend_resource_url"))

    assert text.startswith("Traceback (most recent call last):")
    assert text.rstrip().endswith("KeyError: 'backend_resource_url'")


def test_outside_the_provider_server_nothing_changes(server: types.ModuleType) -> None:
    server.__spec__ = importlib.machinery.ModuleSpec("pytest.__main__", None)

    quiet_provider_server()

    assert server.traceback is traceback
