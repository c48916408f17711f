"""Every resource kind through create, update, refresh and destroy while 30% of the gateway's answers
fail; prints, per kind, what went wrong and the runs each phase took.

The kinds that depend on another (a deployment on its proxy or group, endpoint settings on their
endpoint, an RLCL's lists on the RLCL) get their parents first, made without faults as a run before
would have. API proxies, their deployments, group deployments and WSA settings (on SOAP proxies made
from a WSDL) run with half the count: each create parses a spec or deploys.

The emulator strikes 30% of all ``/apiops`` requests, from a seeded generator: 500s, 503s, 429s with
``Retry-After``, connections dropped before the request is read, and connections dropped after it
was carried out (the answer lost), 6% each. Each kind's N resources are driven through the SDK's
dynamic provider server over gRPC, four steps at a time, each run of `pulumi up` (or refresh,
destroy) in a new provider process as the engine starts one, with the preview's connection check
on. A run is repeated the way a user re-runs it: a create that failed is not in the state, a failed
update keeps the old outputs, a failed delete stays, a failed refresh keeps the state. A phase is
done when a run has no error and changes nothing.

Counted against the emulator's own record (``/_emulator/...``, which is never faulted):

* orphans: after every run, objects of the run's names on the gateway that the stack does not know;
* duplicates: objects of one name more than once;
* lost updates: after ``up`` is done (every diff says "no change"), resources whose declared values
  are not what the gateway holds, and declared resources missing from it;
* refresh: resources that a refresh dropped or changed (the gateway held what the state records);
* left behind: objects still on the gateway after ``destroy`` (for settings and lists: not back to
  the defaults that a delete writes; for deployments: still deployed).

The checks pause the faults while they read (``unfaulted``): the emulator's record, and for API
proxies and their deployments the API itself.

    .venv/bin/python benchmarks/fault_run.py [--count 20] [--fraction 0.3] [--seed 20261127]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import httpx
from _common import TOKEN, Row, emulator, table

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import (
    ApiProxyDeploymentProvider,
    ApiProxyGroupDeploymentProvider,
    ApiProxyGroupProvider,
    ApiProxyProvider,
    CertificateProvider,
    ConnectionProvider,
    CredentialProvider,
    CryptoKeyProvider,
    EndpointCacheProvider,
    EndpointProvider,
    EndpointWsaProvider,
    EnvironmentVariableProvider,
    EnvironmentVariableValueProvider,
    IpGroupProvider,
    JwkProvider,
    KeystoreProvider,
    PolicyProvider,
    RlclConditionProvider,
    RlclCredentialsProvider,
    RlclEndpointsProvider,
    RlclProvider,
)
from apinizer_pulumi.resources.api_proxy import spec_inputs
from apinizer_pulumi.resources.testing import DIFF_NONE, Engine, ProviderServer

PARALLEL = 4
MAX_RUNS = 15
PROJECT = "Demo"
#: A small spec (three operations) for the API proxies of the run.
SPECS = Path(__file__).parent.parent / "tests" / "emulator" / "specs"
SPEC = SPECS / "petstore-openapi.yaml"
#: A WSDL of two operations, for the SOAP proxies that the WSA settings go to.
WSDL = SPECS / "calculator.wsdl"
#: Kinds whose every create parses a spec or deploys run with fewer resources, to keep the whole run
#: within minutes: the share of the default count each gets.
SLOW_SHARE = 0.5

Projection = Any
"""What a check compares of one object: the declared values as the gateway holds them."""
Parent = tuple[Callable[[], Any], str, dict[str, Any]]
"""What a resource depends on: its provider, its kind's name and its declaration."""


@dataclass(frozen=True)
class Kind:
    """One resource kind: its provider, its N declarations and how to read them off the gateway."""

    name: str
    provider: Callable[[], Any]
    declared: Callable[[int, int], dict[str, Any]]
    #: The projection the gateway must hold for resource ``i`` at ``version``.
    expected: Callable[[int, int], Projection]
    #: The gateway's objects of resource ``i``'s name, as projections (empty: none; two: a duplicate).
    live: Callable[[str, dict[str, Any], int], list[Projection]]
    #: What resource ``i`` depends on: (provider, kind name, declaration), made without faults first.
    parents: Callable[[int], list[Parent]] | None = None
    #: Whether each create parses a spec or deploys (run with ``SLOW_SHARE`` of the count).
    slow: bool = False


def _state(url: str) -> dict[str, Any]:
    body: dict[str, Any] = httpx.get(f"{url}/_emulator/state", timeout=30).json()
    return body


def _demo(state: dict[str, Any]) -> dict[str, Any]:
    return next(project for project in state["projects"] if project["name"] == PROJECT)


# -- the kinds ------------------------------------------------------------------------------------


def _endpoint(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_name": "PetStore", "name": f"/fault-run/{i}",
            "http_method": "GET", "backend_resource_url": f"/v{version}/{i}", "backend_http_method": "GET",
            "description": f"endpoint {i} v{version}", "active": (i + version) % 3 != 0}


def _endpoint_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    proxy = next(p for p in _demo(state)["apiProxies"] if p["name"] == "PetStore")
    return [(e["backendResourceUrl"], e["description"], e["active"]) for e in proxy["endpoints"]
            if e["endpoint"] == f"/fault-run/{i}" and e["httpMethod"] == "GET"]


def _access(i: int, version: int) -> list[str]:
    return [["PetStore"], ["Orders", "PetStore"]][i % 2] if version == 1 else [["Orders"], []][i % 2]


def _credential(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "username": f"fault-run-{i}", "password": f"pass-{i}-{version}",
            "email": f"c{i}@example.com", "full_name": f"Client {i} v{version}",
            "access": [{"name": name, "type": "API_PROXY"} for name in _access(i, version)]}


def _credential_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(c["fullName"], sorted(a["name"] for a in c["accessList"])) for c in state["credentials"]
            if c["username"] == f"fault-run-{i}"]


def _addresses(i: int, version: int) -> list[str]:
    return [f"10.{i}.0.0/16"] if version == 1 else [f"10.{i}.0.0/16", f"192.168.{i}.1"]


def _ip_group(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "description": f"group {i} v{version}",
            "addresses": _addresses(i, version)}


def _ip_group_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(g["description"], sorted(g["ipList"])) for g in _demo(state)["ipGroups"]
            if g["name"] == f"fault-run-{i}"]


def _values(i: int, version: int) -> dict[str, str]:
    return {"test": f"https://t{i}.example/v{version}", "production": f"https://p{i}.example/v{version}"}


def _variable(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"FAULT_RUN_{i}", "description": f"variable {i} v{version}",
            "environment_values": _values(i, version)}


def _variable_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(v["description"], {e["environmentName"]: e["value"] for e in v["environmentValueList"] or []})
            for v in _demo(state)["environmentVariables"] if v["name"] == f"FAULT_RUN_{i}"]


def _rlcl(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "enabled": version == 1,
            "execution_order": "FIRST" if (i + version) % 2 else "LAST"}


def _rlcl_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(r["settings"]["enabled"], r["settings"]["executionOrder"]) for r in _demo(state)["rlcls"]
            if r["name"] == f"fault-run-{i}"]


def _members(i: int, version: int) -> list[str]:
    return ["PetStore"] if version == 1 else ["Orders", "PetStore"]


def _group(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "description": f"group {i} v{version}",
            "client_route": {"relative_paths": [f"/fault-run-{i}"]}, "api_proxy_names": _members(i, version)}


def _group_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    response = httpx.get(f"{url}/_emulator/projects/{PROJECT}/apiProxyGroups/fault-run-{i}", timeout=30)
    if response.status_code == 404:
        return []
    response.raise_for_status()
    group = response.json()
    return [(group["body"].get("description"), sorted(group["members"]))]


def _policy(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_name": "Orders", "name": f"fault-run-{i}",
            "policy_type": "policy-white-ip", "pipeline": "REQUEST", "description": f"policy {i} v{version}",
            "settings": {"ip_list": _addresses(i, version)}}


def _policy_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    proxy = next(p for p in _demo(state)["apiProxies"] if p["name"] == "Orders")
    return [(p["description"], sorted(p["ipList"])) for p in proxy["policies"]["requestPolicyList"]
            if p["name"] == f"fault-run-{i}"]


def _client(url: str) -> ApinizerClient:
    return ApinizerClient(url, token=TOKEN)


def _proxy(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "spec_type": "OPEN_API", **spec_inputs(SPEC),
            "description": f"proxy {i} v{version}",
            "client_route": {"relative_paths": [f"/fault-run-{i}/v{version}"]}}


def _proxy_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    if not any(p["name"] == f"fault-run-{i}" for p in _demo(state)["apiProxies"]):
        return []
    with _client(url) as client:
        live = client.api_proxies.get(PROJECT, f"fault-run-{i}")
    paths = live.client_route.relative_path_list if live.client_route is not None else None
    found = [p for p in _demo(state)["apiProxies"] if p["name"] == f"fault-run-{i}"]
    return [(live.description, list(paths or []))] * len(found)


def _deployed_proxy(i: int) -> list[Parent]:
    route = {"relative_paths": [f"/fault-run-deployed-{i}"]}
    return [(ApiProxyProvider, "ApiProxy", {**_proxy(i, 1), "name": f"fault-run-deployed-{i}",
                                            "client_route": route})]


def _deployment(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_name": f"fault-run-deployed-{i}", "environment_name": "test",
            "triggers": {"version": version}}


def _deployment_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    with _client(url) as client:
        line = client.api_proxies.get(PROJECT, f"fault-run-deployed-{i}").deployment("test")
    return [True] if line is not None and line.deployed else []


def _deployed_group(i: int) -> list[Parent]:
    route = {"relative_paths": [f"/fault-group-{i}"]}
    return [(ApiProxyGroupProvider, "ApiProxyGroup", {**_group(i, 1), "name": f"fault-run-deployed-{i}",
                                                      "client_route": route})]


def _group_deployment(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_group_name": f"fault-run-deployed-{i}",
            "environment_name": "test", "triggers": {"version": version}}


def _group_deployment_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    path = f"/_emulator/projects/{PROJECT}/apiProxyGroups/fault-run-deployed-{i}"
    response = httpx.get(url + path, timeout=30)
    response.raise_for_status()
    return [True] if "test" in response.json()["environments"] else []


def _endpoint_of(proxy: str, path: str, method: str) -> Callable[[int], list[Parent]]:
    def parents(i: int) -> list[Parent]:
        return [(EndpointProvider, "Endpoint", {"project_name": PROJECT, "api_proxy_name": proxy,
                                                "name": path.format(i=i), "http_method": method,
                                                "backend_resource_url": f"/backend/{i}",
                                                "backend_http_method": method})]
    return parents


def _settings_live(proxy: str, path: str, method: str, key: str,
                   project: Callable[[dict[str, Any]], Projection]) -> Callable[[str, dict[str, Any], int],
                                                                                 list[Projection]]:
    """The settings object ``key`` of an endpoint, while it is not the defaults that delete writes."""
    def live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
        owner = next(p for p in _demo(state)["apiProxies"] if p["name"] == proxy.format(i=i))
        found = [e[key] for e in owner["endpoints"]
                 if e["endpoint"] == path.format(i=i) and e["httpMethod"] == method]
        return [project(settings) for settings in found if settings and project(settings) is not None]
    return live


def _cache(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_name": "PetStore", "endpoint_name": f"/fault-cache/{i}",
            "endpoint_http_method": "GET",
            "cache_settings": {"name": f"cache-{i}", "cache_active": True, "ttl": 60 * version,
                               "handling_action": "STOP", "cache_key_type": "QUERY_PARAMS"}}


def _soap_proxy(i: int) -> list[Parent]:
    return [(ApiProxyProvider, "ApiProxy", {"project_name": PROJECT, "name": f"fault-run-soap-{i}",
                                            "spec_type": "WSDL", **spec_inputs(WSDL),
                                            "client_route": {"relative_paths": [f"/fault-run-soap-{i}"]}})]


def _wsa(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "api_proxy_name": f"fault-run-soap-{i}", "endpoint_name": "Add",
            "endpoint_http_method": "POST",
            "wsa_settings": {"wsa_enabled": True, "wsa_to": f"http://calc.example/{i}/v{version}"}}


def _rlcl_parent(i: int) -> list[Parent]:
    """The RLCL that the three kinds of its lists share (made once for all three)."""
    return [(RlclProvider, "Rlcl", {**_rlcl(i, 1), "name": f"fault-run-lists-{i}"})]


def _rlcl_entries(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "rlcl_name": f"fault-run-lists-{i}", "endpoints": [
        {"api_proxy_name": "PetStore", "endpoint_name": "/pets", "endpoint_http_method": "GET",
         "permitted_message_count": 10 * version, "time_interval_period_length": 1,
         "time_interval": "ONE_MINUTE", "cache_connection_timeout_in_seconds": 3,
         "cache_error_handling_type": "FAIL", "time_interval_window_type": "SLIDING"}]}


def _rlcl_entries_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    response = httpx.get(f"{url}/_emulator/projects/{PROJECT}/rlcl/fault-run-lists-{i}/endpoints", timeout=30)
    response.raise_for_status()
    entries = response.json()["endpointRateLimitList"]
    return [sorted(entry["permittedMessageCount"] for entry in entries)] if entries else []


def _rlcl_lists(url: str, i: int) -> dict[str, Any]:
    path = f"/_emulator/projects/{PROJECT}/rlcl/fault-run-lists-{i}/credentials"
    response = httpx.get(url + path, timeout=30)
    response.raise_for_status()
    lists: dict[str, Any] = response.json()
    return lists


def _holders(i: int, version: int) -> list[str]:
    return ["fault-run-a"] if version == 1 else ["fault-run-a", "fault-run-b"]


def _rlcl_and_holders(i: int) -> list[Parent]:
    holders = [(CredentialProvider, "Credential", {**_credential(0, 1), "username": name, "access": []})
               for name in ("fault-run-a", "fault-run-b")] if i == 0 else []
    return [*holders, *_rlcl_parent(i)]


def _rlcl_credentials(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "rlcl_name": f"fault-run-lists-{i}",
            "credential_names": _holders(i, version)}


def _rlcl_credentials_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    names = _rlcl_lists(url, i)["credentials"]
    return [names] if names else []


def _rule(version: int) -> dict[str, Any]:
    return {"condition_criteria": "VALUE",
            "first_variable": {"name": "userType", "type": "HEADER", "header_name": "X-User-Type"},
            "variable_data_type": "STRING", "value_comparison_operator": "EQ",
            "second_value_source": "VALUE", "second_value": f"PREMIUM-{version}"}


def _rlcl_condition(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "rlcl_name": f"fault-run-lists-{i}", "rules": [_rule(version)]}


def _rlcl_condition_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    condition = _rlcl_lists(url, i)["condition"]
    values = [rule.get("secondValue") for rule in (condition or {}).get("conditionRuleList") or []]
    return [values] if any(values) else []


def _environment_of(i: int) -> str:
    return ("test", "production")[i % 2]


def _variable_value(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "variable_name": f"FAULT_VALUE_{i // 2}",
            "environment_name": _environment_of(i), "value": f"https://{i}.example/v{version}"}


def _variable_value_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [e["value"] for v in _demo(state)["environmentVariables"] if v["name"] == f"FAULT_VALUE_{i // 2}"
            for e in v["environmentValueList"] or [] if e["environmentName"] == _environment_of(i)]


def _jwk(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "description": f"jwk {i} v{version}",
            "generate": {"type": "OKP", "kid": f"fault-run-{i}", "okp": {"curve_type": "ED25519"}}}


def _jwk_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(j["description"], j["kid"]) for j in _demo(state)["jwks"] if j["name"] == f"fault-run-{i}"]


KINDS = [
    Kind("Endpoint", EndpointProvider, _endpoint,
         lambda i, v: (f"/v{v}/{i}", f"endpoint {i} v{v}", (i + v) % 3 != 0), _endpoint_live),
    Kind("Credential", CredentialProvider, _credential,
         lambda i, v: (f"Client {i} v{v}", _access(i, v)), _credential_live),
    Kind("IpGroup", IpGroupProvider, _ip_group,
         lambda i, v: (f"group {i} v{v}", sorted(_addresses(i, v))), _ip_group_live),
    Kind("EnvironmentVariable", EnvironmentVariableProvider, _variable,
         lambda i, v: (f"variable {i} v{v}", _values(i, v)), _variable_live),
    Kind("Rlcl", RlclProvider, _rlcl,
         lambda i, v: (v == 1, "FIRST" if (i + v) % 2 else "LAST"), _rlcl_live),
    Kind("ApiProxyGroup", ApiProxyGroupProvider, _group,
         lambda i, v: (f"group {i} v{v}", _members(i, v)), _group_live),
    Kind("Policy", PolicyProvider, _policy,
         lambda i, v: (f"policy {i} v{v}", sorted(_addresses(i, v))), _policy_live),
    Kind("ApiProxy", ApiProxyProvider, _proxy,
         lambda i, v: (f"proxy {i} v{v}", [f"/fault-run-{i}/v{v}"]), _proxy_live, slow=True),
    Kind("ApiProxyDeployment", ApiProxyDeploymentProvider, _deployment, lambda i, v: True, _deployment_live,
         parents=_deployed_proxy, slow=True),
    Kind("ApiProxyGroupDeployment", ApiProxyGroupDeploymentProvider, _group_deployment, lambda i, v: True,
         _group_deployment_live, parents=_deployed_group, slow=True),
    Kind("EndpointCache", EndpointCacheProvider, _cache, lambda i, v: 60 * v,
         _settings_live("PetStore", "/fault-cache/{i}", "GET", "cacheSettings",
                        lambda s: s.get("ttl") if s.get("cacheActive") else None),
         parents=_endpoint_of("PetStore", "/fault-cache/{i}", "GET")),
    Kind("EndpointWsa", EndpointWsaProvider, _wsa, lambda i, v: f"http://calc.example/{i}/v{v}",
         _settings_live("fault-run-soap-{i}", "Add", "POST", "wsaSettings",
                        lambda s: s.get("wsaTo") if s.get("wsaEnabled") else None),
         parents=_soap_proxy, slow=True),
    Kind("RlclEndpoints", RlclEndpointsProvider, _rlcl_entries, lambda i, v: [10 * v], _rlcl_entries_live,
         parents=_rlcl_parent),
    Kind("RlclCredentials", RlclCredentialsProvider, _rlcl_credentials, _holders, _rlcl_credentials_live,
         parents=_rlcl_and_holders),
    Kind("RlclCondition", RlclConditionProvider, _rlcl_condition, lambda i, v: [f"PREMIUM-{v}"],
         _rlcl_condition_live, parents=_rlcl_parent),
    Kind("EnvironmentVariableValue", EnvironmentVariableValueProvider, _variable_value,
         lambda i, v: f"https://{i}.example/v{v}", _variable_value_live),
    Kind("Jwk", JwkProvider, _jwk, lambda i, v: (f"jwk {i} v{v}", f"fault-run-{i}"), _jwk_live),
]

# Keystores and crypto keys: real key material per resource and version, made once (the tests' maker).
KEYSTORE_PASSWORD = "fault-Pa55"


@functools.cache
def _material(i: int, version: int) -> tuple[str, str]:
    """(a PKCS#12 file in base64 whose alias is ``a<i>v<version>``, an EC public key in base64 DER)."""
    import base64
    import sys

    from cryptography.hazmat.primitives import serialization

    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from _key_material import ec_key, issue, pkcs12_file

    keystore = pkcs12_file(issue(f"k{i}.example.com"), f"a{i}v{version}", KEYSTORE_PASSWORD)
    public = ec_key().public_key().public_bytes(serialization.Encoding.DER,
                                                serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(keystore).decode(), base64.b64encode(public).decode()


def _keystore(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "description": f"keystore {i} v{version}",
            "environments": [{"environment_name": "test", "type": "PKCS12",
                              "content_base64": _material(i, version)[0], "password": KEYSTORE_PASSWORD}]}


def _keystore_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(k["description"], k["keyStoreEnvironmentList"][0]["aliases"]) for k in _demo(state)["keystores"]
            if k["name"] == f"fault-run-{i}"]


def _crypto_key(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "description": f"key {i} v{version}",
            "key_type": "EC", "environments": [{"environment_name": "test",
                                                "public_key": _material(i, version)[1]}]}


def _crypto_key_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(k["description"], k["cryptoKeyInfoEnvironmentList"][0]["publicKey"])
            for k in _demo(state)["cryptoKeys"] if k["name"] == f"fault-run-{i}"]


KINDS += [
    Kind("Keystore", KeystoreProvider, _keystore, lambda i, v: (f"keystore {i} v{v}", [f"a{i}v{v}"]),
         _keystore_live),
    Kind("CryptoKey", CryptoKeyProvider, _crypto_key, lambda i, v: (f"key {i} v{v}", _material(i, v)[1]),
         _crypto_key_live),
]


# -- connections to outside systems (an SMTP server each: a secret password, masked by the list) -----


def _connection(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-run-{i}", "connection_type": "email",
            "description": f"connection {i} v{version}",
            "settings": {"host": f"smtp{i}.example.com", "port": 580 + version, "auth": True,
                         "username": f"user{i}", "password": f"pass-{i}-{version}"}}


def _connection_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(c["description"], c["port"]) for c in _demo(state)["connections"]
            if c["name"] == f"fault-run-{i}"]


KINDS.append(Kind("Connection", ConnectionProvider, _connection,
                  lambda i, v: (f"connection {i} v{v}", 580 + v), _connection_live))



@functools.cache
def _certificate_pem() -> str:
    """One CA's PEM, made with ``cryptography`` (tests/_key_material.py), shared by every certificate."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import _key_material as km

    return km.ca().pem.decode()


def _certificate(i: int, version: int) -> dict[str, Any]:
    return {"project_name": PROJECT, "name": f"fault-cert-{i}", "alias": f"fault-cert-{i}-v{version}",
            "description": f"certificate {i} v{version}", "environment_names": ["test", "production"],
            "pem": _certificate_pem()}


def _certificate_live(url: str, state: dict[str, Any], i: int) -> list[Projection]:
    return [(c["description"], c["certificateEnvironmentList"][0]["alias"])
            for c in _demo(state)["certificates"] if c["name"] == f"fault-cert-{i}"]


# Certificates: a multipart create whose answer may be lost, recognised by a get of its content.
KINDS.append(Kind("Certificate", CertificateProvider, _certificate,
                  lambda i, v: (f"certificate {i} v{v}", f"fault-cert-{i}-v{v}"), _certificate_live))

# -- the runs -------------------------------------------------------------------------------------


class CheckFailedError(Exception):
    """A Check answered failures: the engine stops the whole `pulumi up` there; counted as a failed step."""


@dataclass
class Outcome:
    """One kind's figures."""

    runs: dict[str, int] = field(default_factory=dict)
    failed_steps: int = 0
    orphans: int = 0
    duplicates: int = 0
    lost_updates: int = 0
    missing: int = 0
    refresh_changed: int = 0
    #: The outputs a refresh changed, and those it filled in where the state had none.
    changed_keys: set[str] = field(default_factory=set)
    filled: set[str] = field(default_factory=set)
    left_behind: int = 0
    converged: bool = True
    count: int = 0


class Stack:
    """One kind's stack: each resource's id and outputs, run by run."""

    def __init__(self, kind: Kind, url: str, count: int) -> None:
        self.kind, self.url, self.count = kind, url, count
        self.config = {"apinizer:url": url, "apinizer:token": TOKEN}
        self.resources: dict[int, tuple[str, dict[str, Any]]] = {}
        self.outcome = Outcome(count=count)

    def _each(self, keys: list[int], step: Callable[[Engine, int], bool]) -> tuple[bool, int]:
        """``step`` for each key in a new provider process, four at a time: (changed, failures)."""
        with ProviderServer(self.config) as server:
            engine = Engine(server, self.kind.provider(), self.kind.name)

            def attempt(i: int) -> bool | None:
                try:
                    return step(engine, i)
                except (grpc.RpcError, CheckFailedError):
                    return None

            with ThreadPoolExecutor(PARALLEL) as pool:
                results = list(pool.map(attempt, keys))
        failures = sum(result is None for result in results)
        self.outcome.failed_steps += failures
        return any(results), failures

    def _converge(self, phase: str, once: Callable[[], tuple[bool, int]]) -> None:
        for run in range(1, MAX_RUNS + 1):
            changed, failures = once()
            self.outcome.orphans += self.orphans()
            if not failures and not changed:
                self.outcome.runs[phase] = run
                return
        self.outcome.runs[phase] = MAX_RUNS
        self.outcome.converged = False

    def live(self) -> list[list[Projection]]:
        with unfaulted(self.url):
            state = _state(self.url)
            return [self.kind.live(self.url, state, i) for i in range(self.count)]

    def orphans(self) -> int:
        return sum(1 for i, found in enumerate(self.live()) if found and i not in self.resources)

    def up(self, version: int) -> None:
        def one(engine: Engine, i: int) -> bool:
            checked = engine.check(self.kind.declared(i, version), name=f"r{i}")
            if checked.failures:
                raise CheckFailedError(str(checked.failures))
            news = checked.inputs
            if i not in self.resources:
                self.resources[i] = engine.create(news, name=f"r{i}")
                return True
            id_, olds = self.resources[i]
            if engine.diff(id_, olds, news, name=f"r{i}").changes == DIFF_NONE:
                return False
            self.resources[i] = (id_, engine.update(id_, olds, news, name=f"r{i}"))
            return True

        self._converge(f"up v{version}", lambda: self._each(list(range(self.count)), one))
        for i, found in enumerate(self.live()):
            self.outcome.duplicates += max(len(found) - 1, 0)
            if not found:
                self.outcome.missing += 1
            elif found[0] != self.kind.expected(i, version):
                self.outcome.lost_updates += 1

    def refresh(self) -> None:
        before = dict(self.resources)

        def one(engine: Engine, i: int) -> bool:
            id_, outs = self.resources[i]
            new_id, props, _ = engine.read(id_, outs, name=f"r{i}")
            # A value a create could not read back (a group's id) is filled in by a refresh: no change.
            recorded = {key: value for key, value in before[i][1].items() if value is not None}
            changed = {key for key, value in recorded.items() if props.get(key) != value}
            self.outcome.filled |= {key for key in props if key not in recorded}
            if new_id != id_ or changed:
                self.outcome.refresh_changed += 1
                self.outcome.changed_keys |= changed
            if new_id:
                self.resources[i] = (new_id, props)
            return False

        self._converge("refresh", lambda: self._each(sorted(self.resources), one))

    def destroy(self) -> None:
        def one(engine: Engine, i: int) -> bool:
            id_, outs = self.resources[i]
            engine.delete(id_, outs, name=f"r{i}")
            del self.resources[i]
            return True

        self._converge("destroy", lambda: self._each(sorted(self.resources), one))
        self.outcome.left_behind = sum(1 for found in self.live() if found)


def fault_rules(fraction: float, seed: int) -> list[dict[str, Any]]:
    """Five kinds, ``fraction / 5`` of all requests each: rules are tried in order, so each takes its
    share of what the ones before it let through."""
    kinds: list[dict[str, Any]] = [{"status": 500}, {"status": 503}, {"status": 429, "retry_after": 0.05},
                                   {"drop": True}, {"drop": True, "after": True}]
    share, left = fraction / len(kinds), 1.0
    rules: list[dict[str, Any]] = []
    for rule in kinds:
        rules.append({**rule, "fraction": share / left, "seed": seed + len(rules)})
        left -= share
    return rules


#: Faults fired before each pause (a clear starts the emulator's counts again).
FIRED: dict[str, int] = {}


@contextlib.contextmanager
def unfaulted(url: str) -> Iterator[None]:
    """No faults meanwhile: the checks read the API too (a proxy's description and deployments), and
    parents are made as a run before. The rules are put back as they were, their generator where it was."""
    answer = httpx.get(f"{url}/_emulator/faults", timeout=30).json()
    for name, fired in answer.get("fired", {}).items():
        FIRED[name] = FIRED.get(name, 0) + fired
    httpx.delete(f"{url}/_emulator/faults", timeout=30).raise_for_status()
    try:
        yield
    finally:
        for rule in answer["faults"]:
            httpx.post(f"{url}/_emulator/faults", json=rule, timeout=30).raise_for_status()


def make_parents(kind: Kind, url: str, count: int, made: set[str]) -> None:
    """What the kind's resources depend on, made once per run without faults (each as one resource)."""
    if kind.parents is None:
        return
    config = {"apinizer:url": url, "apinizer:token": TOKEN}
    with unfaulted(url), ProviderServer(config) as server:
        for i in range(count):
            for provider, name, declared in kind.parents(i):
                key = f"{name}/{sorted(declared.items())}"
                if key not in made:
                    Engine(server, provider(), name).up(declared, name=f"parent{len(made)}")
                    made.add(key)


def run(count: int, fraction: float, seed: int, kinds: list[str] | None = None) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    made: set[str] = set()
    with emulator() as url:
        for rule in fault_rules(fraction, seed):
            httpx.post(f"{url}/_emulator/faults", json=rule).raise_for_status()
        for kind in KINDS:
            if kinds and kind.name not in kinds:
                continue
            n = max(1, round(count * SLOW_SHARE)) if kind.slow else count
            make_parents(kind, url, n, made)
            stack = Stack(kind, url, n)
            stack.up(1)
            stack.up(2)
            stack.refresh()
            stack.destroy()
            outcomes[kind.name] = stack.outcome
        with unfaulted(url):
            pass
        print(f"faults fired: {FIRED}")
    return outcomes


def rows(count: int = 20, fraction: float = 0.3, seed: int = 20261127,
         kinds: list[str] | None = None) -> list[Row]:
    """One row per kind: the bad outcomes (goal 0), the runs of each phase in the note."""
    started = time.perf_counter()
    outcomes = run(count, fraction, seed, kinds)
    print(f"fault run: {time.perf_counter() - started:.0f} s")
    result = []
    for name, outcome in outcomes.items():
        n = outcome.count
        bad = (outcome.orphans + outcome.duplicates + outcome.lost_updates + outcome.missing
               + outcome.refresh_changed + outcome.left_behind + (0 if outcome.converged else 1))
        runs = ", ".join(f"{phase} {n}" for phase, n in outcome.runs.items())
        result.append(Row(
            f"{name}: N={n} at {fraction:.0%} faults, orphans + duplicates + lost updates + missing + "
            "refresh changes + left behind (+1 if a phase did not converge)", bad, 0, "", "= 0",
            f"orphans {outcome.orphans}, duplicates {outcome.duplicates}, lost updates "
            f"{outcome.lost_updates}, missing {outcome.missing}, refresh changes {outcome.refresh_changed}, "
            f"left behind {outcome.left_behind}; runs: {runs}; failed steps re-run {outcome.failed_steps}"
            + (f"; refresh changed {sorted(outcome.changed_keys)}" if outcome.changed_keys else "")
            + (f"; refresh filled in {sorted(outcome.filled)}" if outcome.filled else "")))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="resources of each kind")
    parser.add_argument("--fraction", type=float, default=0.3, help="share of requests that fail")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--kinds", nargs="*", choices=[kind.name for kind in KINDS],
                        help="only these kinds (default: every kind)")
    args = parser.parse_args()
    slow = ", ".join(kind.name for kind in KINDS if kind.slow)
    print(f"{slow}: {max(1, round(args.count * SLOW_SHARE))} of each (each create parses a spec or deploys)")
    print(table(rows(args.count, args.fraction, args.seed, args.kinds)))


if __name__ == "__main__":
    main()
