"""Runs a Pulumi program of this repository in-process, its resources made for real on an emulator.

Pulumi's unit-test mocks (``pulumi.runtime.set_mocks``) stand in for the engine: the program runs
unchanged, and every resource it registers reaches :class:`EngineMocks.new_resource`. There, instead of
inventing outputs, each dynamic resource is handed to its own provider, unpickled from the
``__provider`` property exactly as the SDK's provider server does it, and driven the way the engine
drives a first ``pulumi up``: ``configure`` with the stack config, ``check``, then ``create``. The
gateway (an emulator from the shared fixtures) is therefore changed for real, and a test asserts its
state afterwards through the client and the emulator's inspection paths.

Each program runs in a new thread under an empty ``contextvars.Context``: the SDK keeps its settings,
root stack resource and config in context variables, so a fresh context is a fresh runtime, and the
thread gets its own event loop.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import copy
import dataclasses
import functools
import hashlib
import json
import runpy
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dill
import pulumi
import yaml
from pulumi.dynamic import ConfigureRequest
from pulumi.dynamic import ResourceProvider as DynamicProvider
from pulumi.dynamic.config import Config as DynamicConfig
from pulumi.runtime import rpc
from pulumi.runtime._serialization import _deserialize
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

from apinizer_pulumi.models import WsaSettings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PROVIDER_KEY = "__provider"
DYNAMIC_PREFIX = "pulumi-python:dynamic/"


class ProgramError(AssertionError):
    """A program that did not run to the end, or a resource the provider refused."""


def plain(value: Any) -> Any:
    """``value`` with every secret wrapper removed, as the engine hands inputs to a dynamic provider.

    A dynamic provider answers Configure with ``acceptSecrets=False``, so the engine strips secrets
    before Check and Create; the mocks must do the same.
    """
    while rpc.is_rpc_secret(value):
        value = rpc.unwrap_rpc_secret(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def secret_paths(value: Any, path: str = "") -> list[str]:
    """Dotted paths of the values that arrived marked secret (``connection.token``)."""
    if rpc.is_rpc_secret(value):
        return [path]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    found: list[str] = []
    for key, item in items:
        found.extend(secret_paths(item, f"{path}.{key}" if path else str(key)))
    return found


def load_provider(serialized: str) -> DynamicProvider:
    """Unpickle a dynamic provider the way ``python -m pulumi.dynamic`` does."""

    def deserialize() -> DynamicProvider:
        provider: DynamicProvider = dill.loads(base64.b64decode(serialized))
        return provider

    result: DynamicProvider = _deserialize(deserialize)
    return result


def configured_provider(serialized: str, config: Mapping[str, str], project: str) -> DynamicProvider:
    """The provider of a resource, configured with the stack config as the provider server does it."""
    provider = load_provider(serialized)
    provider.configure(ConfigureRequest(DynamicConfig(dict(config), project)))
    return provider


@dataclasses.dataclass
class Registration:
    """One resource the program registered, and what its provider made of it."""

    type: str
    name: str
    id: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    #: "create", "same" (diff found no change) or "update"; a replace is reported as a failure.
    step: str = "create"
    #: Inputs the program marked secret, which the engine would store encrypted.
    secrets: list[str] = dataclasses.field(default_factory=list)


class EngineMocks(pulumi.runtime.Mocks):
    """The engine's part of ``pulumi up``, for real: check then create each resource of a new stack.

    Given the registrations of an earlier run (``previous``), it does what the engine does for a stack
    that exists: check against the old inputs, diff against the old outputs, and update or leave alone.
    With ``preview``, it plans without acting, as ``pulumi preview`` does: check and diff only, and the
    checked inputs stand in for the outputs of what would be created or updated.
    """

    def __init__(
        self,
        project: str,
        config: Mapping[str, str],
        previous: list[Registration] | None = None,
        *,
        preview: bool = False,
    ) -> None:
        self.project = project
        self.config = dict(config)
        self.preview = preview
        self.previous = {(item.type, item.name): item for item in previous or []}
        self.registrations: list[Registration] = []
        self.thread_loops: set[asyncio.AbstractEventLoop] = set()
        self._lock = threading.Lock()

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        # The mock monitor gives each executor thread an event loop it never closes; remember them.
        with self._lock:
            self.thread_loops.add(asyncio.get_event_loop_policy().get_event_loop())
        if not args.typ.startswith(DYNAMIC_PREFIX):
            raise ProgramError(f"{args.name}: unexpected resource type {args.typ}")
        if args.resource_id:
            raise ProgramError(f"{args.name}: import/get of dynamic resources is not supported by the engine")
        secrets = [path for path in secret_paths(args.inputs) if path != PROVIDER_KEY]
        inputs = plain(args.inputs)
        serialized = inputs.get(PROVIDER_KEY)
        if not isinstance(serialized, str):
            raise ProgramError(f"{args.name}: no serialized provider in the resource's inputs")
        provider = configured_provider(serialized, self.config, self.project)
        kind = args.typ.removeprefix(DYNAMIC_PREFIX)
        old = self.previous.get((kind, args.name))
        checked = provider.check(dict(old.inputs) if old else {}, inputs)
        if checked.failures:
            # A nested path's failure names the path in its reason (resources/_check_failures.py).
            reasons = "; ".join(
                f"{failure.property}: {failure.reason}" if failure.property else failure.reason
                for failure in checked.failures)
            raise ProgramError(f"{args.typ} {args.name}: check failed: {reasons}")
        news = dict(checked.inputs)
        news[PROVIDER_KEY] = serialized
        if old is None and self.preview:
            step = Registration(type=kind, name=args.name, id="", inputs=news, outputs=dict(news))
        elif old is None:
            created = provider.create(news)
            step = Registration(type=kind, name=args.name, id=created.id, inputs=news,
                                outputs=dict(created.outs or {}))
        else:
            diff = provider.diff(old.id, dict(old.outputs), news)
            if diff.replaces:
                raise ProgramError(f"{args.typ} {args.name}: would be replaced because of {diff.replaces}")
            if diff.changes:
                outs = news if self.preview else provider.update(old.id, dict(old.outputs), news).outs
                step = Registration(type=kind, name=args.name, id=old.id, inputs=news,
                                    outputs=dict(outs or {}), step="update")
            else:
                step = Registration(type=kind, name=args.name, id=old.id, inputs=news,
                                    outputs=dict(old.outputs), step="same")
        step.outputs[PROVIDER_KEY] = serialized
        step.secrets = secrets
        with self._lock:
            self.registrations.append(step)
        return step.id, step.outputs

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        raise ProgramError(f"unexpected provider function call {args.token}")

    def steps(self) -> dict[str, int]:
        """How many resources were created, left alone and updated: ``pulumi up``'s summary."""
        counts = {"create": 0, "same": 0, "update": 0}
        for item in self.registrations:
            counts[item.step] += 1
        return counts

    def of_type(self, kind: str) -> list[Registration]:
        """Registrations of one kind (``apinizer:Endpoint`` ...), in registration order."""
        return [item for item in self.registrations if item.type == kind]


@dataclasses.dataclass
class ProgramRun:
    """What one run of a program left: its stack outputs and the resources it made."""

    outputs: dict[str, Any]
    mocks: EngineMocks


def new_operation() -> None:
    """Forget what the providers read: the engine starts a new provider process per operation.

    The providers here run in this process, where the lists they read (of every family), the outcome of the
    preview's connection check and the objects a create claimed would otherwise outlive the
    operation (apinizer_pulumi.resources._reads, _connection, _replace, _base).
    """
    from apinizer_pulumi.resources import _base, _replace
    from apinizer_pulumi.resources._connection import forget_proven_connections
    from apinizer_pulumi.resources._reads import forget_every_list

    forget_every_list()
    forget_proven_connections()
    # What a create of the last operation claimed (a delete would leave it to that create).
    with _replace._lock:
        _replace._claimed.clear()
    with _base._CLAIMS_LOCK:
        _base._OWNERS.clear()
        _base._CLAIMED.clear()


def _configured(run: ProgramRun, item: Registration) -> DynamicProvider:
    return configured_provider(item.outputs[PROVIDER_KEY], run.mocks.config, run.mocks.project)


def refresh(run: ProgramRun) -> dict[str, str]:
    """``pulumi refresh`` of what ``run`` made: each resource read back and compared with its state.

    Returns each resource's verdict by name: "same", "update" (the read outputs differ from the recorded
    ones: drift) or "delete" (the read found nothing, so the engine drops it from the state).
    """
    new_operation()
    verdicts: dict[str, str] = {}
    for item in run.mocks.registrations:
        read = _configured(run, item).read(item.id, dict(item.outputs))
        # Secret or not, a value is the same value: the engine compares the two with their secrets.
        recorded = {key: value for key, value in plain(item.outputs).items() if key != PROVIDER_KEY}
        live = {key: value for key, value in plain(read.outs or {}).items() if key != PROVIDER_KEY}
        if not read.id:
            verdicts[item.name] = "delete"
        else:
            verdicts[item.name] = "same" if live == recorded and read.id == item.id else "update"
    return verdicts


def destroy(run: ProgramRun) -> None:
    """``pulumi destroy`` of what ``run`` made: each provider's delete, dependents first.

    A resource is registered only once the outputs it consumes are known, so the reverse registration
    order deletes every resource before the ones it depends on, as the engine does.
    """
    new_operation()
    for item in reversed(run.mocks.registrations):
        _configured(run, item).delete(item.id, dict(item.outputs))


def comparable_state(state: dict[str, Any]) -> dict[str, Any]:
    """The emulator's ``/_emulator/state`` without its clock, "never set" WS-Addressing as the defaults.

    Destroying an ``EndpointWsa`` writes the spec's defaults (WS-Addressing off) to an operation that
    had none: the gateway behaves as before, and the API cannot tell the two apart (it has no read).
    """
    result = copy.deepcopy({key: value for key, value in state.items() if key != "now"})
    wsa_defaults = WsaSettings().to_api()
    for project in result["projects"]:
        for proxy in project["apiProxies"]:
            for endpoint in proxy["endpoints"]:
                if endpoint.get("wsaSettings") is None:
                    endpoint["wsaSettings"] = wsa_defaults
    return result


DEV_PASSPHRASE = "apinizer-local-dev-only"


@functools.lru_cache(maxsize=8)
def _passphrase_key(encryption_salt: str, passphrase: str) -> bytes:
    """The AES-256 key of Pulumi's passphrase secrets provider, checked against the salt's "pulumi".

    ``encryptionsalt`` is ``v1:<base64 salt>:<"pulumi" encrypted with the key>``; the key is PBKDF2-SHA256
    of the passphrase with 1,000,000 rounds (Pulumi's pkg/secrets/passphrase).
    """
    version, salt, check = encryption_salt.split(":", 2)
    assert version == "v1", f"unknown encryptionsalt version {version!r}"
    key = hashlib.pbkdf2_hmac("sha256", passphrase.encode(), base64.b64decode(salt), 1_000_000, 32)
    assert _decrypt(check, key) == "pulumi", "the passphrase does not open this stack file's secrets"
    return key


def _decrypt(ciphertext: str, key: bytes) -> str:
    """One ``secure:`` value (``v1:<base64 nonce>:<base64 AES-GCM ciphertext and tag>``)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    version, nonce, sealed = ciphertext.split(":")
    assert version == "v1", f"unknown secure value version {version!r}"
    return AESGCM(key).decrypt(base64.b64decode(nonce), base64.b64decode(sealed), None).decode()


def stack_config(project_dir: Path, stack: str, passphrase: str = DEV_PASSPHRASE) -> dict[str, str]:
    """A stack's config as the engine gives it to a program: project defaults, then the stack file.

    Values reach programs as strings (objects and lists as JSON), under namespaced keys. ``secure:``
    values are decrypted with the stack's passphrase, as the CLI does before it runs a program.
    """
    project = yaml.safe_load((project_dir / "Pulumi.yaml").read_text())
    name = project["name"]
    values: dict[str, Any] = {}
    for key, spec in (project.get("config") or {}).items():
        full = key if ":" in key else f"{name}:{key}"
        if isinstance(spec, dict) and "default" in spec:
            values[full] = spec["default"]
        elif not isinstance(spec, dict):
            values[full] = spec
    stack_file = project_dir / f"Pulumi.{stack}.yaml"
    if stack_file.exists():
        settings = yaml.safe_load(stack_file.read_text()) or {}
        for key, value in (settings.get("config") or {}).items():
            if isinstance(value, dict) and set(value) == {"secure"}:
                value = _decrypt(value["secure"], _passphrase_key(settings["encryptionsalt"], passphrase))
            values[key] = value
    return {key: _config_string(value) for key, value in values.items()}


def _config_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


def project_name(project_dir: Path) -> str:
    name: str = yaml.safe_load((project_dir / "Pulumi.yaml").read_text())["name"]
    return name


def program_path(project_dir: Path) -> Path:
    """The program a project runs: its ``main`` (a directory with ``__main__.py``) or the project dir."""
    main = yaml.safe_load((project_dir / "Pulumi.yaml").read_text()).get("main")
    return (project_dir / main).resolve() if main else project_dir


def _resolve(value: Any) -> Any:
    return _sync_await(pulumi.Output.from_input(value).future())


def _run_in_fresh_runtime(
    path: Path, mocks: EngineMocks, stack: str, config: Mapping[str, str], secret_keys: list[str]
) -> dict[str, Any]:
    pulumi.runtime.set_mocks(mocks, project=mocks.project, stack=stack, preview=mocks.preview)
    pulumi.runtime.set_all_config(dict(config), secret_keys)

    def program() -> None:
        runpy.run_path(str(path), run_name="__main__")

    _sync_await(run_pulumi_func(program))
    root = pulumi.runtime.get_root_resource()
    exported: dict[str, Any] = dict(getattr(root, "outputs", {}))
    return {key: plain(_resolve(value)) for key, value in exported.items()}


def run_program(
    project_dir: Path,
    config: Mapping[str, str],
    *,
    stack: str = "test",
    secret_keys: list[str] | None = None,
    previous: ProgramRun | None = None,
    preview: bool = False,
) -> ProgramRun:
    """Run a project's program once, as ``pulumi up`` (or ``preview``) of a new stack or of ``previous``'s."""
    new_operation()
    path = program_path(project_dir)
    mocks = EngineMocks(
        project_name(project_dir), config, previous.mocks.registrations if previous else None, preview=preview
    )
    outputs: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def work() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            fresh = contextvars.Context()
            outputs.append(fresh.run(_run_in_fresh_runtime, path, mocks, stack, config, secret_keys or []))
        except BaseException as exc:  # handed to the test's thread, which re-raises it
            errors.append(exc)
        finally:
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(loop.shutdown_default_executor())
            loop.close()
            asyncio.set_event_loop(None)
            for other in mocks.thread_loops:
                if not other.is_closed():
                    other.close()

    thread = threading.Thread(target=work, name=f"pulumi-program-{mocks.project}")
    # The CLI runs a program in its project's folder: paths in it (a spec_file) are relative to that.
    with contextlib.chdir(project_dir):
        thread.start()
        thread.join()
    if errors:
        raise errors[0]
    return ProgramRun(outputs=outputs[0], mocks=mocks)
