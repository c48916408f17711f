"""A small MaxMind DB file for tests, written by ``mmdb-writer`` (the dev extra)."""

from __future__ import annotations

from pathlib import Path

from mmdb_writer import MMDBWriter
from netaddr import IPSet


def write_mmdb(target: Path, database_type: str = "GeoLite2-Country", country: str = "TR") -> bytes:
    """Two networks, IPv6 with IPv4 mapped; ``country`` changes the bytes (a new release of the file)."""
    writer = MMDBWriter(ip_version=6, database_type=database_type, ipv4_compatible=True)
    writer.insert_network(IPSet(["8.8.8.0/24"]), {"country": {"iso_code": "US"}})
    writer.insert_network(IPSet(["81.214.0.0/16"]), {"country": {"iso_code": country}})
    writer.to_db_file(str(target))
    return target.read_bytes()
