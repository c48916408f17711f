"""A Python language host for the Pulumi engine: what ``pulumi-language-python`` does, for this project.

The Pulumi CLI is built here from its Go module (``github.com/pulumi/pulumi/pkg/v3``), but the Go module of
the Python language host (``github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3``) has no
release tag, and the module proxy serves none of its versions (``403 This module version is not
available`` for every pseudo-version of a release commit, and for ``@v/list``). So the build script
installs this file beside the CLI as ``pulumi-language-python``. A user who installed Pulumi the usual
way runs Pulumi's own host instead; nothing here is used then.

It speaks the engine's ``LanguageRuntime`` gRPC protocol through the stubs that ship with the ``pulumi``
Python SDK, and does two jobs:

* ``serve ENGINE_ADDRESS`` (what the engine starts): a gRPC server on 127.0.0.1 that prints its port on
  the first line of stdout, as every Pulumi plugin does. Its ``Run`` starts the program in a child
  process with the interpreter of the project's ``virtualenv`` runtime option (relative to the
  directory of Pulumi.yaml), or with this interpreter when the project names none.
* ``exec ...`` (the child): configures the SDK's runtime settings from its arguments and the engine's
  ``PULUMI_CONFIG``/``PULUMI_CONFIG_SECRET_KEYS``, then runs the program directory's ``__main__.py`` (or
  the named file) as ``__main__`` inside the SDK's stack.

Exit code 32 tells the host that the program already reported its error through the engine's log, so
the host answers ``bail`` and the CLI shows that error alone, without a second "program exited" line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ERROR_ALREADY_REPORTED = 32
HOST_VERSION = os.environ.get("APINIZER_PULUMI_HOST_VERSION", "3.0.0")


def _venv_python(root_directory: str, options: dict[str, Any]) -> str:
    virtualenv = options.get("virtualenv")
    if not virtualenv:
        return sys.executable
    venv = Path(str(virtualenv))
    if not venv.is_absolute():
        venv = Path(root_directory or os.getcwd()) / venv
    for candidate in (venv / "bin" / "python", venv / "Scripts" / "python.exe"):
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError(
        f"the virtualenv {str(virtualenv)!r} named in Pulumi.yaml's runtime options does not exist at {venv}; "
        "create it (python -m venv) and install the program's requirements into it"
    )


def serve(engine_address: str) -> None:
    from concurrent import futures

    import grpc
    from google.protobuf import json_format
    from pulumi.runtime.proto import language_pb2, language_pb2_grpc, plugin_pb2

    class LanguageHost(language_pb2_grpc.LanguageRuntimeServicer):  # type: ignore[misc]
        def Handshake(self, request: Any, context: Any) -> Any:
            return language_pb2.LanguageHandshakeResponse()

        def GetPluginInfo(self, request: Any, context: Any) -> Any:
            return plugin_pb2.PluginInfo(version=HOST_VERSION)

        def GetRequiredPlugins(self, request: Any, context: Any) -> Any:
            # Dynamic providers are served by the pulumi-python resource plugin; nothing to install.
            return language_pb2.GetRequiredPluginsResponse()

        def GetRequiredPackages(self, request: Any, context: Any) -> Any:
            return language_pb2.GetRequiredPackagesResponse()

        def GetProgramDependencies(self, request: Any, context: Any) -> Any:
            return language_pb2.GetProgramDependenciesResponse()

        def RuntimeOptionsPrompts(self, request: Any, context: Any) -> Any:
            return language_pb2.RuntimeOptionsResponse()

        def About(self, request: Any, context: Any) -> Any:
            python = _venv_python(request.info.root_directory, _options(request.info))
            version = subprocess.run(
                [python, "-c", "import platform; print(platform.python_version())"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            return language_pb2.AboutResponse(executable=python, version=version)

        def InstallDependencies(self, request: Any, context: Any) -> Any:
            # The project's scripts make and fill the virtualenv themselves (scripts/_venv.sh).
            yield language_pb2.InstallDependenciesResponse(
                stdout=b"dependencies are installed by the project's own scripts (scripts/_venv.sh)\n"
            )

        def Cancel(self, request: Any, context: Any) -> Any:
            from google.protobuf import empty_pb2

            return empty_pb2.Empty()

        def Run(self, request: Any, context: Any) -> Any:
            info = request.info
            root = info.root_directory or request.pwd
            try:
                python = _venv_python(root, _options(info))
            except FileNotFoundError as missing:
                return language_pb2.RunResponse(error=str(missing))
            program_dir = info.program_directory or request.pwd
            entry = info.entry_point or request.program or "."
            program = str((Path(program_dir) / entry).resolve())
            arguments = [
                python,
                "-u",
                str(Path(__file__).resolve()),
                "exec",
                "--monitor", request.monitor_address,
                "--engine", engine_address,
                "--project", request.project,
                "--stack", request.stack,
                "--organization", request.organization or "organization",
                "--root-directory", root,
                "--pwd", request.pwd or program_dir,
                "--parallel", str(request.parallel),
                "--dry-run", "true" if request.dryRun else "false",
                program,
                *request.args,
            ]
            env = dict(os.environ)
            env["PULUMI_CONFIG"] = json.dumps(dict(request.config))
            env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(list(request.configSecretKeys))
            code = subprocess.run(arguments, env=env, check=False).returncode
            if code == 0:
                return language_pb2.RunResponse()
            if code == ERROR_ALREADY_REPORTED:
                return language_pb2.RunResponse(bail=True)
            return language_pb2.RunResponse(error=f"program exited with non-zero exit code: {code}")

    def _options(info: Any) -> dict[str, Any]:
        return json_format.MessageToDict(info.options) if info.HasField("options") else {}

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    language_pb2_grpc.add_LanguageRuntimeServicer_to_server(LanguageHost(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    # The engine ends its plugins with SIGINT (then SIGKILL): stop serving quietly, with no traceback.
    signal.signal(signal.SIGINT, lambda *_: server.stop(grace=None))
    signal.signal(signal.SIGTERM, lambda *_: server.stop(grace=None))
    server.wait_for_termination()


def execute(argv: list[str]) -> int:
    import argparse
    import asyncio
    import runpy
    import traceback
    from concurrent.futures import ThreadPoolExecutor

    import pulumi
    import pulumi.runtime

    parser = argparse.ArgumentParser(prog="language_host.py exec")
    for flag in ("--monitor", "--engine", "--project", "--stack", "--organization", "--root-directory", "--pwd"):
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
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(str(program), run_name="__main__")))
    except pulumi.RunError as error:
        pulumi.log.error(str(error))
        code = ERROR_ALREADY_REPORTED
    except Exception:  # noqa: BLE001 - any failure of the user's program is reported to the engine, then bails
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
