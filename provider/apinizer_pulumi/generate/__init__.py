"""``apinizer-pulumi generate``: from a live gateway to a Pulumi program that adopts it, and back.

Pulumi's ``import`` cannot serve dynamic resources (pulumi/pulumi#16175); this reads a project's
endpoints through the client and writes a module that declares each with ``adopt=True``, and its
``--check`` mode reports what the gateway holds that a program does not declare.

This package uses the client and the models only; it never imports the emulator, nor the Pulumi SDK
(it writes a program's text). Its names load on first use, from the imports below (``_lazy.py``), and
the models each kind needs load when that kind is read: ``--help`` and a usage error load none of them
(docs/performance.md, "Import time").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._certificates import CertificateRecord, read_certificates, write_certificate_files
    from ._check import (
        Declared,
        DeclaredProxy,
        DeclaredResource,
        Drift,
        ProxyDrift,
        ResourceDrift,
        compare,
        compare_proxies,
        compare_resources,
        declared_endpoints,
        declared_proxies,
        declared_resources,
    )
    from ._connection import Connection, ConnectionSettingsError, resolve_connection, stack_settings
    from ._program import generate_program
    from ._project import write_project
    from ._render import (
        command_line,
        credential_password_key,
        credential_resource_name,
        deployment_resource_name,
        proxy_resource_name,
        render_program,
        resource_name,
        resource_names,
    )
    from ._snapshot import (
        ApiProxyRecord,
        CredentialRecord,
        EndpointRecord,
        GatewaySnapshot,
        NotOnGatewayError,
        Policies,
        ProxySnapshot,
        confirm_project,
        discover_proxies,
        list_projects,
        read_credentials,
        read_gateway,
    )

__all__ = [
    "ApiProxyRecord",
    "Connection",
    "ConnectionSettingsError",
    "Declared",
    "DeclaredProxy",
    "Drift",
    "EndpointRecord",
    "GatewaySnapshot",
    "NotOnGatewayError",
    "Policies",
    "ProxyDrift",
    "ProxySnapshot",
    "command_line",
    "compare",
    "compare_proxies",
    "confirm_project",
    "declared_endpoints",
    "declared_proxies",
    "deployment_resource_name",
    "discover_proxies",
    "generate_program",
    "list_projects",
    "proxy_resource_name",
    "read_gateway",
    "render_program",
    "resolve_connection",
    "resource_name",
    "resource_names",
    "stack_settings",
    "write_project",
]

# Credentials (generate/_snapshot.py, generate/_render.py).
__all__ += ["CredentialRecord", "credential_password_key", "credential_resource_name", "read_credentials"]
# Every other kind generate writes, compared by --check (generate/_check.py).
__all__ += ["DeclaredResource", "ResourceDrift", "compare_resources", "declared_resources"]
# Certificates: read with their exported PEM, and the PEM files written beside a program.
__all__ += ["CertificateRecord", "read_certificates", "write_certificate_files"]


__getattr__, __dir__ = lazy_names(__name__, __file__, globals())
