"""The committed stack files: credentials only as secrets, except the emulator's own dev tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .harness import EXAMPLES, ROOT

STACK_FILES = sorted([*ROOT.glob("Pulumi.*.yaml"), *EXAMPLES.glob("*/Pulumi.*.yaml")])
#: Tokens of the emulator's default fixture: they open nothing but a local emulator.
FIXTURE_TOKENS = {"dev-admin-token", "dev-developer-token", "dev-analyst-token", "dev-guest-token"}
CREDENTIAL_WORDS = ("token", "password", "secret")


def test_there_are_stack_files() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in STACK_FILES}
    assert {"Pulumi.dev.yaml", "Pulumi.prod.yaml", "examples/quickstart/Pulumi.dev.yaml"} <= names


@pytest.mark.parametrize("path", STACK_FILES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_credentials_are_secrets_or_local_fixture_tokens(path: Path) -> None:
    config = (yaml.safe_load(path.read_text()) or {}).get("config") or {}
    for key, value in config.items():
        if not any(word in key.rsplit(":", 1)[-1].lower() for word in CREDENTIAL_WORDS):
            continue
        is_secret = isinstance(value, dict) and set(value) == {"secure"}
        assert is_secret or value in FIXTURE_TOKENS, f"{path.name}: {key} is in clear text"
        if not is_secret:
            # A fixture token only makes sense against a gateway on this machine.
            urls = [url for name, url in config.items() if name.lower().endswith("url")]
            assert urls and all(url.startswith("http://127.0.0.1:") for url in urls), f"{path.name}: {key}"

