"""IP groups and environment variables through the provider: gateway requests of a preview, an up, a
refresh and a destroy of G IP groups and V environment variables of one project.

Drives ``IpGroupProvider`` and ``EnvironmentVariableProvider`` through the SDK's dynamic provider server
over gRPC as the engine does, against an emulator subprocess, and counts requests with the emulator's
``GET /_emulator/stats``. The refresh runs in a new provider process (as ``pulumi refresh`` gets), with
every Read sent at once. Run alone:

    .venv/bin/python benchmarks/consumer_requests.py [--groups 10] [--variables 50]
"""

from __future__ import annotations

import argparse
from typing import Any

from _common import TOKEN, Row, emulator, stats, table

from apinizer_pulumi.resources import EnvironmentVariableProvider, IpGroupProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

LIST = "GET /apiops/projects/{projectName}/environmentVariables/"
#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def group(index: int) -> dict[str, Any]:
    return {
        "project_name": "Demo",
        "name": f"Group{index}",
        "addresses": [f"10.{index % 250}.0.0/16", "192.0.2.7"],
    }


def variable(index: int) -> dict[str, Any]:
    values = {"test": f"https://test{index}.example", "production": f"https://prod{index}.example"}
    return {
        "project_name": "Demo",
        "name": f"VAR_{index}",
        "environment_values": values,
        "secret": index % 2 == 1,
    }


def counts(groups: int, variables: int) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    with emulator() as url:
        config["apinizer:url"] = url
        states: list[tuple[str, str, dict[str, Any]]] = []
        declared = [("IpGroup", f"g{i}", group(i)) for i in range(groups)]
        declared += [("EnvironmentVariable", f"v{i}", variable(i)) for i in range(variables)]
        with ProviderServer(config, env=SKIP_CHECK) as server:
            engines = {
                "IpGroup": Engine(server, IpGroupProvider(), "IpGroup"),
                "EnvironmentVariable": Engine(server, EnvironmentVariableProvider(), "EnvironmentVariable"),
            }
            stats(url)
            checked = [(kind, name, engines[kind].checked(inputs)) for kind, name, inputs in declared]
            preview = stats(url)
            for kind, name, inputs in checked:
                id_, outs = engines[kind].create(inputs, name=name)
                states.append((kind, id_, outs))
            up = stats(url)
        with ProviderServer(config, env=SKIP_CHECK) as server:
            engines = {
                "IpGroup": Engine(server, IpGroupProvider(), "IpGroup"),
                "EnvironmentVariable": Engine(server, EnvironmentVariableProvider(), "EnvironmentVariable"),
            }
            futures = [engines[kind].read_future(id_, outs, name=id_) for kind, id_, outs in states]
            assert all(future.result().id for future in futures)
            refresh = stats(url)
            for kind, id_, outs in states:
                engines[kind].delete(id_, outs, name=id_)
            destroy = stats(url)
    resources = groups + variables
    return [
        Row(
            f"preview of G={groups} IP groups and V={variables} variables (requests)",
            preview["total"],
            0,
            "req",
            "0",
        ),
        Row(
            "up: create all (requests)",
            up["total"],
            2 * groups + variables,
            "req",
            "2 per group, 1 per variable",
            str(dict(up["requests"])),
        ),
        Row(
            "refresh, every Read at once over gRPC (requests)",
            refresh["total"],
            1,
            "req",
            "1 (one list for the project's variables; groups cannot be read)",
            str(dict(refresh["requests"])),
        ),
        Row("destroy (requests)", destroy["total"], resources, "req", "1 per resource"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--variables", type=int, default=50)
    args = parser.parse_args()
    print(table(counts(args.groups, args.variables)))


if __name__ == "__main__":
    main()
