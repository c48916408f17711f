"""Keystores and crypto keys through the provider: gateway requests of a preview, an up, a refresh and a
destroy of N keystores and N crypto keys (one environment each, from files).

Drives ``KeystoreProvider`` and ``CryptoKeyProvider`` through the SDK's dynamic provider server over
gRPC as the engine does, against an emulator subprocess, and counts requests with the emulator's
``GET /_emulator/stats``. Each operation runs in a new provider process (as each Pulumi command gets);
the creates, the reads of the refresh and the deletes are sent at once, as the engine sends them.
Run alone:

    .venv/bin/python benchmarks/key_requests.py [--objects 50]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import TOKEN, Row, counts_main, destroy_all, emulator, provider_process, refresh_all, stats

from apinizer_pulumi.resources import CryptoKeyProvider, KeystoreProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, deserialize

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from _key_material import ec_key, issue, pkcs12_file  # the tests' key maker

#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}
PASSWORD = "bench-Pa55"
KINDS = (("Keystore", KeystoreProvider, "keystores"), ("CryptoKey", CryptoKeyProvider, "keys"))


def material(folder: Path) -> dict[str, str]:
    from cryptography.hazmat.primitives import serialization

    keystore, key = folder / "bench.p12", folder / "bench.pem"
    keystore.write_bytes(pkcs12_file(issue("bench.example.com"), "bench", PASSWORD))
    key.write_bytes(ec_key().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return {"Keystore": str(keystore), "CryptoKey": str(key)}


def declared(kind: str, index: int, files: dict[str, str]) -> dict[str, Any]:
    if kind == "Keystore":
        return {"project_name": "Demo", "name": f"ks{index}", "environments": [
            {"environment_name": "test", "type": "PKCS12", "file": files[kind], "password": PASSWORD}]}
    return {"project_name": "Demo", "name": f"key{index}", "key_type": "EC", "environments": [
        {"environment_name": "test", "private_key_file": files[kind]}]}


def counts(objects: int) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder, emulator() as url:
        files = material(Path(folder))
        config["apinizer:url"] = url
        for kind, provider, collection in KINDS:
            names = [f"{kind}{n}" for n in range(objects)]
            stats(url)
            with provider_process(config, provider(), kind, SKIP_CHECK) as engine:
                checked = [engine.checked(declared(kind, n, files)) for n in range(objects)]
                previewed = stats(url)
                started = time.perf_counter()
                futures = [engine.create_future(inputs, name)
                           for inputs, name in zip(checked, names, strict=True)]
                made = [(future.result().id, deserialize(future.result().properties)) for future in futures]
                up_seconds = time.perf_counter() - started
                created = stats(url)
            with provider_process(config, provider(), kind, SKIP_CHECK) as engine:
                # A second preview: check and diff against the state, no change.
                for n, (id_, outs) in enumerate(made):
                    news = engine.checked(declared(kind, n, files))
                    assert engine.diff(id_, outs, news, name=names[n]).changes == DIFF_NONE
                repreviewed = stats(url)
            with provider_process(config, provider(), kind, SKIP_CHECK) as engine:
                refresh_all(engine, made, names.__getitem__)
                refreshed = stats(url)
            with provider_process(config, provider(), kind, SKIP_CHECK) as engine:
                destroy_all(engine, made, names.__getitem__)
                deleted = stats(url)
            path = f"/apiops/projects/{{projectName}}/{collection}/"
            rows += [
                Row(f"{kind}: preview of N={objects} new, then of them made (requests)",
                    previewed["total"] + repreviewed["total"], 0, "req",
                    "= 0 (check and diff are offline; the connection check skipped)", ""),
                Row(f"{kind}: up of N={objects}, creates sent at once (requests)", created["total"],
                    objects + 1, "req", "<= N + 1 (a create each; the ids from one shared list)",
                    f"creates {created['requests'].get(f'POST {path}', 0)}, "
                    f"lists {created['requests'].get(f'GET {path}', 0)}, {up_seconds:.1f} s"),
                Row(f"{kind}: refresh of the {objects}, every Read at once (requests)", refreshed["total"],
                    1, "req", "= 1 (one list per project and kind)", str(dict(refreshed["requests"]))),
                Row(f"{kind}: destroy of the {objects} (requests)", deleted["total"], objects, "req",
                    "= N (a delete each)", ""),
            ]
    return rows


def main() -> None:
    counts_main(__doc__, "objects", 50, counts)


if __name__ == "__main__":
    main()
