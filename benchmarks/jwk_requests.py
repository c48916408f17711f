"""JWKs through the provider: gateway requests of a preview, an up (N generated keys), a refresh and a
destroy of N JWKs, and of a description changed in place.

Drives ``JwkProvider`` through the SDK's dynamic provider server over gRPC as the engine does, against
an emulator subprocess, and counts requests with the emulator's ``GET /_emulator/stats``. Each operation
runs in a new provider process (as each ``pulumi`` command gets); the refresh sends every Read at once.
Run alone:

    .venv/bin/python benchmarks/jwk_requests.py [--jwks 50]
"""

from __future__ import annotations

from typing import Any

from _common import TOKEN, Row, counts_main, destroy_all, emulator, provider_process, refresh_all, stats

from apinizer_pulumi.resources import JwkProvider
from apinizer_pulumi.resources.testing import DIFF_NONE

LIST = "GET /apiops/projects/{projectName}/jwks/"
#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def declared(index: int, description: str = "bench") -> dict[str, Any]:
    return {"project_name": "Demo", "name": f"bench{index}", "description": description,
            "generate": {"type": "EC", "kid": f"bench-{index}", "ec": {"curve_type": "P256"}}}


def counts(jwks: int) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    with emulator() as url:
        config["apinizer:url"] = url
        with provider_process(config, JwkProvider(), "Jwk", SKIP_CHECK) as engine:
            stats(url)
            for index in range(jwks):
                engine.checked(declared(index))
            previewed = stats(url)
        with provider_process(config, JwkProvider(), "Jwk", SKIP_CHECK) as engine:
            made = [engine.up(declared(index), name=f"j{index}") for index in range(jwks)]
            created = stats(url)
        with provider_process(config, JwkProvider(), "Jwk", SKIP_CHECK) as engine:
            refresh_all(engine, made, lambda n: f"j{n}")
            refreshed = stats(url)
        with provider_process(config, JwkProvider(), "Jwk", SKIP_CHECK) as engine:
            for n, (id_, outs) in enumerate(made):
                assert engine.diff(id_, outs, engine.checked(declared(n)), name=f"j{n}").changes == DIFF_NONE
            unchanged = stats(url)
            id_, outs = made[0]
            engine.update(id_, outs, engine.checked(declared(0, "rotated monthly")), name="j0")
            described = stats(url)
            destroy_all(engine, made, lambda n: f"j{n}")
            deleted = stats(url)
    return [
        Row(f"preview of N={jwks} new JWKs (check of each; requests)", previewed["total"], 0, "req",
            "= 0 (offline)", str(dict(previewed["requests"]))),
        Row(f"up of the {jwks} JWKs, each a generated EC key (requests)", created["total"], 2 * jwks, "req",
            "= 2N (a generate and one read of the key)", str(dict(created["requests"]))),
        Row(f"refresh of the {jwks} JWKs, every Read at once over gRPC (requests)", refreshed["total"], 1,
            "req", "= 1 (one list of the project; no key read unless its id changed)",
            f"lists {refreshed['requests'].get(LIST, 0)}"),
        Row(f"preview of the {jwks} JWKs unchanged (check and diff of each; requests)", unchanged["total"], 0,
            "req", "= 0 (offline: the same inputs never generate another key)",
            str(dict(unchanged["requests"]))),
        Row("a description changed in place (requests)", described["total"], 1, "req", "= 1 (update)",
            str(dict(described["requests"]))),
        Row(f"destroy of the {jwks} JWKs (requests)", deleted["total"], jwks, "req", "= N (a delete each)",
            str(dict(deleted["requests"]))),
    ]


def main() -> None:
    counts_main(__doc__, "jwks", 50, counts)


if __name__ == "__main__":
    main()
