"""What ``apinizer-pulumi generate`` does once its command line is read: connect, read, write or check.

Apart from ``cli.py`` so that ``--help`` and a usage error import neither the client nor httpx
(docs/performance.md, "Import time").
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from apinizer_pulumi.client import ApinizerClient, ApinizerError, AuthenticationError, PermissionDeniedError

from ._certificates import write_certificate_files
from ._check import (
    DeclaredResource,
    Drift,
    compare,
    compare_proxies,
    compare_resources,
    declared_endpoints,
    declared_proxies,
    declared_resources,
)
from ._connection import Connection, ConnectionSettingsError, resolve_connection
from ._connections import secret_keys as connection_secret_keys
from ._jwks import jwk_secret_keys
from ._key_material import material_secret_keys
from ._program import Families, program_text, read_families
from ._render import RETAIN_OPTION, command_line, credential_password_key
from ._snapshot import GatewaySnapshot, NotOnGatewayError, Progress, discover_proxies, read_gateway
from ._variables import secret_keys
from .cli import EXIT_DRIFT, EXIT_ERROR, EXIT_OK


def _command_line(args: argparse.Namespace) -> str:
    """The command that regenerates the program: project, proxies and RLCLs, never a credential."""
    return command_line(args.project, args.proxy, args.rlcl, retain=args.retain, environment=args.environment,
                        definitions=args.definitions)


def _client(connection: Connection) -> ApinizerClient:
    return ApinizerClient(
        connection.url, token=connection.token, username=connection.username, password=connection.password
    )


def _snapshot(
    client: ApinizerClient, args: argparse.Namespace, declared_proxies: Sequence[str], progress: Progress
) -> GatewaySnapshot:
    """The proxies named with --proxy; without, every proxy of the project and those the program declares."""
    if args.proxy:
        return read_gateway(client, args.project, args.proxy, with_policies=args.policies, progress=progress,
                            with_credentials=args.definitions)
    try:
        found = discover_proxies(client, args.project, progress)
    except (AuthenticationError, PermissionDeniedError) as error:
        raise ConnectionSettingsError(
            f"listing the API proxies of project {args.project} needs ROLE_MANAGE_PROXIES, which this "
            f"account lacks ({error.error_description or error.error}); name the proxies with --proxy"
        ) from None
    return read_gateway(
        client,
        args.project,
        [*found, *declared_proxies],
        with_policies=args.policies,
        progress=progress,
        skip_missing=True,
        with_credentials=args.definitions,
    )


def _read(
    args: argparse.Namespace, client: ApinizerClient, declared_proxies: Sequence[str], progress: Progress
) -> tuple[GatewaySnapshot, Families]:
    """Everything generate reads."""
    if not args.definitions:  # the stack's deployments and values: the proxies, groups and variables
        args = argparse.Namespace(**{**vars(args), "policies": False})
    snapshot = _snapshot(client, args, declared_proxies, progress)
    return read_families(client, snapshot, progress, environment=args.environment,
                         definitions=args.definitions)


def _render(args: argparse.Namespace, snapshot: GatewaySnapshot, families: Families) -> str:
    return program_text(snapshot, families, command=_command_line(args), rlcls=args.rlcl, retain=args.retain,
                        environment=args.environment, definitions=args.definitions)


def _check(args: argparse.Namespace, client: ApinizerClient, progress: Progress) -> int:
    path: Path = args.out
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConnectionSettingsError(f"--check: cannot read {path}: {error.strerror}") from None
    declared = declared_endpoints(source, str(path))
    proxies = declared_proxies(source, str(path))
    if args.environment is not None:
        for item in proxies:  # another environment's deployments are its own stack's
            for other in [env for env in item.deployments if env != args.environment]:
                del item.deployments[other]
    if (declared or proxies) and RETAIN_OPTION not in source:
        # Regenerate it as it was written: without the option, as --no-retain writes it.
        args = argparse.Namespace(**{**vars(args), "retain": False})
    own = [item.record.proxy for item in declared if item.record.project == args.project]
    own += [item.record.name for item in proxies if item.record.project == args.project]
    # What generate would write now, compared with the program kind by kind.
    snapshot, families = _read(args, client, list(dict.fromkeys(own)), progress)
    # Endpoints are compared from their records; the rest from the program written without them
    # (an endpoint's dozen lines are most of a big program, and parsing is most of the time).
    rest = dataclasses.replace(snapshot, proxies=[dataclasses.replace(proxy, endpoints=[], policies={})
                                                  for proxy in snapshot.proxies])
    program = _render(args, rest, families)
    read = [p.name for p in snapshot.proxies]
    unread = set(snapshot.unread)
    if args.definitions:
        drift = compare(declared, snapshot.endpoints, args.project, read)
        # Proxies are compared where the gateway could read them (one GET each, with their deployments).
        drift.proxies = compare_proxies(
            proxies, snapshot.api_proxies, args.project, [p.name for p in snapshot.proxies if p.proxy]
        )
        unread.add("ApiProxyDeployment")  # compare_proxies's
    else:
        # The stack owns no definitions: only its deployments and values are compared (below).
        drift = Drift()
    if args.environment is None:
        # Only an environment's program declares its values: a program of every environment may hold
        # hand-written ones, which a program generated without --environment does not.
        unread.add("EnvironmentVariableValue")
    drift.resources = compare_resources(_owned(declared_resources(source, str(path)), args.environment),
                                        declared_resources(program), args.project, read, unread)
    if not drift:
        progress(
            f"no drift: {path} declares every endpoint of {len(snapshot.proxies)} proxies as it is, "
            "the proxies with their routing and deployments, and the policies, credentials, variables, "
            "groups, JWKs, keystores, crypto keys and connections it holds"
        )
        return EXIT_OK
    print(f"drift between {path} and the gateway (project {args.project}):")
    for line in drift.lines(str(path)):
        print(line)
    print(f"regenerate with: {_command_line(args)} --out {shlex.quote(str(path))}")
    return EXIT_DRIFT


def _owned(declared: list[DeclaredResource], environment: str | None) -> list[DeclaredResource]:
    """What the stack of ``environment`` owns of ``declared``: every environment's stack owns only its
    own environment's deployments and values (all of them without ``environment``)."""
    return [item for item in declared if environment is None
            or item.values.get("environment_name", environment) == environment]


def _generate(args: argparse.Namespace, client: ApinizerClient, progress: Progress) -> int:
    snapshot, families = _read(args, client, [], progress)
    program = _render(args, snapshot, families)
    if args.out is None:
        sys.stdout.write(program)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(program, encoding="utf-8")
    # Beside the program (the working directory when it goes to standard output): it names them.
    folder = Path.cwd() if args.out is None else args.out.parent
    written = write_certificate_files(families.certificates, folder)
    for name in snapshot.missing:
        progress(f"note: proxy {name} is no longer in project {args.project}")
    where = "standard output" if args.out is None else str(args.out)
    deployments = sum(len(proxy.deployed) for proxy in snapshot.api_proxies)
    if args.definitions:
        progress(
            f"wrote {len(snapshot.endpoints)} endpoints of {len(snapshot.proxies)} proxies, "
            f"{len(snapshot.api_proxies)} API proxies and {deployments} deployments to {where}"
        )
    else:
        groups = sum(len(group.deployed) for group in families.groups)
        progress(f"wrote {deployments} proxy deployments, {groups} group deployments and the values of "
                 f"{args.environment} to {where}")
    credential_keys = [credential_password_key(record) for record in snapshot.credentials]
    _secret_config(progress, credential_keys, f"{len(credential_keys)} credential(s): set each password",
                   "password")
    if written:
        progress(f"and {len(written)} certificate(s), their PEM files in {written[0].parent}")
    secret_values = secret_keys(families.variables, args.environment, whole=args.definitions)
    _secret_config(progress, secret_values, f"{len(secret_values)} secret environment value(s): set each")
    jwk_keys = jwk_secret_keys(families.jwks)
    _secret_config(progress, jwk_keys, f"{len(jwk_keys)} JWK(s) with a private part: set each to the JWK's "
                   f"JSON (the gateway's GET .../jwks/<name>/ answers it)", "json")
    _secret_config(progress, material_secret_keys(families.material),
                   f"{len(families.material)} keystore(s) and crypto key(s): set each file, password and "
                   f"private key")
    connection_secrets = connection_secret_keys(families.connections)
    _secret_config(progress, connection_secrets,
                   f"{len(connection_secrets)} secret connection field(s): set each")
    return EXIT_OK


def _secret_config(progress: Progress, keys: Sequence[str], what: str, placeholder: str = "value") -> None:
    """The line that asks for the stack config keys the program reads with ``config.require_secret``."""
    if keys:
        progress(f"and {what} with `pulumi config set --secret <key> <{placeholder}>` before `pulumi up` "
                 f"(keys: {', '.join(keys)})")


def run(args: argparse.Namespace) -> int:
    """The command of a command line that :func:`cli.main` has read and found well formed."""

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    try:
        connection = resolve_connection(
            flags={key: getattr(args, key) for key in ("url", "token", "username", "password")},
            project_dir=args.project_dir,
            stack=args.stack,
        )
        progress(", ".join(f"{what} from {where}" for what, where in connection.sources))
        with _client(connection) as client:
            return _check(args, client, progress) if args.check else _generate(args, client, progress)
    except (ConnectionSettingsError, NotOnGatewayError, ApinizerError) as error:
        print(f"apinizer-pulumi generate: {error}", file=sys.stderr)
        return EXIT_ERROR
