"""Drive the SDK's dynamic provider server over gRPC the way the Pulumi engine does.

For tests and benchmarks, without the Pulumi CLI: :class:`ProviderServer` starts the server,
:class:`Engine` plays the engine's part for one resource kind.

The server is the process the engine launches for ``pulumi-python:dynamic`` resources:
``python -m pulumi.dynamic``, which prints its port and serves the ResourceProvider service.
Properties go through the SDK's own ``rpc.serialize_properties`` / ``deserialize_properties``
and the ``__provider`` value is the SDK's own ``serialize_provider`` of a provider object.
"""

from __future__ import annotations

import asyncio
import copy
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import struct_pb2
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

PROVIDER_KEY = "__provider"
UNKNOWN = rpc.UNKNOWN


def serialize(props: dict[str, Any]) -> struct_pb2.Struct:
    return asyncio.run(rpc.serialize_properties(props, {}))


def deserialize(struct: struct_pb2.Struct, *, keep_unknowns: bool = False) -> dict[str, Any]:
    props = rpc.deserialize_properties(struct, keep_unknowns)
    return {key: value for key, value in props.items() if key != PROVIDER_KEY}


def _encode_unknowns(value: Any) -> Any:
    from pulumi.output import Unknown

    if isinstance(value, Unknown):
        return UNKNOWN
    if isinstance(value, dict):
        return {key: _encode_unknowns(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_encode_unknowns(item) for item in value]
    return value


@dataclass
class Checked:
    inputs: dict[str, Any]
    failures: dict[str, str]


class ProviderServer:
    """One ``python -m pulumi.dynamic`` subprocess and a stub connected to it."""

    def __init__(self, config: dict[str, str], *, env: dict[str, str] | None = None) -> None:
        environ = {key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")}
        environ.update(env or {})
        environ.setdefault("PULUMI_PROJECT", "apinizer-tests")
        self.process = self.start_process(environ)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().decode().strip()
        if not line.isdigit():
            self.stop()
            raise RuntimeError(f"dynamic provider server did not start: {line!r}")
        self.channel = grpc.insecure_channel(f"127.0.0.1:{line}")
        self.stub = provider_pb2_grpc.ResourceProviderStub(self.channel)
        try:
            self.configure(config)
        except BaseException:
            self.stop()
            raise

    def start_process(self, environ: dict[str, str]) -> subprocess.Popen[bytes]:
        """The server's process, its port on the first line of its stdout (tests start it faster)."""
        return subprocess.Popen(
            [sys.executable, "-m", "pulumi.dynamic"],
            stdout=subprocess.PIPE,
            # Inherited: a pipe nobody reads could fill up and stall the server.
            stderr=None,
            env=environ,
        )

    def configure(self, config: dict[str, str]) -> None:
        """Configure as the engine does: config as variables and as args, namespaced keys."""
        self.stub.Configure(provider_pb2.ConfigureRequest(
            variables=config, args=serialize(dict(config)), acceptSecrets=True, acceptResources=True,
        ))

    def __enter__(self) -> ProviderServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Close the channel and end the server process."""
        if hasattr(self, "channel"):
            self.channel.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class Engine:
    """The engine's side of the protocol for one provider kind."""

    def __init__(self, server: ProviderServer, provider: Any, type_name: str) -> None:
        self.stub = server.stub
        self.blob = serialize_provider(provider)
        self.urn_type = f"pulumi-python:dynamic/apinizer:{type_name}"

    def on(self, server: ProviderServer) -> Engine:
        """The same kind's engine on another provider server: the next operation's process."""
        other = copy.copy(self)
        other.stub = server.stub
        return other

    def _props(self, props: dict[str, Any]) -> struct_pb2.Struct:
        return serialize({**props, PROVIDER_KEY: self.blob})

    def urn(self, name: str) -> str:
        return f"urn:pulumi:test::apinizer-tests::{self.urn_type}::{name}"

    def check(self, news: dict[str, Any], olds: dict[str, Any] | None = None, name: str = "r") -> Checked:
        from ._check_failures import split

        sent = self._props(news)
        response = self.stub.Check(provider_pb2.CheckRequest(
            urn=self.urn(name), olds=self._props(olds or {}), news=sent,
        ))
        inputs = _encode_unknowns(deserialize(response.inputs, keep_unknowns=True))
        # Keyed by the path each names, nested ones included (sent without a property: _check_failures),
        # whose values are as the provider got them (numbers as floats).
        received = deserialize(sent, keep_unknowns=True)
        failures = dict(split(failure.property, failure.reason, received) for failure in response.failures)
        return Checked(inputs, failures)

    def checked(self, news: dict[str, Any]) -> dict[str, Any]:
        result = self.check(news)
        assert result.failures == {}, result.failures
        return result.inputs

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any], name: str = "r") -> Any:
        return self.stub.Diff(provider_pb2.DiffRequest(
            id=id_, urn=self.urn(name), olds=self._props(olds), news=self._props(news),
        ))

    def create(self, inputs: dict[str, Any], name: str = "r") -> tuple[str, dict[str, Any]]:
        response = self.stub.Create(self._create_request(inputs, name))
        return response.id, deserialize(response.properties)

    def create_future(self, inputs: dict[str, Any], name: str) -> Any:
        return self.stub.Create.future(self._create_request(inputs, name))

    def _create_request(self, inputs: dict[str, Any], name: str) -> Any:
        return provider_pb2.CreateRequest(urn=self.urn(name), properties=self._props(inputs))

    def read(self, id_: str, outputs: dict[str, Any], inputs: dict[str, Any] | None = None,
             name: str = "r") -> tuple[str, dict[str, Any], dict[str, Any] | None]:
        response = self.stub.Read(provider_pb2.ReadRequest(
            id=id_, urn=self.urn(name), properties=self._props(outputs),
            inputs=self._props(inputs or outputs),
        ))
        new_inputs = deserialize(response.inputs) if response.HasField("inputs") else None
        return response.id, deserialize(response.properties), new_inputs

    def read_future(self, id_: str, outputs: dict[str, Any], name: str = "r") -> Any:
        """A Read sent without waiting (a refresh sends many at once); ``.result()`` is the response."""
        return self.stub.Read.future(provider_pb2.ReadRequest(
            id=id_, urn=self.urn(name), properties=self._props(outputs), inputs=self._props(outputs),
        ))

    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any], name: str = "r") -> dict[str, Any]:
        response = self.stub.Update(provider_pb2.UpdateRequest(
            id=id_, urn=self.urn(name), olds=self._props(olds), news=self._props(news),
        ))
        return deserialize(response.properties)

    def delete(self, id_: str, outputs: dict[str, Any], name: str = "r") -> None:
        request = provider_pb2.DeleteRequest(id=id_, urn=self.urn(name), properties=self._props(outputs))
        self.stub.Delete(request)

    def up(self, news: dict[str, Any], name: str = "r") -> tuple[str, dict[str, Any]]:
        """Check then Create, as ``pulumi up`` does for a new resource."""
        return self.create(self.checked(news), name)


DIFF_NONE = provider_pb2.DiffResponse.DIFF_NONE
DIFF_SOME = provider_pb2.DiffResponse.DIFF_SOME
