"""Policies through the provider: requests of an `up` of N policies on P proxies, of an `up` that
changes some of them, and of a refresh of them all.

Drives ``PolicyProvider`` through the SDK's dynamic provider server over gRPC as the engine does
(Check for every resource, then the Creates side by side), against an emulator subprocess, and
counts requests with the emulator's ``GET /_emulator/stats``. The refresh runs in a new provider
process (as ``pulumi refresh`` gets), with every Read sent at once. Goals: one policy list per
proxy on refresh; exactly one write per changed policy. Run alone:

    .venv/bin/python benchmarks/policy_requests.py [--policies 100] [--proxies 5] [--changed 10]
"""

from __future__ import annotations

import argparse
from typing import Any

from _common import TOKEN, emulator, stats

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import ApiProxyRequest
from apinizer_pulumi.resources import PolicyProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer, deserialize

SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}
LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/"
WRITES = ("POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/",
          "PUT /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/")


def config(url: str) -> dict[str, str]:
    return {"apinizer:url": url, "apinizer:token": TOKEN}


def declared(proxy: str, index: int, limit: int = 100) -> dict[str, Any]:
    if index % 2:
        settings: dict[str, Any] = {"ip_list": [f"10.{index}.0.0/16"]}
        kind = "policy-white-ip"
    else:
        settings = {"target_variable_for_identity": {"type": "HEADER", "header_name": "X-Key"},
                    "message_count_for_interval": limit, "throttling_interval": "ONE_MINUTE"}
        kind = "policy-api-based-throttling"
    return {"project_name": "Demo", "api_proxy_name": proxy, "name": f"p{index}", "policy_type": kind,
            "pipeline": "REQUEST", "order": index, "settings": settings}


def make_proxies(url: str, count: int) -> list[str]:
    names = [f"Bench{index}" for index in range(count)]
    with ApinizerClient(url, token=TOKEN) as client:
        for name in names:
            client.api_proxies.create_from_url("Demo", ApiProxyRequest(
                api_proxy_name=name, api_proxy_creation_type="REVERSE_PROXY",
                client_route={"relative_path_list": [f"/{name.lower()}"]},
                routing_info={"routing_address_list": [{"address": "http://backend.bench:80"}]}))
    return names


def summary(label: str, counts: dict[str, Any], goal: str) -> None:
    writes = sum(counts["requests"].get(key, 0) for key in WRITES)
    print(f"{label}: {counts['total']} requests; policy lists {counts['requests'].get(LIST, 0)}, "
          f"writes {writes} ({goal})")
    for key, value in sorted(counts["requests"].items()):
        print(f"    {value:5d}  {key}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policies", type=int, default=100)
    parser.add_argument("--proxies", type=int, default=5)
    parser.add_argument("--changed", type=int, default=10)
    args = parser.parse_args()
    per_proxy = args.policies // args.proxies
    with emulator() as url:
        proxies = make_proxies(url, args.proxies)
        stats(url)
        states: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engine = Engine(server, PolicyProvider(), "Policy")
            checked = [(proxy, engine.checked(declared(proxy, index)))
                       for proxy in proxies for index in range(1, per_proxy + 1)]
            futures = [(inputs, engine.create_future(inputs, f"{proxy}-{inputs['name']}"))
                       for proxy, inputs in checked]
            for inputs, future in futures:
                response = future.result()
                states.append((response.id, deserialize(response.properties), inputs))
        summary(f"up of {args.policies} policies on {args.proxies} proxies (creates side by side)",
                stats(url), f"goal: {args.policies} writes")

        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engine = Engine(server, PolicyProvider(), "Policy")
            for _, _outs, inputs in states:
                engine.checked({key: value for key, value in inputs.items() if key != "__provider"})
            for id_, outs, inputs in states[: args.changed]:
                news = declared(inputs["api_proxy_name"], int(inputs["name"][1:]), limit=200)
                if "ip_list" in news["settings"]:
                    news["settings"] = {"ip_list": ["192.0.2.0/24"]}
                name = f"{inputs['api_proxy_name']}-{inputs['name']}"
                engine.update(id_, outs, engine.checked(news), name=name)
        summary(f"up changing {args.changed} of them in place", stats(url), f"goal: {args.changed} writes")

        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engine = Engine(server, PolicyProvider(), "Policy")
            reads = [engine.read_future(id_, outs, name=id_) for id_, outs, _ in states]
            assert all(future.result().id for future in reads)
        summary(f"refresh of {args.policies} policies on {args.proxies} proxies, every Read at once",
                stats(url), f"goal: {args.proxies} lists, 0 writes")


if __name__ == "__main__":
    main()
