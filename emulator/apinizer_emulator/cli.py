"""``apinizer-emulator``: serve the emulator, and manage personal tokens in its database."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata
import json
import sys
import threading
from collections.abc import Sequence

from .auth import TokenInfo
from .errors import EmulatorError
from .families import FAMILIES, Backend
from .fixtures import FixtureError, expiry_timestamp, load_fixture
from .store import MEMORY, Store

DEFAULT_DB = ".apinizer/emulator.db"
#: What `serve` needs beyond the package's own dependencies: the `emulator` extra installs them.
SERVER_MODULES = frozenset({"fastapi", "starlette", "uvicorn", "maxminddb"})
EXTRA_INSTALL = "pip install 'apinizer-pulumi[emulator]'"
#: The one default port of the project: `serve`, scripts/up.sh, the dev stacks, the examples and the docs.
DEFAULT_PORT = 18080


def _version() -> str:
    # One source for the version: the installed distribution's metadata, as apinizer_pulumi.__version__.
    try:
        return importlib.metadata.version("apinizer-pulumi")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def _expiry_date(text: str) -> dt.date:
    """``--expires``: a calendar date, the last day (UTC) on which the token is valid."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date of the form YYYY-MM-DD") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="apinizer-emulator", description="A local, persistent Apinizer management API."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve the management API")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (0 picks a free one; default {DEFAULT_PORT})"
    )
    serve.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file, or :memory: (default {DEFAULT_DB})")
    serve.add_argument(
        "--fixtures", default=None, help="fixture YAML (default: the packaged default fixture)"
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name requests may give in their Host header besides loopback names and the "
        "address they reach (repeatable; e.g. host.docker.internal)",
    )
    serve.add_argument(
        "--public-spec-urls-only",
        action="store_true",
        help="fetch a proxy's specUrl only from public addresses, never from loopback, private or "
        "other non-global ones (for an emulator shared on a network); link-local and metadata "
        "addresses and /_emulator/ are never fetched either way",
    )
    serve.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )

    token = sub.add_parser("token", help="personal API access tokens")
    token_sub = token.add_subparsers(dest="token_command", required=True)
    create = token_sub.add_parser("create", help="create a token and print its value (shown once)")
    create.add_argument("--user", required=True)
    create.add_argument("--name", required=True)
    create.add_argument(
        "--expires",
        type=_expiry_date,
        default=None,
        metavar="YYYY-MM-DD",
        help="last day the token is valid, through 23:59:59 UTC; today or later; default: never expires",
    )
    listing = token_sub.add_parser("list", help="list tokens (never their values)")
    listing.add_argument("--all", action="store_true", help="include access tokens from the token request")
    listing.add_argument("--json", action="store_true", help="print JSON")
    revoke = token_sub.add_parser("revoke", help="revoke a token by id, or by user and name")
    revoke.add_argument("--id", type=int, default=None)
    revoke.add_argument("--user", default=None)
    revoke.add_argument("--name", default=None)
    for command in (create, listing, revoke):
        command.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file (default {DEFAULT_DB})")
        command.add_argument("--fixtures", default=None, help="fixture for a database that is still empty")
    return parser


def _serve(args: argparse.Namespace) -> int:
    # Imported here: the token commands need no web framework.
    try:
        from .server import ReadyServer, base_url, build, uvicorn_config
    except ModuleNotFoundError as missing:
        if (missing.name or "").partition(".")[0] not in SERVER_MODULES:
            raise
        print(f"error: the emulator needs its extra ({missing.name} is not installed): {EXTRA_INSTALL}",
              file=sys.stderr)
        return 1

    backend, app = build(
        args.db,
        args.fixtures,
        host_names=[args.host, *args.allow_host],
        public_spec_urls_only=args.public_spec_urls_only,
    )
    # Closing the last connection checkpoints the WAL into the database file and removes the -wal
    # and -shm files, so a stopped emulator leaves one self-contained file behind.
    server = ReadyServer(uvicorn_config(app, args.host, args.port, args.log_level),
                         on_shutdown=backend.store.close)

    def announce_when_ready() -> None:
        server.ready.wait()
        print(
            f"apinizer-emulator: serving {base_url(args.host, server.port or args.port)} (db: {args.db})",
            flush=True,
        )

    threading.Thread(target=announce_when_ready, daemon=True).start()
    server.run()
    return 0 if server.started else 1


def _when(timestamp: float | None) -> str:
    """When a token stops working, as its last valid second.

    Tokens are valid while the clock is before ``expires_at``; a date expiry is stored as the
    midnight that ends the day, which is shown as that day's ``23:59:59Z`` so that
    ``--expires 2026-12-31`` lists as ``2026-12-31T23:59:59Z``, the day the user gave.
    """
    if timestamp is None:
        return "never"
    moment = dt.datetime.fromtimestamp(timestamp, dt.UTC)
    if moment.time() == dt.time():
        moment -= dt.timedelta(seconds=1)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _show(info: TokenInfo) -> str:
    state = "revoked" if info.revoked_at is not None else "active"
    return (
        f"{info.id:>4}  {info.username:<12} {info.name:<24} {info.kind:<8} "
        f"expires {_when(info.expires_at):<20} {state}"
    )


def _token(args: argparse.Namespace) -> int:
    if args.db == MEMORY:
        print("error: token commands need a database file (--db PATH)", file=sys.stderr)
        return 2
    backend = Backend(Store(args.db, families=FAMILIES), load_fixture(args.fixtures))
    try:
        if args.token_command == "create":
            expires = expiry_timestamp(args.expires)
            if expires is not None and expires <= backend.now():
                today = dt.datetime.fromtimestamp(backend.now(), dt.UTC).date()
                print(
                    f"error: --expires {args.expires.isoformat()} is in the past; a token must be valid "
                    f"at least through today ({today.isoformat()}, UTC): give today or a later date, "
                    "or leave --expires out for a token that never expires",
                    file=sys.stderr,
                )
                return 2
            value, info = backend.create_personal_token(args.user, args.name, expires)
            print(value)
            print(
                f"token {info.id} for {info.username} ({info.name}), expires {_when(expires)}; "
                "the value is shown only now",
                file=sys.stderr,
            )
        elif args.token_command == "list":
            tokens = backend.list_tokens(include_access=args.all)
            if args.json:
                print(json.dumps([t.to_json() for t in tokens], indent=2))
            else:
                for info in tokens:
                    print(_show(info))
        else:
            for info in backend.revoke_token(token_id=args.id, username=args.user, name=args.name):
                print(f"revoked {_show(info)}")
    finally:
        backend.store.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        return _token(args)
    except (EmulatorError, FixtureError) as exc:
        message = exc.description if isinstance(exc, EmulatorError) else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
