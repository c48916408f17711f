"""Credentials through the provider: gateway requests of creating N credentials with access to two
proxies each, of a refresh of them, of a password change and of their destroy.

Drives ``CredentialProvider`` through the SDK's dynamic provider server over gRPC as the engine does,
against an emulator subprocess, and counts requests with the emulator's ``GET /_emulator/stats``. The
refresh runs in a new provider process (as ``pulumi refresh`` gets), with every Read sent at once.
Run alone:

    .venv/bin/python benchmarks/credential_requests.py [--credentials 20]
"""

from __future__ import annotations

from typing import Any

from _common import TOKEN, Row, counts_main, destroy_all, emulator, provider_process, refresh_all, stats

from apinizer_pulumi.resources import CredentialProvider

LIST = "GET /apiops/projects/{projectName}/credentials/"
ACCESS = "GET /apiops/projects/{projectName}/credentials/{username}/access/"
#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def declared(index: int, password: str = "bench-password") -> dict[str, Any]:
    return {"project_name": "Demo", "username": f"bench{index}", "password": password,
            "email": f"bench{index}@example.com", "full_name": f"Bench {index}",
            "access": [{"name": "PetStore", "type": "API_PROXY"}, {"name": "Orders", "type": "API_PROXY"}]}


def counts(credentials: int) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    with emulator() as url:
        config["apinizer:url"] = url
        made: list[tuple[str, dict[str, Any]]] = []
        with provider_process(config, CredentialProvider(), "Credential", SKIP_CHECK) as engine:
            stats(url)
            for index in range(credentials):
                made.append(engine.up(declared(index), name=f"c{index}"))
            created = stats(url)
        with provider_process(config, CredentialProvider(), "Credential", SKIP_CHECK) as engine:
            refresh_all(engine, made, lambda n: f"c{n}")
            refreshed = stats(url)
        with provider_process(config, CredentialProvider(), "Credential", SKIP_CHECK) as engine:
            id_, outs = made[0]
            engine.update(id_, outs, engine.checked(declared(0, "rotated-password")), name="c0")
            rotated = stats(url)
            destroy_all(engine, made, lambda n: f"c{n}")
            deleted = stats(url)
    return [
        Row(f"create of N={credentials} credentials with access to 2 proxies each (requests)",
            created["total"], 2 * credentials, "req", "= 2N (a create and one grant of both)",
            str(dict(created["requests"]))),
        Row(f"refresh of the {credentials} credentials, every Read at once over gRPC (requests)",
            refreshed["total"], credentials + 1, "req", "<= N + 1 (one list, one access read each)",
            f"lists {refreshed['requests'].get(LIST, 0)}, "
            f"access reads {refreshed['requests'].get(ACCESS, 0)}"),
        Row("a password change (requests)", rotated["total"], 1, "req", "= 1 (change password)",
            str(dict(rotated["requests"]))),
        Row(f"destroy of the {credentials} credentials (requests)", deleted["total"], credentials, "req",
            "= N (the delete takes the access with it)", str(dict(deleted["requests"]))),
    ]


def main() -> None:
    counts_main(__doc__, "credentials", 20, counts)


if __name__ == "__main__":
    main()
