"""Provider processes forked from one that has already imported what every one of them imports.

Each test of ``tests/provider`` talks to the SDK's dynamic provider server over gRPC, as the engine
does, and many of them start one of their own: a Pulumi operation gets a new provider process, and
what a process keeps (the connection check, the environment list, the claims of names) is what they
test. A ``python -m pulumi.dynamic`` process spends most of its first request importing the SDK, grpc,
pydantic, httpx and this package (about 0.5 s of CPU, more than 140 times a run).

So a worker keeps a fork server: a process that imports the SDK, grpc, the models and the client once.
The resources read settings from the environment when they are imported (``APINIZER_READ_CACHE_TTL``
and the like), and the tests vary those: for each environment the fork server forks a child that takes
that environment, runs what the site hook runs in a provider server's process (the import guard's
``.pth``, which reads the command line and the environment) and imports the resources; that child forks
one provider server per start. A provider server is then what the engine's process is, minus the
imports: the same interpreter and environment, the SDK's ``__main__`` run as ``__main__`` under
``-m pulumi.dynamic``, the caller's working directory and standard streams, and nothing of a provider
run before it (a process forks only with its main thread alone, which is checked before each fork).
The fork server itself refuses to start if what it imports reads an ``APINIZER_`` variable: that
module's setting would be the fork server's, not the test's.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import pkgutil
import select
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
from collections import OrderedDict
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import IO, Any

from apinizer_pulumi.resources.testing import ProviderServer

SERVER_MODULE = "pulumi.dynamic"
#: The settings read at import: the part of an environment that takes a process of its own.
SETTINGS_PREFIX = "APINIZER_"
#: Variables that change from one test to the next and that no import reads: given to each provider
#: server, never part of what a fork server or its child for an environment was started with.
PER_TEST = ("PYTEST_CURRENT_TEST",)
#: Imported once by the fork server: the SDK server's imports, the models and the client.
SHARED_IMPORTS = (
    "asyncio", "base64", "concurrent.futures", "dill", "grpc", "google.protobuf.empty_pb2",
    "pulumi.metadata", "pulumi.runtime", "pulumi.runtime._serialization", "pulumi.runtime._grpc_settings",
    "pulumi.runtime.proto", "pulumi.runtime.proto.provider_pb2_grpc", "pulumi.dynamic", "pydantic", "httpx",
)
SHARED_PACKAGES = ("apinizer_pulumi.models", "apinizer_pulumi.client")
#: Imported once per environment: the resources, some of which read their settings when imported.
PER_ENVIRONMENT_PACKAGES = ("apinizer_pulumi.resources",)
#: Environments whose imports the fork server keeps; most test modules use one to three.
KEPT = 6
IMPORT_GUARD_PTH = "apinizer_pulumi_import_guard.pth"
_MESSAGE_SIZE = 65536


class ForkedProcess:
    """A provider server forked for us, with what :class:`ProviderServer` uses of a
    ``subprocess.Popen``: its standard output, ``terminate``, ``kill`` and ``wait``.

    It is not our child, so it is signalled and awaited through a pidfd, which names this process and
    no later one with its pid."""

    def __init__(self, pid: int, pidfd: int, stdout: IO[bytes]) -> None:
        self.pid = pid
        self.stdout: IO[bytes] | None = stdout
        self._pidfd = pidfd

    def _signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):  # it has ended already, as Popen allows
            signal.pidfd_send_signal(self._pidfd, number)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> None:
        """Until the process has ended; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        poller = select.poll()
        poller.register(self._pidfd, select.POLLIN)
        if not poller.poll(None if timeout is None else int(timeout * 1000)):
            raise subprocess.TimeoutExpired(f"{SERVER_MODULE} (pid {self.pid})", timeout or 0)

    def __del__(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._pidfd)


class ForkServer:
    """The fork server, started under an environment without settings (``APINIZER_*``)."""

    def __init__(self, shared_environ: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, __file__, str(theirs.fileno())], pass_fds=[theirs.fileno()],
                env=shared_environ, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            )
        self._channel = ours
        self._lock = threading.Lock()
        ready = self._channel.recv(_MESSAGE_SIZE)
        if ready != b"ready":
            self.close()
            raise RuntimeError(f"the provider fork server did not start (see its error above): {ready!r}")

    def start(self, environ: dict[str, str]) -> ForkedProcess:
        """A new provider server under ``environ``, with this process's working directory and standard
        input and error, writing to a pipe whose read end is the returned process's ``stdout``."""
        read_end, write_end = os.pipe()
        streams = [_inherited(0), write_end, _inherited(2)]
        request = json.dumps({"environ": environ, "cwd": os.getcwd()}).encode()
        try:
            with self._lock:
                socket.send_fds(self._channel, [request], streams)
                answer, fds, _flags, _address = socket.recv_fds(self._channel, _MESSAGE_SIZE, 1)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            for fd in streams:
                os.close(fd)
        if not answer.isdigit() or not fds:
            os.close(read_end)
            raise RuntimeError(f"the provider fork server forked no provider server: {answer!r}")
        return ForkedProcess(int(answer), fds[0], os.fdopen(read_end, "rb"))

    def close(self) -> None:
        """End the fork server (a provider server forked before keeps running until it is stopped)."""
        self._channel.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _inherited(fd: int) -> int:
    """A copy of ``fd`` when it is open (a new process would inherit it), else of /dev/null."""
    try:
        return os.dup(fd)
    except OSError:
        return os.open(os.devnull, os.O_RDWR)


def shared_part(environ: dict[str, str]) -> dict[str, str]:
    """What the fork server is started with: ``environ`` without the settings and per-test variables."""
    return {name: value for name, value in environ.items()
            if not name.startswith(SETTINGS_PREFIX) and name not in PER_TEST}


#: Fork servers a worker keeps, one per environment without settings: the tests' own, and one a
#: module varies (a ``PYTHONPATH`` for a provider of its own) while the others wait.
KEPT_SHARED = 2
_fork_servers: OrderedDict[frozenset[tuple[str, str]], ForkServer] = OrderedDict()
_fork_servers_lock = threading.Lock()


def start(environ: dict[str, str]) -> ForkedProcess:
    """A provider server process under ``environ``, forked by this worker's fork server for its
    environment without settings."""
    shared = shared_part(environ)
    key = frozenset(shared.items())
    with _fork_servers_lock:
        server = _fork_servers.pop(key, None) or ForkServer(shared)
        _fork_servers[key] = server
        while len(_fork_servers) > KEPT_SHARED:
            _fork_servers.popitem(last=False)[1].close()
    return server.start(environ)


@atexit.register
def close() -> None:
    """End this worker's fork servers."""
    with _fork_servers_lock:
        while _fork_servers:
            _fork_servers.popitem()[1].close()


class ForkedProviderServer(ProviderServer):
    """:class:`ProviderServer`, its process forked by the worker's fork server instead of started anew."""

    def start_process(self, environ: dict[str, str]) -> Any:
        return start(environ)


# -- the fork server's side ---------------------------------------------------------------------------


class _RecordingEnviron(MutableMapping[str, str]):
    """``os.environ`` while the shared modules are imported, noting the settings they read."""

    def __init__(self, environ: MutableMapping[str, str]) -> None:
        self.environ = environ
        self.settings_read: set[str] = set()

    def _note(self, name: object) -> None:
        if isinstance(name, str) and name.startswith(SETTINGS_PREFIX):
            self.settings_read.add(name)

    def __getitem__(self, name: str) -> str:
        self._note(name)
        return self.environ[name]

    def __contains__(self, name: object) -> bool:
        self._note(name)
        return name in self.environ

    def __setitem__(self, name: str, value: str) -> None:
        self.environ[name] = value

    def __delitem__(self, name: str) -> None:
        del self.environ[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.environ)

    def __len__(self) -> int:
        return len(self.environ)


def _import_all(packages: tuple[str, ...]) -> None:
    for package_name in packages:
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            importlib.import_module(module.name)


def _reap(_number: int = 0, _frame: object = None) -> None:
    """Collect ended children (a provider server's caller waits on its pidfd, which outlives this)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _fork_alone() -> int:
    threads = os.listdir("/proc/self/task")
    if len(threads) != 1:
        raise RuntimeError(f"a provider fork server has {len(threads)} threads: it cannot fork safely")
    return os.fork()


def _serve(channel_fd: int) -> None:
    """The fork server: one child per environment, asked for each provider server."""
    sys.path[0] = os.getcwd()  # as under `python -m`: the script's own folder is no import root
    real_environ = os.environ
    recording = _RecordingEnviron(real_environ)
    os.environ = recording  # type: ignore[assignment]  # noqa: B003 - replaced, not cleared: restored below
    try:
        for name in SHARED_IMPORTS:
            importlib.import_module(name)
        _import_all(SHARED_PACKAGES)
    finally:
        os.environ = real_environ  # type: ignore[assignment]  # noqa: B003
    channel = socket.socket(fileno=channel_fd)
    if recording.settings_read:
        channel.send(f"importing {SHARED_PACKAGES} read {sorted(recording.settings_read)}: a setting read "
                     f"at import belongs in {PER_ENVIRONMENT_PACKAGES}".encode())
        return
    signal.signal(signal.SIGCHLD, _reap)
    children: OrderedDict[str, socket.socket] = OrderedDict()
    channel.send(b"ready")
    while True:
        message, fds, _flags, _address = socket.recv_fds(channel, _MESSAGE_SIZE, 3)
        if not message:
            for child in children.values():
                child.close()
            _reap()
            return
        requested = json.loads(message)["environ"]
        environ = {name: value for name, value in requested.items() if name not in PER_TEST}
        key = json.dumps(environ, sort_keys=True)
        child = children.pop(key, None) or _environment_child(channel, children, environ)
        children[key] = child
        while len(children) > KEPT:
            children.popitem(last=False)[1].close()
        socket.send_fds(child, [message], fds)
        for fd in fds:
            os.close(fd)
        answer, pidfds, _flags, _address = socket.recv_fds(child, _MESSAGE_SIZE, 1)
        socket.send_fds(channel, [answer], pidfds)
        for fd in pidfds:
            os.close(fd)


def _environment_child(channel: socket.socket, children: OrderedDict[str, socket.socket],
                       environ: dict[str, str]) -> socket.socket:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    if _fork_alone() == 0:
        try:
            channel.close()
            ours.close()
            for other in children.values():
                other.close()
            _serve_environment(theirs, environ)
        finally:
            os._exit(0)
    theirs.close()
    return ours


def _serve_environment(channel: socket.socket, environ: dict[str, str]) -> None:
    """A fork server's child for one environment: what a provider server's process has imported by its
    first call, under that environment; then a provider server for each request."""
    os.environ.clear()
    os.environ.update(environ)
    # What `site` does in a provider server's process for this package: its .pth reads the command line.
    sys.orig_argv = [sys.executable, "-m", SERVER_MODULE]
    pth = Path(sysconfig.get_paths()["purelib"], IMPORT_GUARD_PTH)
    for line in pth.read_text().splitlines() if pth.exists() else ():
        if line.startswith(("import ", "import\t")):
            exec(line)  # as site.addpackage runs a .pth's import lines
    _import_all(PER_ENVIRONMENT_PACKAGES)
    while True:
        message, fds, _flags, _address = socket.recv_fds(channel, _MESSAGE_SIZE, 3)
        if not message:
            _reap()
            return
        pid = _fork_alone()
        if pid == 0:
            _run_provider_server(channel, fds, json.loads(message))
        for fd in fds:
            os.close(fd)
        _reap()
        pidfd = os.pidfd_open(pid)
        socket.send_fds(channel, [str(pid).encode()], [pidfd])
        os.close(pidfd)


def _run_provider_server(channel: socket.socket, fds: list[int], request: dict[str, Any]) -> None:
    """In the child: become ``python -m pulumi.dynamic`` as the caller would have started it."""
    import runpy
    import traceback

    status = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        channel.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.environ.clear()
        os.environ.update(request["environ"])
        os.chdir(request["cwd"])
        sys.path[0] = request["cwd"]
        sys.argv[:] = [""]  # run_module sets the module's file as argv[0], as `python -m` does
        runpy.run_module(SERVER_MODULE, run_name="__main__", alter_sys=True)
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # the child must never return into the fork server's loop
        traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
