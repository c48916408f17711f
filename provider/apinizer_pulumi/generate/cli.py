"""``apinizer-pulumi generate``: write a Pulumi program from a live gateway, or check one against it.

Exit status: 0 done (or, with ``--check``, no drift); 1 drift found by ``--check``; 2 bad usage,
settings or a gateway error (the message says which).

This module reads the command line only; ``_run.py`` does the command, imported once the line is
read, so that ``--help`` and a usage error load neither the client nor httpx.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

# The installed distribution's metadata, which the package has read (`apinizer-emulator --version` too):
# one look-up, not a second one for every command line.
from apinizer_pulumi import __version__

EXIT_OK, EXIT_DRIFT, EXIT_ERROR = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="apinizer-pulumi", description="Tools for Apinizer gateways managed with Pulumi."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser(
        "generate",
        help="write a Pulumi program that adopts what a live gateway holds",
        description=(
            "Read the endpoints of a project's API proxies from a live gateway and write a Pulumi "
            "program that declares each with adopt=True. With --check, compare an existing program "
            "with the gateway instead, and exit 1 when the gateway holds something it does not declare."
        ),
    )
    gen.add_argument("--project", required=True, help="the project to read")
    gen.add_argument(
        "--proxy", action="append", default=[], metavar="NAME",
        help="an API proxy to read (repeatable); default: every API proxy of the project",
    )
    gen.add_argument(
        "--environment", metavar="NAME",
        help="write the program of this environment's stack: the deployments to it only, and its value of "
        "each variable with one value per environment, beside the definitions (unless --no-definitions; "
        "docs/generate.md); default: every environment",
    )
    gen.add_argument(
        "--no-definitions", dest="definitions", action="store_false",
        help="with --environment: write only what that environment's stack owns (its deployments and its "
        "values), for a stack beside the one that owns the definitions",
    )
    gen.add_argument("--out", type=Path, help="the program file to write (or, with --check, to read); "
                     "default: standard output")
    gen.add_argument("--check", action="store_true", help="compare --out with the gateway; write nothing")
    gen.add_argument("--rlcl", action="append", default=[], metavar="NAME",
                     help="add a commented RlclEndpoints template for this RLCL (repeatable)")
    gen.add_argument("--no-policies", dest="policies", action="store_false",
                     help="do not read each endpoint's policies (one request less per endpoint)")
    gen.add_argument("--no-retain", dest="retain", action="store_false",
                     help="leave out retain_on_delete=True, so that `pulumi destroy` deletes the adopted "
                     "endpoints from the gateway (default: destroy leaves them there)")
    gen.add_argument("--quiet", action="store_true", help="no progress on standard error")
    where = gen.add_argument_group("connection (flags, then --stack's config, then APINIZER_*)")
    where.add_argument("--url", help="the gateway's base URL")
    where.add_argument("--token", help="a personal API access token (prefer APINIZER_TOKEN)")
    where.add_argument("--username", help="a user for the token request")
    where.add_argument("--password", help="its password (prefer APINIZER_PASSWORD)")
    where.add_argument("--stack", help="read apinizer:url and apinizer:token from Pulumi.<STACK>.yaml")
    where.add_argument("--project-dir", type=Path, default=Path.cwd(),
                       help="where Pulumi.<STACK>.yaml is (default: the current directory)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.definitions and args.environment is None:
        print("apinizer-pulumi generate: --no-definitions needs --environment (the stack's environment)",
              file=sys.stderr)
        return EXIT_ERROR
    if args.check and args.out is None:
        print("apinizer-pulumi generate: --check needs --out (the program to check)", file=sys.stderr)
        return EXIT_ERROR
    from ._run import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
