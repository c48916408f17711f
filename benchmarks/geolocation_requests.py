"""Geolocation through the provider: gateway requests of its preview, create, refresh, updates and
destroy. One object per management API, so the counts are of that one.

Drives ``GeolocationProvider`` through the SDK's dynamic provider server over gRPC as the engine does,
against an emulator subprocess, and counts requests with the emulator's ``GET /_emulator/stats``. The
MMDB file is a small test database written by ``mmdb-writer`` (the dev extra). Run alone:

    .venv/bin/python benchmarks/geolocation_requests.py
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import TOKEN, Row, emulator, provider_process, stats, table

from apinizer_pulumi.resources import GeolocationProvider

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _mmdb import write_mmdb  # the tests' MMDB writer

#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def declared(path: Path, enabled: bool = True) -> dict[str, Any]:
    return {"mmdb_file": str(path), "mmdb_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "enabled": enabled}


def counts(folder: Path) -> list[Row]:
    config = {"apinizer:url": "", "apinizer:token": TOKEN}
    mmdb = folder / "GeoLite2-Country.mmdb"
    write_mmdb(mmdb)
    with emulator() as url:
        config["apinizer:url"] = url
        with provider_process(config, GeolocationProvider(), "Geolocation", SKIP_CHECK) as engine:
            stats(url)
            checked = engine.checked(declared(mmdb))
            previewed = stats(url)
            id_, outs = engine.create(checked, name="geo")
            created = stats(url)
        with provider_process(config, GeolocationProvider(), "Geolocation", SKIP_CHECK) as engine:
            assert engine.read(id_, outs, name="geo")[0] == id_
            refreshed = stats(url)
            outs = engine.update(id_, outs, engine.checked(declared(mmdb, enabled=False)), name="geo")
            toggled = stats(url)
            write_mmdb(mmdb, country="DE")
            outs = engine.update(id_, outs, engine.checked(declared(mmdb, enabled=False)), name="geo")
            uploaded = stats(url)
            engine.delete(id_, outs, name="geo")
            deleted = stats(url)
    return [
        Row("preview of the geolocation (requests)", previewed["total"], 0, "req", "= 0 (offline check)",
            str(dict(previewed["requests"]))),
        Row("create: upload the MMDB and enable (requests)", created["total"], 2, "req", "= 2",
            str(dict(created["requests"]))),
        Row("refresh (requests)", refreshed["total"], 0, "req", "= 0 (the API has no read)",
            str(dict(refreshed["requests"]))),
        Row("update of enabled alone (requests)", toggled["total"], 1, "req", "= 1 (disable)",
            str(dict(toggled["requests"]))),
        Row("update of the MMDB file alone (requests)", uploaded["total"], 1, "req", "= 1 (upload)",
            str(dict(uploaded["requests"]))),
        Row("destroy (requests)", deleted["total"], 1, "req", "= 1 (disable; the file stays)",
            str(dict(deleted["requests"]))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(table(counts(Path(folder))))


if __name__ == "__main__":
    main()
