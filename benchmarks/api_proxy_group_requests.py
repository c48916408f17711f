"""API proxy groups through the provider: requests of creating G groups (with members) deployed to two
environments, and of refreshing them all at once in a new provider process.

Drives ``ApiProxyGroupProvider`` and ``ApiProxyGroupDeploymentProvider`` through the SDK's dynamic
provider server over gRPC as the engine does, against an emulator subprocess, and counts requests with
the emulator's ``GET /_emulator/stats``. Run alone:

    .venv/bin/python benchmarks/api_proxy_group_requests.py [--groups 10]
"""

from __future__ import annotations

from typing import Any

from _common import TOKEN, Row, counts_main, emulator, stats

from apinizer_pulumi.resources import ApiProxyGroupDeploymentProvider, ApiProxyGroupProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

LIST = "GET /apiops/projects/{projectName}/apiProxyGroups/"
ENVIRONMENTS_LIST = "GET /apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/"
ENVIRONMENTS = ("test", "production")
MEMBERS = ["PetStore", "Orders"]
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def config(url: str) -> dict[str, str]:
    return {"apinizer:url": url, "apinizer:token": TOKEN}


def counts(groups: int) -> list[Row]:
    with emulator() as url:
        states: list[tuple[str, str, dict[str, Any]]] = []
        stats(url)
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            group_engine = Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup")
            deployment_engine = Engine(server, ApiProxyGroupDeploymentProvider(), "ApiProxyGroupDeployment")
            for index in range(groups):
                name = f"Group{index}"
                declared = {"project_name": "Demo", "name": name, "api_proxy_names": MEMBERS,
                            "client_route": {"relative_paths": [f"/group{index}"]}}
                id_, outs = group_engine.up(declared, name=name)
                states.append(("ApiProxyGroup", id_, outs))
                for environment in ENVIRONMENTS:
                    id_, outs = deployment_engine.up(
                        {"project_name": "Demo", "api_proxy_group_name": name,
                         "environment_name": environment},
                        name=f"{name}-{environment}")
                    states.append(("ApiProxyGroupDeployment", id_, outs))
        created = stats(url)
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engines = {
                "ApiProxyGroup": Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup"),
                "ApiProxyGroupDeployment": Engine(server, ApiProxyGroupDeploymentProvider(),
                                                  "ApiProxyGroupDeployment"),
            }
            futures = [engines[kind].read_future(id_, outs, name=id_) for kind, id_, outs in states]
            assert all(future.result().id for future in futures)
        refresh = stats(url)
    per_group = 1 + len(MEMBERS) + len(ENVIRONMENTS)  # create, members, deploys (+ the read-back list)
    return [
        Row(f"create of G={groups} groups of {len(MEMBERS)} members, each deployed to {len(ENVIRONMENTS)} "
            "environments (requests)", created["total"], groups * (per_group + 1), "req",
            f"<= G x {per_group + 1} (create, members, deploys, one list read back)",
            str(dict(created["requests"]))),
        Row(f"refresh of those {groups} groups and {groups * len(ENVIRONMENTS)} deployments, every Read at "
            "once over gRPC (requests)", refresh["total"], 1 + groups, "req",
            "<= 1 + G (one group list per project, one environments list per group)",
            f"lists {refresh['requests'].get(LIST, 0)}, environments lists "
            f"{refresh['requests'].get(ENVIRONMENTS_LIST, 0)}"),
    ]


def main() -> None:
    counts_main(__doc__, "groups", 10, counts)


if __name__ == "__main__":
    main()
