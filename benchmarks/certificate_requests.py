"""Certificates through the provider: gateway requests of the preview, create, refresh, a rotation
(a new PEM on one certificate) and destroy of N certificates of one project.

Drives ``CertificateProvider`` through the SDK's dynamic provider server over gRPC as the engine does,
against an emulator subprocess, with real certificates (``tests/_key_material.py``), and counts
requests with the emulator's ``GET /_emulator/stats``. The preview is each certificate's Check (and,
for the second preview, its Diff against the recorded outputs); the refresh runs in a new provider
process (as ``pulumi refresh`` gets), with every Read sent at once. Run alone:

    .venv/bin/python benchmarks/certificate_requests.py [--certificates 50]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _common import TOKEN, Row, counts_main, destroy_all, emulator, provider_process, refresh_all, stats

from apinizer_pulumi.resources import CertificateProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, deserialize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import _key_material as km

LIST = "GET /apiops/projects/{projectName}/certificates/"
#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def declared(index: int, pem: bytes) -> dict[str, Any]:
    return {"project_name": "Demo", "name": f"bench{index}", "alias": f"bench{index}",
            "environment_names": ["test", "production"], "pem": pem.decode()}


def counts(certificates: int) -> list[Row]:
    authority = km.ca()
    renewed = km.issue("renewed.example.com", issuer=authority)
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    with emulator() as url:
        config["apinizer:url"] = url
        with provider_process(config, CertificateProvider(), "Certificate", SKIP_CHECK) as engine:
            stats(url)
            checked = [engine.checked(declared(index, authority.pem)) for index in range(certificates)]
            previewed = stats(url)
            # Every Create at once, as `pulumi up` sends a program's independent resources.
            futures = [engine.create_future(inputs, name=f"c{index}") for index, inputs in enumerate(checked)]
            made = [(response.id, deserialize(response.properties))
                    for response in (future.result() for future in futures)]
            created = stats(url)
        with provider_process(config, CertificateProvider(), "Certificate", SKIP_CHECK) as engine:
            refresh_all(engine, made, lambda n: f"c{n}")
            refreshed = stats(url)
        with provider_process(config, CertificateProvider(), "Certificate", SKIP_CHECK) as engine:
            unchanged = [engine.diff(id_, outs, engine.checked(declared(n, authority.pem)), name=f"c{n}")
                         for n, (id_, outs) in enumerate(made)]
            assert all(diff.changes == DIFF_NONE for diff in unchanged)
            second_preview = stats(url)
            id_, outs = made[0]
            engine.update(id_, outs, engine.checked(declared(0, renewed.pem)), name="c0")
            rotated = stats(url)
            destroy_all(engine, made, lambda n: f"c{n}")
            deleted = stats(url)
    return [
        Row(f"preview of N={certificates} new certificates: each Check (requests)", previewed["total"], 0,
            "req", "= 0 (check is offline)", str(dict(previewed["requests"]))),
        Row(f"create of the {certificates} certificates, every Create at once (requests)", created["total"],
            2 * certificates, "req", "<= 2N (a multipart create each, lists for the ids shared)",
            f"lists {created['requests'].get(LIST, 0)}, total {dict(created['requests'])}"),
        Row(f"refresh of the {certificates} certificates, every Read at once over gRPC (requests)",
            refreshed["total"], 1, "req", "= 1 (one list for the project)", str(dict(refreshed["requests"]))),
        Row(f"preview of the {certificates} unchanged certificates: Check and Diff (requests)",
            second_preview["total"], 0, "req", "= 0 (offline)", str(dict(second_preview["requests"]))),
        Row("a rotation: a new PEM on one certificate (requests)", rotated["total"], 2, "req",
            "= 2 (the update, and the list for the id)", str(dict(rotated["requests"]))),
        Row(f"destroy of the {certificates} certificates (requests)", deleted["total"], certificates, "req",
            "= N (the delete undeploys it)", str(dict(deleted["requests"]))),
    ]


def main() -> None:
    counts_main(__doc__, "certificates", 50, counts)


if __name__ == "__main__":
    main()
