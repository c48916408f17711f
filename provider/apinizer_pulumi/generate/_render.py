"""Write a gateway snapshot as a Pulumi program: a typed, ruff-clean Python module."""

from __future__ import annotations

import hashlib
import json
import shlex
from collections import Counter
from collections.abc import Sequence

from ._certificates import CertificateRecord, certificate_section
from ._connections import ConnectionRecord, connection_section
from ._groups import GroupRecord, group_section
from ._jwks import JwkRecord, jwk_section
from ._key_material import MaterialRecord, key_material_section
from ._lines import INDENT, adopted_end, declaration_head, every, module_head, slug
from ._policies import policy_section, python_literal
from ._snapshot import (
    ApiProxyRecord,
    CredentialRecord,
    EndpointRecord,
    GatewaySnapshot,
    Policies,
)
from ._variables import VariableRecord, variable_section

#: Lines of the generated module stay within this width (ruff's E501 under common settings).
WIDTH = 100

_UNREADABLE = """\
# What the management API cannot read back, so this program cannot declare it for you:
#   - endpoint cache settings (apinizer.EndpointCache) and WS-Addressing settings
#     (apinizer.EndpointWsa): declaring one writes it whole on the next `pulumi up`;
#   - RLCLs and their endpoint lists (apinizer.Rlcl, apinizer.RlclEndpoints): see the end;
#   - policies of a type the models do not hold: each endpoint names its own in a comment;
#   - IP groups (apinizer.IpGroup): the API can neither list nor read them.
"""

#: The option every adopted endpoint gets unless ``retain=False`` (``--no-retain``): ``pulumi destroy``,
#: and removing the declaration, then leave the endpoint on the gateway, as it was before Pulumi.
#: ``protect`` was the other choice: it would make ``pulumi destroy`` fail as a whole, blocking the
#: removal of what the program itself added until each adopted endpoint is unprotected.
RETAIN_OPTION = "opts=pulumi.ResourceOptions(retain_on_delete=True),"

_RLCL_NOTE = """\
# RLCL endpoint lists: the API can neither list RLCLs nor read an RLCL's endpoint list, so none is
# declared. Declaring one takes the RLCL's list over: the first `pulumi up` replaces it whole."""


def resource_name(record: EndpointRecord) -> str:
    """A readable Pulumi name such as ``demo-petstore-get-pets-id`` (for ``GET /pets/{id}``)."""
    return slug(record.project, record.proxy, record.http_method, record.name)


def proxy_resource_name(record: ApiProxyRecord) -> str:
    """``demo-petstore`` for the proxy PetStore of project Demo."""
    return slug(record.project, record.name)


def deployment_resource_name(record: ApiProxyRecord, environment: str) -> str:
    """``demo-petstore-test`` for its deployment to ``test``."""
    return slug(record.project, record.name, environment)


def resource_names(records: Sequence[EndpointRecord]) -> dict[tuple[str, str, str, str], str]:
    """Names for all records; where two would share one, each gets a short hash of its identity.

    The hash depends on the endpoint alone, so a name never changes because another endpoint came
    or went: Pulumi would read a changed name as a delete and a create.
    """
    counts = Counter(resource_name(record) for record in records)
    names: dict[tuple[str, str, str, str], str] = {}
    for record in records:
        name = resource_name(record)
        if counts[name] > 1:
            digest = hashlib.sha256("\0".join(record.key).encode()).hexdigest()[:8]
            name = f"{name}-{digest}"
        names[record.key] = name
    return names


def literal(value: str | bool, indent: str = INDENT, room: int = WIDTH) -> str:
    """A Python literal; a string too long for one line becomes implicitly joined parts."""
    if isinstance(value, bool):
        return repr(value)
    text = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(text) + 30 <= room:
        return text
    size = max(room - len(indent) - 8, 20)
    parts = [json.dumps(value[i : i + size], ensure_ascii=False) for i in range(0, len(value), size)]
    inner = indent + "    "
    return "(\n" + "".join(f"{inner}{part}\n" for part in parts) + f"{indent})"


def _comment_lines(text: str, indent: str) -> list[str]:
    """``text`` as ``# `` lines that fit the width."""
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(indent) + 2 + len(line) + 1 + len(word) > WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [f"{indent}# {item}" for item in lines]


def _policy_comment(policies: Policies | None) -> list[str]:
    if not policies:
        return []
    parts = [
        f"{pipeline}: {', '.join(names)}"
        for pipeline, names in (
            ("request", policies.request), ("response", policies.response), ("error", policies.error)
        )
        if names
    ]
    return _comment_lines("Policies on the gateway (not managed here): " + "; ".join(parts) + ".", INDENT)


def _endpoint(record: EndpointRecord, name: str, policies: Policies | None, *, retain: bool) -> list[str]:
    lines = [f"    {json.dumps(name)}: apinizer.Endpoint(", f"{INDENT}{json.dumps(name)},"]
    fields: list[tuple[str, str | bool | None]] = [
        ("project_name", record.project),
        ("api_proxy_name", record.proxy),
        ("name", record.name),
        ("http_method", record.http_method),
        ("backend_resource_url", record.backend_resource_url),
        ("backend_http_method", record.backend_http_method),
        ("description", record.description),
        ("active", record.active),
    ]
    for key, value in fields:
        if value is None:
            if key.startswith("backend_"):
                lines.append(f"{INDENT}# {key}: the gateway returned none; give it before `pulumi up`.")
            continue
        lines.append(f"{INDENT}{key}={literal(value)},")
    lines.append(f"{INDENT}adopt=True,")
    if retain:
        lines.append(f"{INDENT}{RETAIN_OPTION}")
    lines.extend(_policy_comment(policies))
    lines.append(f"{INDENT}# Not readable back: cache settings (EndpointCache), WS-Addressing (EndpointWsa).")
    lines.append("    ),")
    return lines


_PROXY_NOTE = """\
# The API proxies, each taken over as it is (adopt=True) and deployed where it is deployed now. The
# gateway cannot give back the spec a proxy was made from, so none is declared: the proxy keeps its
# spec and endpoints. Declaring spec_type with spec_file (or spec_url) later re-parses it from that
# spec on the next `pulumi up`."""


def _proxy_section(records: Sequence[ApiProxyRecord], *, retain: bool) -> list[str]:
    if not records:
        return []
    out = ["", _PROXY_NOTE, *every("API proxy", "api_proxies", "ApiProxy")]
    for record in records:
        name = proxy_resource_name(record)
        out += declaration_head("ApiProxy", name, record.project, record.name, literal=literal)
        if record.description is not None:
            out.append(f"{INDENT}description={literal(record.description)},")
        for key, block in (("routing", record.routing), ("client_route", record.client_route)):
            if block is not None:
                out.append(f"{INDENT}{key}={python_literal(block, INDENT)},")
        out += adopted_end(RETAIN_OPTION if retain else None)
    out.append("}")
    deployments = [(record, env) for record in records for env in record.deployed]
    out += every("deployment of those proxies to an environment", "deployments", "ApiProxyDeployment")
    for record, environment in deployments:
        name = deployment_resource_name(record, environment)
        proxy = proxy_resource_name(record)
        out += [f"    {json.dumps(name)}: apinizer.ApiProxyDeployment(", f"{INDENT}{json.dumps(name)},",
                f"{INDENT}project_name={literal(record.project)},",
                f"{INDENT}api_proxy_name=api_proxies[{json.dumps(proxy)}].name,",
                f"{INDENT}environment_name={literal(environment)},"]
        if retain:
            out.append(f"{INDENT}{RETAIN_OPTION}")
        out.append("    ),")
    if deployments:
        out.append("}")
    else:
        out[-1] += "}"
    return out


def _rlcl_section(project: str, rlcls: Sequence[str], example: EndpointRecord | None) -> list[str]:
    lines = ["", _RLCL_NOTE]
    for rlcl in rlcls:
        rlcl_slug = slug(project, rlcl)
        proxy = example.proxy if example else "<proxy>"
        endpoint = example.name if example else "<endpoint>"
        method = example.http_method if example else "<METHOD>"
        lines += [
            "# apinizer.RlclEndpoints(",
            f"#     {json.dumps(f'{rlcl_slug}-endpoints')},",
            f"#     project_name={json.dumps(project)},",
            f"#     rlcl_name={json.dumps(rlcl)},",
            "#     endpoints=[",
            "#         apinizer.EndpointRateLimitArgs(",
            f"#             api_proxy_name={json.dumps(proxy)},",
            f"#             endpoint_name={json.dumps(endpoint)},",
            f"#             endpoint_http_method={json.dumps(method)},",
            "#             permitted_message_count=100,",
            "#             time_interval_period_length=1,",
            '#             time_interval="ONE_MINUTE",',
            "#             cache_connection_timeout_in_seconds=3,",
            '#             cache_error_handling_type="FAIL",',
            '#             time_interval_window_type="FIXED",',
            "#         ),",
            "#     ],",
            "# )",
        ]
    return lines


def command_lines(command: str) -> list[str]:
    """The command, indented, wrapped with shell line continuations to fit the width."""
    lines, line = [], "    "
    for word in command.split(" "):
        if line.strip() and len(line) + 1 + len(word) + 2 > WIDTH:
            lines.append(line + " \\")
            line = "        " + word
        else:
            line = f"{line} {word}" if line.strip() else f"{line}{word}"
    lines.append(line)
    return lines


def render_program(
    snapshot: GatewaySnapshot, *, command: str, rlcls: Sequence[str] = (), retain: bool = True,
    variables: Sequence[VariableRecord] = (),
    groups: Sequence[GroupRecord] = (),
    jwks: Sequence[JwkRecord] = (),
    key_material: Sequence[MaterialRecord] = (),
    connections: Sequence[ConnectionRecord] = (),
    certificates: Sequence[CertificateRecord] = (),
    environment: str | None = None,
) -> str:
    """The module text: one ``Endpoint`` with ``adopt=True`` per live endpoint, in a typed dict.

    ``environment``: the program of that environment's stack: each variable with one value per
    environment as its value there (the snapshot's deployments are the caller's to narrow).

    ``command`` is the command line to regenerate it (no connection settings: never a secret).
    ``retain`` gives each endpoint ``retain_on_delete=True``, so that ``pulumi destroy`` leaves what
    existed before Pulumi on the gateway; without it, destroy deletes the adopted endpoints.
    """
    records = snapshot.endpoints
    names = resource_names(records)
    policies = {key: value for proxy in snapshot.proxies for key, value in proxy.policies.items()}
    proxies = ", ".join(proxy.name for proxy in snapshot.proxies) or "none"
    docstring = [
        f"The endpoints of project {snapshot.project} as read from the gateway (proxies: {proxies}).",
        "",
        "Generated by::",
        "",
        *command_lines(command),
        "",
        "Every endpoint and API proxy is declared with adopt=True, so the first `pulumi up` takes",
        "the existing ones over without changing them.",
        *_retain_lines(retain),
    ]
    out = [
        "",
        _UNREADABLE.rstrip("\n"),
        "",
        "#: Every endpoint, by Pulumi resource name.",
        "endpoints: dict[str, apinizer.Endpoint] = {",
    ]
    current = None
    for record in records:
        if record.proxy != current:
            current = record.proxy
            heading = f"    # -- {record.project}/{record.proxy} "
            out.append(heading + "-" * max(3, WIDTH - len(heading)))
        out.extend(_endpoint(record, names[record.key], policies.get(record.key), retain=retain))
    if records:
        out.append("}")
    else:
        out[-1] += "}"  # ``{}`` on one line, as ruff format writes it
    out.extend(_proxy_section(snapshot.api_proxies, retain=retain))
    out.extend(variable_section(variables, retain_option=RETAIN_OPTION if retain else None,
                                environment=environment))
    out.extend(policy_section([record for proxy in snapshot.proxies for record in proxy.policy_records],
                              retain=retain, retain_option=RETAIN_OPTION))
    out.extend(_rlcl_section(snapshot.project, rlcls, records[0] if records else None))
    out.extend(_credential_section(snapshot.credentials, retain=retain))
    out.extend(group_section(groups, retain=retain, indent=INDENT, retain_option=RETAIN_OPTION,
                             literal=literal))
    out.extend(jwk_section(jwks, retain=retain, indent=INDENT, retain_option=RETAIN_OPTION, literal=literal,
                           width=WIDTH))
    out.extend(key_material_section(key_material, indent=INDENT, literal=literal,
                                    retain_option=RETAIN_OPTION if retain else None))
    out.extend(connection_section(connections, retain_option=RETAIN_OPTION if retain else None))
    out.extend(certificate_section(certificates, indent=INDENT, literal=literal,
                                   retain_option=RETAIN_OPTION if retain else None))
    return "\n".join(module_head(docstring, out) + out) + "\n"


def _retain_lines(retain: bool) -> list[str]:
    if not retain:
        return [
            "",
            "Generated with --no-retain: `pulumi destroy` deletes these endpoints from the gateway.",
        ]
    return [
        "",
        "Each also has retain_on_delete=True: `pulumi destroy`, or removing a declaration, leaves the",
        "endpoint on the gateway as it was before Pulumi. Drop that option (and `pulumi up`) where Pulumi",
        "should delete it.",
    ]


def command_line(
    project: str, proxies: Sequence[str] = (), rlcls: Sequence[str] = (), *, retain: bool = True,
    environment: str | None = None, definitions: bool = True,
) -> str:
    """The command that regenerates a program: project, environment, proxies, RLCLs and ``--no-retain``,
    never a credential."""
    words = ["apinizer-pulumi", "generate", "--project", project]
    if environment is not None:
        words += ["--environment", environment]
    if not definitions:
        words.append("--no-definitions")
    for proxy in proxies:
        words += ["--proxy", proxy]
    for rlcl in rlcls:
        words += ["--rlcl", rlcl]
    if not retain:
        words.append("--no-retain")
    return shlex.join(words)


# -- credentials ------------------------------------------------------------------------------------

_CREDENTIAL_NOTE = """\
# The credentials, each taken over as it is (adopt=True) with the access it has. The gateway never
# gives a password back, so each comes from this stack's secret config; set every one before
# `pulumi up` (the password it has now, or a new one: adopting writes the declared password):
#     pulumi config set --secret <key> <password>"""


def credential_resource_name(record: CredentialRecord) -> str:
    """``demo-partner`` for the credential partner of project Demo."""
    return slug(record.project, record.username)


def credential_password_key(record: CredentialRecord) -> str:
    """The stack config key of its password: ``password-demo-partner``."""
    return f"password-{credential_resource_name(record)}"


def _list_literal(values: Sequence[str]) -> str:
    return "[" + ", ".join(json.dumps(value, ensure_ascii=False) for value in values) + "]"


def _credential_section(records: Sequence[CredentialRecord], *, retain: bool) -> list[str]:
    if not records:
        return []
    out = ["", _CREDENTIAL_NOTE, "", "config = pulumi.Config()",
           *every("credential", "credentials", "Credential")]
    for record in records:
        name = credential_resource_name(record)
        out += [*declaration_head("Credential", name, record.project, record.username, literal=literal,
                                  name_key="username"),
                f"{INDENT}password=config.require_secret({json.dumps(credential_password_key(record))}),"]
        for key, value in (("email", record.email), ("full_name", record.full_name),
                           ("description", record.description)):
            if value is not None:
                out.append(f"{INDENT}{key}={literal(value)},")
        if record.role_name_list:
            out.append(f"{INDENT}role_name_list={_list_literal(record.role_name_list)},")
        out.append(f"{INDENT}enabled={literal(record.enabled)},")
        if record.ip_list:
            out.append(f"{INDENT}ip_list={_list_literal(record.ip_list)},")
        if record.expire_date is not None:
            out.append(f"{INDENT}expire_date={literal(record.expire_date)},")
        if record.access:
            out.append(f"{INDENT}access=[")
            out += [f"{INDENT}    {{\"name\": {json.dumps(access_name)}, \"type\": {json.dumps(kind)}}},"
                    for kind, access_name in record.access]
            out.append(f"{INDENT}],")
        out += adopted_end(RETAIN_OPTION if retain else None)
    out.append("}")
    return out
