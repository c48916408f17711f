"""`pulumi import` of a dynamic resource: one line saying what to do, not ``KeyError: '__provider'``.

The engine imports a resource by calling its provider's Read with the id alone, with neither inputs
nor state (pulumi/pulumi#16175). For dynamic resources, the SDK's provider server
(``python -m pulumi.dynamic``) finds the provider to call in those very properties, under
``__provider``: without them it fails with a traceback ending in ``KeyError: '__provider'``, and
no code of this package has run in that process to say anything better.

So the distribution installs ``apinizer_pulumi_import_guard.pth`` into site-packages, whose one line
imports this module in the provider server's process only (``pulumi.dynamic`` in ``sys.orig_argv``),
before the server's module runs. :func:`install` then has the server's Read, for a request that
carries no ``__provider`` (an import, or a ``get`` of a dynamic resource), answer with
:data:`MESSAGE` instead. It wraps the Read of the servicer that the server registers
(``add_ResourceProviderServicer_to_server``, which the server looks up when it starts), so every
other call and every other process is untouched; and if a later SDK serves Read another way, the
guard does nothing and the SDK's own error comes back. ``APINIZER_IMPORT_GUARD=0`` turns it off.
This works with any launcher that runs the project's virtualenv's Python (Pulumi's own
``pulumi-resource-pulumi-python`` and this project's build), since the ``.pth`` goes with the package.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from .._provider_server import in_provider_server

PROVIDER_KEY = "__provider"

WHY = ("dynamic resources cannot be imported: the engine reads them with neither inputs nor state, so "
       "the provider is unknown (pulumi/pulumi#16175)")
WHAT_INSTEAD = ("Declare the resource with adopt=True to take over what the gateway has (the settings and "
                "RLCL-list resources take it over by nature), or write the program for it with "
                "`apinizer-pulumi generate`")
#: The provider server's answer to ``pulumi import`` (a Read with the id alone).
MESSAGE = f"apinizer: {WHY}. {WHAT_INSTEAD}"


def refuse_import_option(opts: Any) -> None:
    """Fail a resource declared with ``opts.import_`` at once, in one line (a ``pulumi.RunError``,
    which the Python language host prints without a traceback), before the engine tries."""
    imported = getattr(opts, "import_", None)
    if imported:
        import pulumi

        raise pulumi.RunError(f"apinizer: cannot import {imported!r} (the import_ resource option): "
                              f"{WHY}. {WHAT_INSTEAD}")


def wants_guard() -> bool:
    """True in the process of the SDK's dynamic provider server, unless turned off."""
    if os.environ.get("APINIZER_IMPORT_GUARD", "1").strip() == "0":
        return False
    argv = getattr(sys, "orig_argv", ())
    return "-m" in argv and "pulumi.dynamic" in argv


def without_provider(request: Any) -> bool:
    """Whether a ReadRequest carries no serialized provider, in its state nor in its inputs."""
    return all(PROVIDER_KEY not in getattr(getattr(request, part, None), "fields", {})
               for part in ("properties", "inputs"))


def guarded_read(read: Any) -> Any:
    """The servicer's bound Read, answering :data:`MESSAGE` when the request has no provider."""
    import grpc

    def Read(request: Any, context: Any) -> Any:  # noqa: N802 - the gRPC method's name
        if without_provider(request):
            context.abort(grpc.StatusCode.UNKNOWN, MESSAGE)
        return read(request, context)

    return Read


def install() -> None:
    """Wrap the Read of the servicer that the provider server is about to register."""
    from pulumi.runtime.proto import provider_pb2_grpc

    register = provider_pb2_grpc.add_ResourceProviderServicer_to_server
    if getattr(register, "_apinizer_guard", False):
        return  # site-packages seen twice (lib and lib64): once is enough

    def add_servicer(servicer: Any, server: Any) -> Any:
        read = getattr(servicer, "Read", None)
        if in_provider_server() and callable(read):
            servicer.Read = guarded_read(read)
        return register(servicer, server)

    add_servicer._apinizer_guard = True  # type: ignore[attr-defined]
    provider_pb2_grpc.add_ResourceProviderServicer_to_server = add_servicer


if wants_guard():
    # A guard must never stop the provider server from starting.
    with contextlib.suppress(Exception):
        install()
