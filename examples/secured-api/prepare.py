"""Makes the local files the example needs, in `local/` (git ignores it); run it once before `pulumi up`.

* `local/GeoLite2-Country.mmdb`: a tiny MaxMind country database (two networks), a stand-in for the
  GeoLite2 file you download from MaxMind, which `Geolocation` uploads;
* `local/jwks.json`: the public key set of a partner's identity provider (one EC P-256 key, kid
  `acme-2026`), which `jwks_server.py` serves over HTTP as the partner would publish it.

A file already there is kept: the partner's key does not change each time this runs.

    python prepare.py
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec
from mmdb_writer import MMDBWriter
from netaddr import IPSet

HERE = Path(__file__).resolve().parent
LOCAL = HERE / "local"
MMDB_FILE = LOCAL / "GeoLite2-Country.mmdb"
JWKS_FILE = LOCAL / "jwks.json"
PARTNER_KID = "acme-2026"


def write_mmdb(target: Path) -> None:
    """Two networks, IPv6 with IPv4 mapped, as MaxMind's country databases are laid out."""
    writer = MMDBWriter(ip_version=6, database_type="GeoLite2-Country", ipv4_compatible=True)
    writer.insert_network(IPSet(["203.0.113.0/24"]), {"country": {"iso_code": "TR"}})
    writer.insert_network(IPSet(["198.51.100.0/24"]), {"country": {"iso_code": "DE"}})
    writer.to_db_file(str(target))


def _b64url(number: int) -> str:
    return base64.urlsafe_b64encode(number.to_bytes(32, "big")).rstrip(b"=").decode()


def write_jwks(target: Path) -> None:
    """The partner's key set: its public key only (the partner keeps the private one)."""
    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    key = {"kty": "EC", "crv": "P-256", "x": _b64url(public.x), "y": _b64url(public.y),
           "kid": PARTNER_KID, "use": "sig", "alg": "ES256"}
    target.write_text(json.dumps({"keys": [key]}, indent=2) + "\n")


def prepare(folder: Path = LOCAL) -> None:
    folder.mkdir(exist_ok=True)
    for target, write in ((folder / MMDB_FILE.name, write_mmdb), (folder / JWKS_FILE.name, write_jwks)):
        if target.exists():
            print(f"{target.relative_to(folder.parent)}: kept")
        else:
            write(target)
            print(f"{target.relative_to(folder.parent)}: written")


if __name__ == "__main__":
    prepare()
