"""A whole ``apinizer-pulumi generate`` run, every kind read and written, never imports the Pulumi SDK:
the program is text (docs/performance.md, "Import time")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from apinizer_pulumi.client import ApinizerClient

#: What a run must not load: the SDK, gRPC, and the resource module that imports them.
SDK = ["pulumi", "grpc", "apinizer_pulumi.resources.jwk"]
#: What it did read through: the models of the kinds it wrote, the JWKs' among them.
READ = ["apinizer_pulumi.models._endpoint", "apinizer_pulumi.models._policy", "apinizer_pulumi.models._jwk",
        "apinizer_pulumi.models._connection_types", "apinizer_pulumi.resources._jwk_parts"]

RUN = """\
import json, sys
from apinizer_pulumi.generate.cli import main
code = main(["generate", "--project", "Demo", "--out", {out!r}, "--quiet"])
print(json.dumps({{"code": code, "loaded": [name for name in {names!r} if name in sys.modules]}}))
"""


def test_a_whole_run_writes_every_kind_without_the_pulumi_sdk(emulator_url: str, admin_token: str,
                                                              tmp_path: Path) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.jwks.generate("Demo", {"name": "signing", "type": "RSA", "rsa": {"keySize": 2048}})
    out = tmp_path / "__main__.py"
    env = {**{key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")},
           "APINIZER_URL": emulator_url, "APINIZER_TOKEN": admin_token}
    done = subprocess.run([sys.executable, "-c", RUN.format(out=str(out), names=SDK + READ)],
                          env=env, capture_output=True, text=True, check=False, timeout=120)

    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer == {"code": 0, "loaded": READ}
    program = out.read_text()
    assert "apinizer.Jwk(" in program and "apinizer.Endpoint(" in program
