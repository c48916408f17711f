"""What the emulator's keys and secrets operations cost, timed from this process over loopback against an
emulator subprocess on a fresh SQLite file, with real material (``tests/_key_material.py``).

No goal is set for them; the figures show where the time goes: RSA key generation and opening a
PKCS#12 or JKS file (with its key checked whole) run on the emulator's bounded CPU threads before the
write, so they never hold the writer; making a JWK from a stored key (inside the write) does not check
the key again.

    .venv/bin/python benchmarks/keys_emulator.py [--count 20]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from _common import AUTH, emulator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import _key_material as km

JWKS = "/apiops/projects/Demo/jwks/"


def timed(label: str, count: int, send: Callable[[int], httpx.Response]) -> None:
    started = time.perf_counter()
    for index in range(count):
        response = send(index)
        if response.status_code != 200:
            raise SystemExit(f"{label}: {response.status_code} {response.text}")
    each = (time.perf_counter() - started) / count * 1000
    print(f"| {label} | {count} | {each:.0f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="requests of each cheap operation")
    args = parser.parse_args()
    count = args.count
    issued = km.issue("bench.example.com", key=km.rsa_key())
    pkcs12 = km.b64(km.pkcs12_file(issued, "a", "pw"))
    jks = km.b64(km.jks_file(issued, "a", "pw"))
    pasted = json.dumps({"kty": "oct", "k": "c2VjcmV0LWtleS1ieXRlcw"})
    use = {"environmentName": "test", "useType": "SIGNATURE", "algorithm": "RS256"}
    with emulator() as url, httpx.Client(base_url=url, headers=AUTH, timeout=120) as http:
        print("| operation | requests | each |\n|---|---:|---:|")
        timed("JWK from a pasted JWK", count, lambda i: http.post(
            JWKS + "parse-from-clipboard", json={"name": f"p{i}", "jwkStr": pasted}))
        timed("JWK generated, EC P-256", count, lambda i: http.post(
            JWKS + "generate", json={"name": f"e{i}", "type": "EC", "ec": {"curveType": "P256"}}))
        timed("JWK generated, RSA 2048", max(count // 4, 1), lambda i: http.post(
            JWKS + "generate", json={"name": f"r{i}", "type": "RSA", "rsa": {"keySize": 2048}}))
        timed("JWK generated, RSA 4096", 2, lambda i: http.post(
            JWKS + "generate", json={"name": f"R{i}", "type": "RSA", "rsa": {"keySize": 4096}}))
        timed("certificate created (PEM, multipart)", count, lambda i: http.post(
            "/apiops/projects/Demo/certificates/",
            data={"certificateName": f"c{i}", "alias": f"a{i}", "certificateDescription": "",
                  "environmentList": "test"},
            files={"pemEncodedFile": ("c.pem", issued.pem)}))
        for kind, file in (("PKCS12", pkcs12), ("JKS", jks)):
            timed(f"keystore created, {kind}", count, lambda i, kind=kind, file=file: http.post(
                "/apiops/projects/Demo/keystores/", json={"name": f"{kind}{i}", "keyStoreEnvironmentList": [
                    {"environmentName": "test", "type": kind, "file": file, "password": "pw"}]}))
        timed("JWK from a keystore alias (RSA 2048)", count, lambda i: http.post(
            JWKS + "parse-from-keystore",
            json={"name": f"k{i}", "keyStoreName": "JKS0", "aliasName": "a", **use}))
        timed("JWK list", count, lambda i: http.get(JWKS))


if __name__ == "__main__":
    main()
