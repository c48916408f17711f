from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from apinizer_pulumi.client import ApinizerClient

from ._fake_gateway import FakeGateway, make_client


@pytest.fixture(autouse=True)
def _no_apinizer_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings from the developer's shell must not leak into unit tests."""
    for name in list(os.environ):
        if name.startswith("APINIZER_"):
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def _no_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unit tests talk to MockTransport only; an outgoing connection is a bug in the test."""

    def refuse(self: socket.socket, address: object) -> None:
        self.close()
        raise RuntimeError(f"unit tests must not open network connections (tried {address!r})")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


@pytest.fixture
def gateway() -> FakeGateway:
    return FakeGateway()


@pytest.fixture
def client(gateway: FakeGateway) -> Iterator[ApinizerClient]:
    with make_client(gateway) as c:
        yield c


@pytest.fixture
def cc_client(gateway: FakeGateway) -> Iterator[ApinizerClient]:
    """A client that logs in with username and password."""
    with make_client(gateway, credentials=True) as c:
        yield c
