"""A Python language host for the Pulumi engine: what ``pulumi-language-python`` does, for this project.

The Pulumi CLI is built here from its Go module (``github.com/pulumi/pulumi/pkg/v3``), but the Go module of
the Python language host (``github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3``) has no
release tag, and the module proxy serves none of its versions (``403 This module version is not
available`` for every pseudo-version of a release commit, and for ``@v/list``). So the build script
installs this file beside the CLI as ``pulumi-language-python``. A user who installed Pulumi the usual
way runs Pulumi's own host instead; nothing here is used then.

Like Pulumi's own host, it runs on an interpreter of its own: the launcher starts it with the Python of
``host-python/``, a virtual environment beside the CLI that holds the ``pulumi`` SDK (whose gRPC stubs it
speaks) and ``grpcio``, so it works whatever ``python3`` comes first on the user's PATH. It has two jobs:

* ``serve ENGINE_ADDRESS`` (what the engine starts): a gRPC server on 127.0.0.1 that prints its port on
  the first line of stdout, as every Pulumi plugin does.
* ``exec ...`` (the child it starts for ``Run``, in the *program's* interpreter): configures the SDK's
  runtime settings from its arguments and the engine's ``PULUMI_CONFIG``/``PULUMI_CONFIG_SECRET_KEYS``,
  then runs the program directory's ``__main__.py`` (or the named file) as ``__main__`` inside the SDK's
  stack. This part uses nothing but the standard library until it imports the program's own ``pulumi``.

The program's interpreter is chosen as Pulumi's ``pip`` toolchain chooses it (sdk/python/toolchain/pip.go):
the ``virtualenv`` runtime option of Pulumi.yaml (relative to the project's root), else
``$PULUMI_PYTHON_CMD``, else the first ``python3`` or ``python`` on PATH. ``pulumi install``
(``InstallDependencies``) creates that virtual environment, upgrades pip, setuptools and wheel in it and
installs ``requirements.txt`` from the program's folder; ``pulumi up`` and ``preview`` do the same first
when the named environment does not exist yet. The ``uv`` and ``poetry`` toolchains are not supported
here: the host says so rather than run pip.

Exit code 32 tells the host that the program already reported its error through the engine's log, so
the host answers ``bail`` and the CLI shows that error alone, without a second "program exited" line.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ERROR_ALREADY_REPORTED = 32
HOST_VERSION = os.environ.get("APINIZER_PULUMI_HOST_VERSION", "3.0.0")
TOOLCHAINS = ("pip", "poetry", "uv")
TYPECHECKERS = ("mypy", "pyright")
# Pulumi's host skips these: they are Pulumi packages with no resource plugin.
PACKAGES_WITHOUT_PLUGINS = ("pulumi-policy", "pulumi-esc-sdk")
PRERELEASE_LABELS = {"a": "alpha", "b": "beta", "rc": "rc"}

#: Run in the program's interpreter: the installed Pulumi packages, each with its pulumi-plugin.json.
LIST_PULUMI_PACKAGES = """
import importlib.metadata, json, sys
skip = set(sys.argv[1:])
seen = set()
found = []
for dist in importlib.metadata.distributions():
    name = dist.metadata["Name"] or ""
    key = name.lower().replace("_", "-")
    if not key or key in seen or key in skip:
        continue
    seen.add(key)
    plugin = None
    for file in dist.files or ():
        # The file of a top-level package (package/pulumi-plugin.json), as Pulumi's host reads it.
        if file.name == "pulumi-plugin.json" and len(file.parts) == 2:
            try:
                plugin = json.loads(dist.locate_file(file).read_text())
            except (OSError, ValueError):
                plugin = None
            break
    if plugin is not None or key.startswith("pulumi-"):
        found.append({"name": name, "version": dist.version, "plugin": plugin})
print(json.dumps(found))
"""


class HostError(Exception):
    """A problem with the project's Python set-up, told to the user as it is."""


@dataclass(frozen=True)
class PythonOptions:
    """The ``runtime.options`` of Pulumi.yaml that decide how the program's Python is found."""

    root: Path
    program_dir: Path
    virtualenv: str = ""
    toolchain: str = ""
    typechecker: str = ""


def parse_options(root: str, program_dir: str, options: Mapping[str, Any]) -> PythonOptions:
    values: dict[str, str] = {}
    for key, allowed in (("virtualenv", None), ("toolchain", TOOLCHAINS), ("typechecker", TYPECHECKERS)):
        if key not in options:
            continue
        value = options[key]
        if not isinstance(value, str):
            raise HostError(f"{key} option must be a string")
        if allowed is not None and value not in allowed:
            raise HostError(f"unsupported {key} option: {value}")
        values[key] = value
    root_path = Path(root or program_dir or os.getcwd())
    return PythonOptions(root=root_path, program_dir=Path(program_dir or root_path), **values)


def _search_up(directory: Path, name: str) -> Path | None:
    for folder in (directory, *directory.parents):
        if (folder / name).exists():
            return folder / name
    return None


def python_on_path() -> str:
    """``$PULUMI_PYTHON_CMD``, else ``python3``, else ``python``, looked up on PATH as Pulumi's host does."""
    names = (
        [os.environ["PULUMI_PYTHON_CMD"]] if os.environ.get("PULUMI_PYTHON_CMD") else ["python3", "python"]
    )
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise HostError(
        f"failed to locate any of {names} on your PATH. Have you installed Python 3.6 or greater?"
    )


def activated_environment(environ: Mapping[str, str], venv: Path) -> dict[str, str]:
    """The environment with ``venv`` activated: its bin/ first on PATH, VIRTUAL_ENV set, no PYTHONHOME."""
    env = {key: value for key, value in environ.items() if key not in ("PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(filter(None, [str(venv / "bin"), environ.get("PATH", "")]))
    env["VIRTUAL_ENV"] = str(venv)
    return env


def is_virtualenv(directory: Path) -> bool:
    return (directory / "bin" / "python").is_file()


class Pip:
    """Pulumi's ``pip`` toolchain: the project's virtualenv when it names one, else Python on PATH."""

    def __init__(self, options: PythonOptions) -> None:
        self.options = options
        self.virtualenv: Path | None = None
        if options.virtualenv:
            # Relative to the project's root (the folder of Pulumi.yaml), not to the program's folder.
            self.virtualenv = options.root / options.virtualenv

    def command(self, *args: str) -> tuple[list[str], dict[str, str]]:
        """The argv and environment that run the program's Python with ``args``."""
        if self.virtualenv is None:
            return [python_on_path(), *args], dict(os.environ)
        return [str(self.virtualenv / "bin" / "python"), *args], activated_environment(
            os.environ, self.virtualenv
        )

    def validate_venv(self) -> None:
        if self.virtualenv is not None and not is_virtualenv(self.virtualenv):
            raise HostError(virtualenv_missing_message(self.options.virtualenv, self.virtualenv))

    def needs_venv(self) -> bool:
        """True when the named virtualenv does not exist yet (or is an empty folder): install makes it."""
        if self.virtualenv is None or is_virtualenv(self.virtualenv):
            return False
        if self.virtualenv.exists() and not self.virtualenv.is_dir():
            raise HostError(
                f"the 'virtualenv' option in Pulumi.yaml is set to {str(self.virtualenv)!r} "
                "but it is not a directory"
            )
        return not self.virtualenv.exists() or not any(self.virtualenv.iterdir())

    def install_dependencies(self, cwd: Path) -> Iterator[tuple[str, bytes]]:
        """Creates the named virtualenv and installs requirements.txt; output as (stream, bytes)."""
        if self.virtualenv is not None:
            yield "stdout", b"Creating virtual environment...\n"
            yield from run_streaming(
                [python_on_path(), "-m", "venv", str(self.virtualenv)],
                dict(os.environ),
                cwd,
                f"creating virtual environment at '{self.virtualenv}'",
            )
            yield "stdout", b"Finished creating virtual environment\n"
        yield "stdout", b"Updating pip, setuptools, and wheel in virtual environment...\n"
        argv, env = self.command("-m", "pip", "install", "--upgrade", "pip", "setuptools", "wheel")
        yield from run_streaming(argv, env, cwd, "updating pip, setuptools, and wheel")
        yield "stdout", b"Finished updating\n"
        if not (cwd / "requirements.txt").is_file():
            return
        yield "stdout", b"Installing dependencies in virtual environment...\n"
        argv, env = self.command("-m", "pip", "install", "-r", "requirements.txt")
        yield from run_streaming(argv, env, cwd, "installing dependencies")
        yield "stdout", b"Finished installing dependencies\n"

    def version(self) -> tuple[str, str]:
        """The program interpreter's path and its version."""
        argv, env = self.command("--version")
        completed = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        if completed.returncode != 0:
            raise HostError(f"failed to get version: `{' '.join(argv)}` exited {completed.returncode}")
        return argv[0], (completed.stdout or completed.stderr).strip().removeprefix("Python ")


def virtualenv_missing_message(option: str, path: Path) -> str:
    problem = "doesn't exist" if not path.exists() else "doesn't appear to be a virtual environment"
    python = path / "bin" / "python"
    return (
        f"The 'virtualenv' option in Pulumi.yaml is set to {option!r}, but {str(path)!r} {problem}; "
        "run `pulumi install`, or the following commands, to create the virtual environment and install "
        "dependencies into it:\n\n"
        f"    1. python3 -m venv {path}\n"
        f"    2. {python} -m pip install --upgrade pip setuptools wheel\n"
        f"    3. {python} -m pip install -r requirements.txt\n"
    )


def resolve_toolchain(options: PythonOptions) -> Pip:
    """Pulumi's choice of toolchain: the option, else uv or poetry when their lock file is found, else pip."""
    toolchain = options.toolchain
    if not toolchain:
        for lock_file, name in (("uv.lock", "uv"), ("poetry.lock", "poetry")):
            found = _search_up(options.program_dir, lock_file)
            if found is not None:
                raise HostError(
                    f"{found} makes Pulumi use the {name} toolchain, which the language host built for "
                    "apinizer-pulumi (scripts/build-pulumi.sh) does not support; set `toolchain: pip` in the "
                    "runtime options of Pulumi.yaml, or use an installed Pulumi CLI"
                )
    elif toolchain != "pip":
        raise HostError(
            f"the {toolchain} toolchain is not supported by the language host built for apinizer-pulumi "
            "(scripts/build-pulumi.sh); use `toolchain: pip`, or an installed Pulumi CLI"
        )
    return Pip(options)


def run_streaming(
    argv: list[str], env: Mapping[str, str], cwd: Path, doing: str
) -> Iterator[tuple[str, bytes]]:
    """Runs ``argv``, yielding its stdout and stderr as they come; a failure raises HostError."""
    try:
        process = subprocess.Popen(
            argv,
            env=dict(env),
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
    except OSError as error:
        raise HostError(f"{doing} via '{' '.join(argv)}': {error}") from error
    chunks: queue.Queue[tuple[str, bytes]] = queue.Queue()

    def pump(stream: str, pipe: Any) -> None:
        for chunk in iter(lambda: pipe.read1(65536), b""):
            chunks.put((stream, chunk))
        chunks.put((stream, b""))

    readers = [
        threading.Thread(target=pump, args=("stdout", process.stdout), daemon=True),
        threading.Thread(target=pump, args=("stderr", process.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    open_streams = len(readers)
    while open_streams:
        stream, chunk = chunks.get()
        if chunk:
            yield stream, chunk
        else:
            open_streams -= 1
    code = process.wait()
    if code != 0:
        raise HostError(f"{doing} via '{' '.join(argv)}': exit status {code}")


def drain_to_stderr(output: Iterator[tuple[str, bytes]]) -> None:
    """Shows an install's output on this host's stderr, which the CLI shows (our stdout carries the port)."""
    for _, chunk in output:
        sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.flush()


def plugin_version(package_version: str) -> str | None:
    """A PEP 440 package version as a plugin's semver (1.2 -> 1.2.0, 1.2.3a4 -> 1.2.3-alpha.4), or None."""
    match = re.fullmatch(r"(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?", package_version)
    if match is None:
        return None
    release, pre, pre_number, post, dev = match.groups()
    parts = release.split(".")
    version = ".".join(parts + ["0"] * (3 - len(parts)))
    if pre:
        version += f"-{PRERELEASE_LABELS[pre]}.{pre_number}"
    build = (f"post{post}" if post else "") + (f"dev{dev}" if dev else "")
    return f"{version}+{build}" if build else version


def required_packages(toolchain: Pip) -> list[dict[str, Any]]:
    """The resource plugins the program's installed Pulumi packages need, as Pulumi's host derives them."""
    argv, env = toolchain.command("-c", LIST_PULUMI_PACKAGES, *PACKAGES_WITHOUT_PLUGINS)
    completed = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        # As Pulumi's host: a program whose Python cannot be asked needs no plugin it could name.
        return []
    packages = []
    for package in json.loads(completed.stdout):
        plugin = package["plugin"] or {}
        if package["plugin"] is not None and not plugin.get("resource"):
            continue
        version = plugin.get("version") or plugin_version(package["version"])
        if not version:
            continue
        packages.append(
            {
                "name": plugin.get("name") or package["name"].removeprefix("pulumi-"),
                "version": version if version.startswith("v") else f"v{version}",
                "server": plugin.get("server", ""),
                "parameterization": plugin.get("parameterization"),
            }
        )
    return packages


def serve(engine_address: str) -> None:
    import base64
    from concurrent import futures

    import grpc
    from google.protobuf import empty_pb2, json_format
    from pulumi.runtime.proto import language_pb2, language_pb2_grpc, plugin_pb2

    def options_of(info: Any) -> PythonOptions:
        raw = json_format.MessageToDict(info.options) if info.HasField("options") else {}
        return parse_options(info.root_directory, info.program_directory, raw)

    def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
        """A HostError ends the call as a gRPC error with its message, as Pulumi's host reports its errors."""

        def call(self: Any, request: Any, context: Any) -> Any:
            try:
                return method(self, request, context)
            except HostError as error:
                context.abort(grpc.StatusCode.UNKNOWN, str(error))

        return call

    class LanguageHost(language_pb2_grpc.LanguageRuntimeServicer):  # type: ignore[misc]
        def Handshake(self, request: Any, context: Any) -> Any:
            nonlocal engine_address
            engine_address = request.engine_address or engine_address
            return language_pb2.LanguageHandshakeResponse()

        def GetPluginInfo(self, request: Any, context: Any) -> Any:
            return plugin_pb2.PluginInfo(version=HOST_VERSION)

        def GetRequiredPlugins(self, request: Any, context: Any) -> Any:
            # As Pulumi's host: the engine asks GetRequiredPackages instead.
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "method GetRequiredPlugins not implemented")

        @guarded
        def GetRequiredPackages(self, request: Any, context: Any) -> Any:
            toolchain = resolve_toolchain(options_of(request.info))
            if toolchain.needs_venv():
                drain_to_stderr(toolchain.install_dependencies(Path(request.info.program_directory)))
            packages = []
            for package in required_packages(toolchain):
                dependency = plugin_pb2.PackageDependency(
                    name=package["name"],
                    kind="resource",
                    version=package["version"],
                    server=package["server"],
                )
                parameterization = package["parameterization"]
                if parameterization:
                    dependency.parameterization.CopyFrom(
                        plugin_pb2.PackageParameterization(
                            name=parameterization["name"],
                            version=parameterization["version"],
                            value=base64.b64decode(parameterization.get("value", "")),
                        )
                    )
                packages.append(dependency)
            return language_pb2.GetRequiredPackagesResponse(packages=packages)

        @guarded
        def GetProgramDependencies(self, request: Any, context: Any) -> Any:
            toolchain = resolve_toolchain(options_of(request.info))
            arguments = ["-m", "pip", "list", "-v", "--format", "json"]
            if not request.transitiveDependencies:
                arguments.append("--not-required")
            argv, env = toolchain.command(*arguments)
            completed = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
            if completed.returncode != 0:
                raise HostError(f"failed to get python dependencies: {completed.stderr.strip()}")
            return language_pb2.GetProgramDependenciesResponse(
                dependencies=[
                    language_pb2.DependencyInfo(name=item["name"], version=item["version"])
                    for item in json.loads(completed.stdout)
                ]
            )

        def RuntimeOptionsPrompts(self, request: Any, context: Any) -> Any:
            raw = json_format.MessageToDict(request.info.options) if request.info.HasField("options") else {}
            prompt = language_pb2.RuntimeOptionPrompt
            pip = prompt.RuntimeOptionValue(promptType=prompt.STRING, stringValue="pip", displayName="pip")
            prompts = []
            if "toolchain" not in raw:
                # Only pip: this host does not run the uv or poetry toolchains.
                prompts.append(
                    prompt(
                        key="toolchain",
                        description=(
                            "The toolchain to use for installing dependencies and running the program"
                        ),
                        promptType=prompt.STRING,
                        choices=[pip],
                        default=pip,
                    )
                )
            elif raw["toolchain"] == "pip" and "virtualenv" not in raw:
                venv = prompt.RuntimeOptionValue(promptType=prompt.STRING, stringValue="venv")
                prompts.append(
                    prompt(
                        key="virtualenv",
                        description="The virtualenv to use",
                        promptType=prompt.STRING,
                        choices=[venv],
                        default=venv,
                    )
                )
            return language_pb2.RuntimeOptionsResponse(prompts=prompts)

        @guarded
        def About(self, request: Any, context: Any) -> Any:
            options = options_of(request.info) if request.HasField("info") else parse_options("", "", {})
            executable, version = resolve_toolchain(options).version()
            return language_pb2.AboutResponse(
                executable=executable,
                version=version,
                metadata={"toolchain": "pip", "typechecker": options.typechecker or "none"},
            )

        def InstallDependencies(self, request: Any, context: Any) -> Iterator[Any]:
            try:
                toolchain = resolve_toolchain(options_of(request.info))
                yield language_pb2.InstallDependenciesResponse(stdout=b"Installing dependencies...\n\n")
                program_dir = Path(request.info.program_directory or request.directory)
                for stream, chunk in toolchain.install_dependencies(program_dir):
                    yield language_pb2.InstallDependenciesResponse(**{stream: chunk})
                yield language_pb2.InstallDependenciesResponse(stdout=b"Finished installing dependencies\n\n")
            except HostError as error:
                context.abort(grpc.StatusCode.UNKNOWN, str(error))

        def Cancel(self, request: Any, context: Any) -> Any:
            # The engine cancels when an update fails, while the program may still be waiting on its
            # resources: interrupting it then would print a KeyboardInterrupt traceback under the one clean
            # error line. The program ends by itself once the engine stops answering it.
            return empty_pb2.Empty()

        @guarded
        def Run(self, request: Any, context: Any) -> Any:
            info = request.info
            options = options_of(info)
            toolchain = resolve_toolchain(options)
            toolchain.validate_venv()
            root = str(options.root)
            program_dir = info.program_directory or request.pwd
            entry = info.entry_point or request.program or "."
            program = str((Path(program_dir) / entry).resolve())
            if options.typechecker:
                typecheck(toolchain, options)
            argv, env = toolchain.command(
                "-u",
                str(Path(__file__).resolve()),
                "exec",
                "--monitor",
                request.monitor_address,
                "--engine",
                engine_address,
                "--project",
                request.project,
                "--stack",
                request.stack,
                "--organization",
                request.organization or "organization",
                "--root-directory",
                root,
                "--pwd",
                request.pwd or program_dir,
                "--parallel",
                str(request.parallel),
                "--dry-run",
                "true" if request.dryRun else "false",
                program,
                *request.args,
            )
            env["PULUMI_CONFIG"] = json.dumps(dict(request.config))
            env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(list(request.configSecretKeys))
            code = subprocess.run(argv, env=env, check=False).returncode
            if code == 0:
                return language_pb2.RunResponse()
            if code == ERROR_ALREADY_REPORTED:
                return language_pb2.RunResponse(bail=True)
            return language_pb2.RunResponse(error=f"program exited with non-zero exit code: {code}")

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    language_pb2_grpc.add_LanguageRuntimeServicer_to_server(LanguageHost(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    # The engine ends its plugins with SIGINT (then SIGKILL): stop serving quietly, with no traceback.
    signal.signal(signal.SIGINT, lambda *_: server.stop(grace=None))
    signal.signal(signal.SIGTERM, lambda *_: server.stop(grace=None))
    server.wait_for_termination()


def typecheck(toolchain: Pip, options: PythonOptions) -> None:
    """The ``typechecker`` option: mypy or pyright over the program folder before it runs, as Pulumi does."""
    checker = options.typechecker
    probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({checker!r}) is None)"
    argv, env = toolchain.command("-c", probe)
    if subprocess.run(argv, env=env, check=False).returncode != 0:
        raise HostError(
            f"The typechecker option is set to {checker}, but {checker} is not installed. "
            f"Please add {checker} to requirements.txt and run `pulumi install`."
        )
    arguments = ["-m", checker]
    if checker == "mypy" and toolchain.virtualenv is not None:
        arguments += ["--exclude", os.path.relpath(toolchain.virtualenv, options.program_dir)]
    argv, env = toolchain.command(*arguments, str(options.program_dir))
    completed = subprocess.run(
        argv, env=env, cwd=options.program_dir, capture_output=True, text=True, check=False
    )
    sys.stdout.write(completed.stdout)
    sys.stderr.write(completed.stderr)
    if completed.returncode != 0:
        raise HostError(
            f"{checker} failed: exit status {completed.returncode}\n{completed.stdout}{completed.stderr}"
        )


def execute(argv: list[str]) -> int:
    import argparse
    import asyncio
    import runpy
    import traceback
    from concurrent.futures import ThreadPoolExecutor

    try:
        import pulumi
        import pulumi.runtime
    except ImportError:
        # Pulumi's own host says the same: the program's Python lacks the SDK.
        print(traceback.format_exc(), file=sys.stderr)
        print(
            f"It looks like the Pulumi SDK has not been installed in {sys.executable}. "
            "Have you run pip install?\nIf you are running in a virtualenv, you must run "
            "pip install -r requirements.txt from inside the virtualenv"
            " (or `pulumi install` with the `virtualenv` runtime option set in Pulumi.yaml).",
            file=sys.stderr,
        )
        return 1

    parser = argparse.ArgumentParser(prog="language_host.py exec")
    for flag in (
        "--monitor",
        "--engine",
        "--project",
        "--stack",
        "--organization",
        "--root-directory",
        "--pwd",
    ):
        parser.add_argument(flag, default="")
    parser.add_argument("--parallel", type=int, default=0)
    parser.add_argument("--dry-run", default="false")
    parser.add_argument("program")
    parser.add_argument("args", nargs="*")
    args = parser.parse_args(argv)

    pulumi.runtime.set_all_config(
        pulumi.runtime.get_config_env(), pulumi.runtime.get_config_secret_keys_env()
    )
    pulumi.runtime.configure(
        pulumi.runtime.Settings(
            monitor=args.monitor,
            engine=args.engine,
            project=args.project,
            stack=args.stack,
            parallel=args.parallel,
            dry_run=args.dry_run == "true",
            organization=args.organization,
            root_directory=args.root_directory,
        )
    )
    program = Path(args.program)
    sys.argv = [str(program), *args.args]
    sys.path.insert(0, str(program if program.is_dir() else program.parent))
    if args.pwd:
        os.chdir(args.pwd)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    # The SDK runs blocking work (dynamic provider pickling, invokes) on the loop's default executor.
    executor = ThreadPoolExecutor(max_workers=max(args.parallel, 1) * 4)
    loop.set_default_executor(executor)
    code = 0
    try:
        loop.run_until_complete(
            pulumi.runtime.run_in_stack(lambda: runpy.run_path(str(program), run_name="__main__"))
        )
    except pulumi.RunError as error:
        pulumi.log.error(str(error))
        code = ERROR_ALREADY_REPORTED
    # Any failure of the user's program is reported to the engine, then the host bails.
    except Exception:
        pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
        code = ERROR_ALREADY_REPORTED
    finally:
        executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    return code


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "exec":
        sys.exit(execute(sys.argv[2:]))
    # The engine may pass flags first; its own address always comes last.
    if len(sys.argv) < 2 or sys.argv[-1].startswith("-"):
        sys.exit("usage: pulumi-language-python [flags] ENGINE_ADDRESS (started by the Pulumi engine)")
    serve(sys.argv[-1])


if __name__ == "__main__":
    main()
