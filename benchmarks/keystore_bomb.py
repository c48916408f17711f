"""What a keystore's claimed key-derivation iterations cost, and what the emulator's bound saves.

A PKCS#12 file says how many rounds of key derivation its MAC (and each encrypted part) takes, and
``cryptography`` (OpenSSL) derives that many; pyjks derives a JCEKS file's sealed keys in pure Python
with the file's count. For each count this prints the time OpenSSL takes to open a PKCS#12 file
whose MAC claims it, the time pyjks takes on a JCEKS file sealed with it (up to ``--jceks-max``), and
the time the emulator takes to refuse or read the same file (``key_material.read_keystore``: the
file's counts read from its DER first, capped at ``MAX_KEY_DERIVATION_ITERATIONS``). In process,
no server: the cost is the libraries'.

    .venv/bin/python benchmarks/keystore_bomb.py [--jceks-max 1000000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import _key_material as km
from apinizer_emulator import key_material
from fuzz.test_hostile_uploads import jceks_with_iterations, pkcs12_with_mac_iterations

COUNTS = (2048, 100_000, 1_000_000, 10_000_000)


def seconds(call: Callable[[], object]) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        call()
        outcome = "opened"
    except Exception as exc:  # the figures show what each library does with the file, whatever it raises
        outcome = type(exc).__name__
    return time.perf_counter() - started, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jceks-max", type=int, default=1_000_000, help="largest count tried on pyjks")
    args = parser.parse_args()
    import jks
    from cryptography.hazmat.primitives.serialization import pkcs12

    issued = km.issue("bomb.example.com")
    original = km.pkcs12_file(issued, "a", "pw")
    print(f"cap: {key_material.MAX_KEY_DERIVATION_ITERATIONS} iterations")
    print("| iterations | OpenSSL opens the PKCS#12 | emulator, PKCS#12 | pyjks opens the JCEKS"
          " | emulator, JCEKS |")
    print("| --- | --- | --- | --- | --- |")
    for count in COUNTS:
        bomb = pkcs12_with_mac_iterations(original, count)
        openssl, _ = seconds(lambda bomb=bomb: pkcs12.load_pkcs12(bomb, b"pw"))
        ours, outcome = seconds(lambda bomb=bomb: key_material.read_keystore(bomb, "PKCS12", "pw", "file"))
        sealed = jceks_with_iterations(issued, "pw", count)
        if count <= args.jceks_max:
            pure, _ = seconds(lambda sealed=sealed: jks.KeyStore.loads(sealed, "pw"))
            pyjks = f"{pure:.3f} s"
        else:
            pyjks = "not tried"
        refused, jceks = seconds(lambda s=sealed: key_material.read_keystore(s, "JKS", "pw", "f"))
        row = [f"{openssl:.3f} s", f"{ours:.3f} s ({outcome})", pyjks, f"{refused:.4f} s ({jceks})"]
        print(f"| {count} | {' | '.join(row)} |")


if __name__ == "__main__":
    main()
