"""`pulumi import` reads a dynamic resource with its id alone: the provider server answers one line.

The guard is loaded by ``apinizer_pulumi_import_guard.pth`` at the start of the provider server's
process (``python -m pulumi.dynamic``), as the engine starts it. The test's servers are forked as such a
process (``_fork_server``), whose guard is the one a started server has (``test_fork_server.py``).
"""

from __future__ import annotations

import grpc
import pytest
from pulumi.runtime.proto import provider_pb2

from apinizer_pulumi.resources._import_guard import MESSAGE
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .test_endpoint import USERS

URN = "urn:pulumi:dev::p::pulumi-python:dynamic/apinizer:Endpoint::users"


def test_an_import_gets_one_line_saying_what_to_use(server: ProviderServer) -> None:
    with pytest.raises(grpc.RpcError) as failure:
        server.stub.Read(provider_pb2.ReadRequest(id="Demo/PetStore/GET//pets", urn=URN))

    assert failure.value.details() == MESSAGE
    assert "adopt=True" in MESSAGE and "apinizer-pulumi generate" in MESSAGE
    assert "Traceback" not in MESSAGE and "KeyError" not in MESSAGE


def test_a_refresh_still_reads(endpoints: Engine) -> None:
    id_, outs = endpoints.up(USERS)
    read_id, read_outs, _ = endpoints.read(id_, outs)
    assert read_id == id_ and read_outs["endpoint_id"] == outs["endpoint_id"]


def test_the_switch_turns_the_guard_off(emulator_url: str) -> None:
    """Off, the SDK's own failure comes back: the test notices when the SDK stops failing there."""
    unguarded = ForkedProviderServer({}, env={"APINIZER_IMPORT_GUARD": "0"})
    with unguarded, pytest.raises(grpc.RpcError) as failure:
        unguarded.stub.Read(provider_pb2.ReadRequest(id="Demo/PetStore/GET//pets", urn=URN))
    assert "KeyError: '__provider'" in failure.value.details()
