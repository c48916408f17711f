"""Read-only functions: look things up on the gateway from a Pulumi program.

They run in the program's process (not in the provider's), synchronously, and return the typed
models; call them directly or inside ``Output.apply``. The connection comes from the
``connection`` argument, then the stack config ``apinizer:*``, then the environment ``APINIZER_*``.
Gateway errors raise the client's typed exceptions (``apinizer_pulumi.client.NotFoundError``...).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import (
    AccessReport,
    ApiProxy,
    ApiProxyGroupInfo,
    ApiProxyReportItem,
    ApiProxySummary,
    Certificate,
    ConnectionBase,
    ConnectionEntry,
    CredentialWithAccess,
    Endpoint,
    EndpointPolicies,
    Environment,
    EnvironmentVariable,
    HttpMethod,
    Jwk,
    Project,
    ProxyPolicies,
)

from ._args import to_props
from ._connection import ConnectionArgs, client_for, program_stack_config, resolve, unwrap_secret

Connection = ConnectionArgs | Mapping[str, Any] | None


def _client(connection: Connection) -> ApinizerClient:
    given = unwrap_secret(to_props(connection)) if connection is not None else None
    return client_for(resolve(given if isinstance(given, Mapping) else None, program_stack_config()))


def get_endpoints(project_name: str, api_proxy_name: str, connection: Connection = None) -> list[Endpoint]:
    """Every endpoint of an API proxy (REST or SOAP), without their policies.

    One ``GET .../apiProxies/{api_proxy_name}/endpoints/`` request, made when called (also
    during ``pulumi preview``).

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy whose endpoints to list.
    :param connection: Where the gateway is and how to log in (``ConnectionArgs`` or a dict with
        ``url`` and ``token``, or ``username`` and ``password``); defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The endpoints, in the gateway's order; an empty list when the proxy has none.
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    return _client(connection).endpoints.list(project_name, api_proxy_name)


def get_endpoint(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> Endpoint:
    """One endpoint, addressed by its name (path) and HTTP method.

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy that holds the endpoint.
    :param name: The endpoint's path, e.g. ``/pets``.
    :param http_method: Its HTTP method: an ``HttpMethod`` or its value (``"GET"``).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The endpoint with its id, description, ``active`` flag and backend.
    :raises apinizer_pulumi.client.BadRequestError: No endpoint has this (name, method); its
        ``is_endpoint_not_found`` is true.
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    """
    return _client(connection).endpoints.get(project_name, api_proxy_name, name, http_method)


def get_endpoint_policies(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> EndpointPolicies:
    """One endpoint with the summaries of the policies in its request, response and error pipelines.

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy that holds the endpoint.
    :param name: The endpoint's path, e.g. ``/pets``.
    :param http_method: Its HTTP method: an ``HttpMethod`` or its value (``"GET"``).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The endpoint plus ``request_policy_list``, ``response_policy_list`` and
        ``error_policy_list`` (type, name, description and ``active`` of each policy; empty lists
        where a pipeline has none).
    :raises apinizer_pulumi.client.BadRequestError: No endpoint has this (name, method).
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    """
    return _client(connection).endpoints.policies(project_name, api_proxy_name, name, http_method)


def get_organization_access_report(connection: Connection = None) -> AccessReport:
    """The organization report: externally shared API proxies and data models.

    Only proxies shared ``EXTERNAL`` or ``BOTH`` are listed. The caller must be a system
    administrator or a system analyzer.

    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: ``result.api_proxy_list`` (name, ``sharing_type`` and ``access_list`` of each
        proxy) and ``result.data_model_list``.
    :raises apinizer_pulumi.client.AuthenticationError: A 401: the token is invalid, or its user
        is neither a system administrator nor a system analyzer.
    """
    return _client(connection).reports.organization_access()


def get_projects(connection: Connection = None) -> list[Project]:
    """The projects the caller is a member of (name and description).

    One ``GET /apiops/projects/`` request, made when called (also during ``pulumi preview``).

    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The projects; an empty list when the caller belongs to none.
    """
    return _client(connection).projects.list()


def get_environments(project_name: str | None = None, connection: Connection = None) -> list[Environment]:
    """Environments: all of them, or those a project can deploy to.

    Without ``project_name``: ``GET /apiops/environments/``, which only an administrator may call.
    With it: ``GET /apiops/environments/{project_name}``, open to the project's members.

    :param project_name: The project whose environments to list; leave out for every environment.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: Each environment's name, description, type, status and access URL.
    :raises apinizer_pulumi.client.AuthenticationError: Every environment asked for by a user who
        is not an administrator (401).
    :raises apinizer_pulumi.client.BadRequestError: An unknown project, or one the caller is not a
        member of (400).
    """
    environments = _client(connection).environments
    return environments.list() if project_name is None else environments.list_for_project(project_name)


def get_api_proxies(project_name: str, connection: Connection = None) -> list[ApiProxySummary]:
    """The API proxies of a project, ordered by name (name, description, type, first relative path).

    :param project_name: The project whose proxies to list.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    """
    return _client(connection).api_proxies.list(project_name)


def get_api_proxy(project_name: str, name: str, connection: Connection = None) -> ApiProxy:
    """One API proxy with its client route, routing and deployment list.

    :param project_name: The project that holds the proxy.
    :param name: The proxy's name.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The proxy; ``deployment_list`` has one line per environment it was deployed to
        (``deployed``, ``redeploy_required``).
    :raises apinizer_pulumi.client.NotFoundError: The proxy (or project) does not exist.
    """
    return _client(connection).api_proxies.get(project_name, name)


def get_api_proxies_report(include_endpoints: bool = False,
                           connection: Connection = None) -> list[ApiProxyReportItem]:
    """The API proxies report: every proxy of the organization, optionally with its endpoints.

    The caller must be a system administrator or a system analyzer.

    :param include_endpoints: Also list each proxy's endpoints (``"<METHOD> <path>"`` names).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :raises apinizer_pulumi.client.AuthenticationError: A 401: the caller is neither a system
        administrator nor a system analyzer.
    """
    return _client(connection).reports.api_proxies(include_endpoints=include_endpoints)


def get_environment_variables(project_name: str, connection: Connection = None) -> list[EnvironmentVariable]:
    """The environment variables of a project, ordered by name, with their value per environment.

    One ``GET .../environmentVariables/`` request. Secret values (not visible) come back masked
    as None. There is no ``get_ip_groups``: the API has no operation that lists or reads IP groups.

    :param project_name: The project whose variables to list.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: Each variable's name, description, kind (``global_``) and values.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist (404).
    :raises apinizer_pulumi.client.PermissionDeniedError: The caller lacks ROLE_API_SECURITY (403).
    """
    return _client(connection).environment_variables.list(project_name)
# -- credentials ------------------------------------------------------------------------------------


def get_credentials(project_name: str, connection: Connection = None) -> list[CredentialWithAccess]:
    """Every credential of a project, each with the API proxies and groups it may call.

    One ``GET .../credentials/`` request, then one ``GET .../credentials/{username}/access/`` per
    credential, made when called (also during ``pulumi preview``). Passwords cannot be read: the
    gateway answers none.

    :param project_name: The project whose credentials to list.
    :param connection: Where the gateway is and how to log in; defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The credentials in the gateway's order, each a :class:`CredentialWithAccess` (a
        ``Credential`` with ``access``, a list of ``CredentialAccess``).
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    client = _client(connection)
    return [
        CredentialWithAccess(**item.model_dump(),
                             access=client.credentials.access(project_name, item.username))
        for item in client.credentials.list(project_name)
    ]
def get_policies(project_name: str, api_proxy_name: str, connection: Connection = None) -> ProxyPolicies:
    """Every policy of an API proxy: its request, response and error pipelines and each endpoint's.

    One ``GET .../apiProxies/{api_proxy_name}/policies/`` request, made when called (also during
    ``pulumi preview``). Each policy is its type's model (``apinizer_pulumi.models``), in pipeline
    order; secret fields are hidden from ``repr`` but readable as attributes.

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy whose policies to list.
    :param connection: Where the gateway is and how to log in (``ConnectionArgs`` or a dict with
        ``url`` and ``token``, or ``username`` and ``password``); defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The proxy's ``ProxyPolicies``: ``request_policy_list``, ``response_policy_list``,
        ``error_policy_list`` and ``endpoint_list`` (each endpoint with its own three lists).
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    return _client(connection).policies.list(project_name, api_proxy_name)
def get_api_proxy_groups(project_name: str, with_environments: bool = True,
                         connection: Connection = None) -> list[ApiProxyGroupInfo]:
    """The API proxy groups of a project, each with the environments it is deployed to.

    One ``GET .../apiProxyGroups/`` request, and one ``GET .../apiProxyGroups/{name}/environments/``
    per group when ``with_environments`` (the default). The API lists neither a group's members
    nor its client route.

    :param project_name: The project whose groups to list.
    :param with_environments: Also read where each group is deployed (one request per group).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The groups in the gateway's order (``id``, ``name``, ``description``,
        ``environments``: the names of the environments it is deployed to, empty when not asked).
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    """
    client = _client(connection)
    found = []
    for group in client.api_proxy_groups.list(project_name):
        environments = ([item.environment_name for item in client.api_proxy_groups.environments(
            project_name, group.name) if item.deployed] if with_environments else [])
        found.append(ApiProxyGroupInfo(**group.model_dump(), environments=environments))
    return found


# -- JWKs --------------------------------------------------------------------------------------------


def get_jwks(project_name: str, connection: Connection = None) -> list[Jwk]:
    """Every JWK of a project, without key material (the list operation answers none).

    One ``GET .../jwks/`` request, made when called (also during ``pulumi preview``).

    :param project_name: The project whose JWKs to list.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The JWKs by name: ``id`` (what a policy's ``jwk_id_for_validation_and_sign`` names),
        ``name``, ``description``, ``source_type``, ``source_url``, ``type`` and ``kid``.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    return _client(connection).jwks.list(project_name)


def get_jwk(project_name: str, name: str, connection: Connection = None) -> Jwk:
    """One JWK with its public key material: ``rsa`` (``n``, ``e``), ``ec`` (``crv``, ``x``, ``y``) or
    ``okp`` (``crv``, ``x``). Its private members (``d``, ``p``, ``q``, ``dp``, ``dq``, ``qi``, and an
    ``oct`` key's ``k``) are left out, so that nothing secret lands in the program's values in clear;
    the ``Jwk`` resource's ``private_jwk`` output holds them as a secret.

    One ``GET .../jwks/{name}/`` request, made when called (also during ``pulumi preview``).

    :param project_name: The project that holds the JWK.
    :param name: The JWK's name.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The JWK, as ``get_jwks`` lists it, with its public key material.
    :raises apinizer_pulumi.client.BadRequestError: No JWK has this name (``JWK (name: ...) is not found!``).
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    """
    found = _client(connection).jwks.get(project_name, name)
    public = {}
    for kind in ("rsa", "ec", "oct", "okp"):
        part = getattr(found, kind)
        if part is not None:
            private = [field for field, info in type(part).model_fields.items()
                       if isinstance(info.json_schema_extra, dict) and info.json_schema_extra.get("x-secret")]
            public[kind] = part.model_copy(update=dict.fromkeys(private))
    return found.model_copy(update=public)
# -- keystores and crypto keys: what they hold per environment, by digest; never the key material.


@dataclasses.dataclass(frozen=True)
class KeyMaterialEnvironment:
    """One environment's material of a keystore or crypto key, by its sha256 (as the resources'
    outputs record it): ``type`` and ``sha256`` for a keystore's file, ``public_key_sha256`` and
    ``private_key_sha256`` for a key's halves (None where it has none)."""

    environment_name: str
    type: str | None = None
    sha256: str | None = None
    public_key_sha256: str | None = None
    private_key_sha256: str | None = None


@dataclasses.dataclass(frozen=True)
class KeyMaterialObject:
    """A keystore or crypto key of a project: its gateway id (a policy's ``crypto_key_info_id``),
    name, description, ``key_type`` (crypto keys) and its environments."""

    id: str | None
    name: str
    description: str | None
    environments: list[KeyMaterialEnvironment]
    key_type: str | None = None


def _key_material(provider: Any, items: list[Any]) -> list[KeyMaterialObject]:
    return [KeyMaterialObject(id=item.id, name=item.name, description=item.description,
                              key_type=provider.live_extra(item).get("key_type"),
                              environments=[KeyMaterialEnvironment(**entry)
                                            for entry in provider.live_entries(item)])
            for item in items]


def get_keystores(project_name: str, connection: Connection = None) -> list[KeyMaterialObject]:
    """Every keystore of a project, each environment's file by its sha256 (the files and passwords
    are left out).

    One ``GET .../keystores/`` request, made when called (also during ``pulumi preview``).

    :param project_name: The project whose keystores to list.
    :param connection: Where the gateway is and how to log in; defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The keystores in the gateway's order, each a :class:`KeyMaterialObject` whose
        environments give ``environment_name``, ``type`` and ``sha256``.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    from .keystore import KeystoreProvider

    return _key_material(KeystoreProvider(), _client(connection).keystores.list(project_name))


def get_crypto_keys(project_name: str, connection: Connection = None) -> list[KeyMaterialObject]:
    """Every crypto key of a project, each environment's keys by their sha256 (the keys are left out).

    One ``GET .../keys/`` request, made when called (also during ``pulumi preview``).

    :param project_name: The project whose keys to list.
    :param connection: Where the gateway is and how to log in; defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The keys in the gateway's order, each a :class:`KeyMaterialObject` with ``key_type``
        and environments giving ``environment_name``, ``public_key_sha256`` and ``private_key_sha256``.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    from .crypto_key import CryptoKeyProvider

    return _key_material(CryptoKeyProvider(), _client(connection).crypto_keys.list(project_name))
# -- connections to outside systems (Kafka, SMTP, LDAP ...), not the gateway connection ------------


def _without_secrets(item: ConnectionBase | ConnectionEntry) -> ConnectionBase | ConnectionEntry:
    """A connection read by the client, with every secret field of its type None (as the list
    answers them): a get answers them in full, and a function's result is no place for them."""
    from apinizer_pulumi.models import parse_connection
    from apinizer_pulumi.models._connection_registry import masked_connection

    masked = masked_connection(item.model_dump(mode="json", by_alias=True))
    try:
        return parse_connection(masked, listed=True)
    except ValueError:
        return ConnectionEntry.model_validate(masked)


def get_connections(project_name: str, type: str | None = None,
                    connection: Connection = None) -> list[ConnectionBase | ConnectionEntry]:
    """The project's connections to outside systems, of one type or of every type.

    One ``GET .../connections/?type=<type>`` request per type asked for (the API lists one type at a
    time: 14 requests without ``type``), made when called (also during ``pulumi preview``).
    Secret fields (passwords, passphrases, header values) are None, as the list answers them.

    :param project_name: The project whose connections to list.
    :param type: A connection type string (``kafka``, ``email``, ... as ``apinizer_pulumi.connections``
        names them in each class's ``connection_type``); default every type.
    :param connection: Where the gateway is and how to log in, as for ``get_endpoints``.
    :returns: The connections, by type then in the gateway's order, each its type's model
        (``apinizer_pulumi.models.KafkaConnection`` ...).
    :raises apinizer_pulumi.client.InvalidArgumentError: ``type`` is no connection type.
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    """
    from apinizer_pulumi.models import CONNECTION_TYPES

    client = _client(connection)
    types = [type] if type is not None else list(CONNECTION_TYPES)
    return [item for kind in types for item in client.connections.list(project_name, kind)]


def get_connection(project_name: str, name: str,
                   connection: Connection = None) -> ConnectionBase | ConnectionEntry:
    """One connection to an outside system, by name (case-insensitive), of whatever type it is.

    One ``GET .../connections/{name}/`` request, made when called. The gateway answers its secret
    fields in full; this function sets them to None (declare them from secret config instead).

    :param project_name: The project that holds the connection.
    :param name: The connection's name.
    :param connection: Where the gateway is and how to log in, as for ``get_endpoints``.
    :returns: The connection as its type's model, secret fields None.
    :raises apinizer_pulumi.client.NotFoundError: No connection has this name (404 ``Connection
        (name: <name>) was not found!``), or the project does not exist.
    """
    return _without_secrets(_client(connection).connections.get(project_name, name))
def get_certificates(project_name: str, connection: Connection = None) -> list[Certificate]:
    """The certificates of a project, each with one line per environment it is deployed to.

    One ``GET .../certificates/`` request. The list leaves out each certificate's content
    (``base64_encoded_content`` is None); ``get_certificate`` or ``export_certificate`` read it.

    :param project_name: The project whose certificates to list.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The certificates in the gateway's order: ``id`` (what a policy's ``certificate_id``
        names), ``name``, ``description`` and ``certificate_environment_list`` (per environment its
        ``alias``, ``subject_dn``, ``start_date``, ``end_date`` and ``sha1_thumbprint``).
    :raises apinizer_pulumi.client.NotFoundError: The project does not exist.
    """
    return _client(connection).certificates.list(project_name)


def get_certificate(project_name: str, name: str, connection: Connection = None) -> Certificate:
    """One certificate, with its content (base64 DER) per environment.

    :param project_name: The project that holds the certificate.
    :param name: The certificate's name.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: As an item of ``get_certificates``, with ``base64_encoded_content`` filled in.
    :raises apinizer_pulumi.client.BadRequestError: No certificate has this name
        (``Certificate (name: <name>) is not found!``).
    """
    return _client(connection).certificates.get(project_name, name)


def get_truststore_certificates(project_name: str, environment_name: str,
                                connection: Connection = None) -> list[Certificate]:
    """The certificates of an environment's truststore (the CA certificates it validates with).

    One ``GET .../certificates/truststore/{environment_name}/`` request; the page allows it in the
    admin project only.

    :param project_name: The admin project (``admin``).
    :param environment_name: The environment whose truststore to list.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: Each certificate with one line, the environment's, content included.
    :raises apinizer_pulumi.client.BadRequestError: Not the admin project, or an unknown environment
        (``Environment (<name>) is not found or user does not have privilege to access it!``).
    """
    return _client(connection).certificates.truststore(project_name, environment_name)


def export_certificate(project_name: str, name: str, environment_name: str | None = None,
                       connection: Connection = None) -> str:
    """A certificate as PEM text, from the export operation.

    One ``GET .../certificates/{name}/export/`` request, whose answer is a ZIP holding one DER file
    per environment (``<name>-<environment>.cer``).

    :param project_name: The project that holds the certificate.
    :param name: The certificate's name.
    :param environment_name: The environment whose file to take; by default the first in the ZIP.
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The certificate as one PEM block (``-----BEGIN CERTIFICATE-----`` ...).
    :raises apinizer_pulumi.client.BadRequestError: No certificate has this name.
    :raises ValueError: The ZIP holds no file for ``environment_name`` (the message lists those it holds).
    """
    from ._certificate_inputs import exported_pem

    return exported_pem(_client(connection).certificates.export(project_name, name), name,
                        environment_name).decode()
