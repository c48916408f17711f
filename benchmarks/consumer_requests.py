"""IP groups and environment variables through the provider: gateway requests of a preview, an up, a
refresh and a destroy of G IP groups and V environment variables of one project, and of N
``EnvironmentVariableValue``s across two environments (two stacks on one management API).

Drives ``IpGroupProvider`` and ``EnvironmentVariableProvider`` through the SDK's dynamic provider server
over gRPC as the engine does, against an emulator subprocess, and counts requests with the emulator's
``GET /_emulator/stats``. The refresh runs in a new provider process (as ``pulumi refresh`` gets), with
every Read sent at once. The values are N/2 variables with a value in ``test`` (the dev stack's provider
process) and one in ``production`` (the prod stack's): each stack's preview, up, refresh and destroy in a
process of its own, as the CLI runs them. Run alone:

    .venv/bin/python benchmarks/consumer_requests.py [--groups 10] [--variables 50] [--values 50]
"""

from __future__ import annotations

import argparse
from typing import Any

from _common import TOKEN, Row, emulator, stats, table

from apinizer_pulumi.resources import (
    EnvironmentVariableProvider,
    EnvironmentVariableValueProvider,
    IpGroupProvider,
)
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


STACKS = {"dev": "test", "prod": "production"}


def value(index: int, environment: str) -> dict[str, Any]:
    return {"project_name": "Demo", "variable_name": f"VALUE_{index}", "environment_name": environment,
            "value": f"https://{environment}{index}.example"}


def value_engine(server: ProviderServer) -> Engine:
    return Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")


def value_counts(values: int) -> list[Row]:
    """Preview, up, refresh and destroy of the dev stack's values, then of the prod stack's; each
    operation a provider process of its own. Counts are the two stacks' together."""
    per_stack = values // 2
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    totals = dict.fromkeys(("preview", "up", "refresh", "destroy"), 0)
    seen: dict[str, dict[str, int]] = {phase: {} for phase in totals}

    def counted(phase: str, url: str) -> None:
        found = stats(url)
        totals[phase] += found["total"]
        for request, count in found["requests"].items():
            seen[phase][request] = seen[phase].get(request, 0) + count

    with emulator() as url:
        config["apinizer:url"] = url
        made: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for stack, environment in STACKS.items():
            declared = [(f"{stack}{i}", value(i, environment)) for i in range(per_stack)]
            stats(url)
            with ProviderServer(config, env=SKIP_CHECK) as server:
                for _, inputs in declared:
                    value_engine(server).checked(inputs)
            counted("preview", url)
            with ProviderServer(config, env=SKIP_CHECK) as server:
                engine = value_engine(server)
                made[stack] = [engine.create(engine.checked(inputs), name=name)
                               for name, inputs in declared]
            counted("up", url)
        for stack in STACKS:
            with ProviderServer(config, env=SKIP_CHECK) as server:
                engine = value_engine(server)
                futures = [engine.read_future(id_, outs, name=id_) for id_, outs in made[stack]]
                assert all(future.result().id for future in futures)
            counted("refresh", url)
        for stack in STACKS:
            with ProviderServer(config, env=SKIP_CHECK) as server:
                engine = value_engine(server)
                for id_, outs in made[stack]:
                    engine.delete(id_, outs, name=id_)
            counted("destroy", url)
    n = 2 * per_stack
    return [
        Row(f"preview of N={n} values, two stacks (requests)", totals["preview"], 0, "req", "0"),
        Row("up: create all (requests)", totals["up"], 2 * n, "req",
            "2 per value (a fresh read, then the merged write)", str(seen["up"])),
        Row("refresh, every Read at once, per stack (requests)", totals["refresh"], len(STACKS), "req",
            "1 per stack (one list for the project's variables)", str(seen["refresh"])),
        Row("destroy (requests)", totals["destroy"], 2 * n, "req",
            "2 per value (a fresh read, then the write without it, or the delete of the last)",
            str(seen["destroy"])),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--variables", type=int, default=50)
    parser.add_argument("--values", type=int, default=50,
                        help="EnvironmentVariableValues, half in test (dev stack), half in production")
    args = parser.parse_args()
    print(table(counts(args.groups, args.variables)))
    if args.values:
        print()
        print(table(value_counts(args.values)))


if __name__ == "__main__":
    main()
