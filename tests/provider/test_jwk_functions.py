"""``get_jwks`` and ``get_jwk``, called from the program's process against a live emulator: the list
without key material, one JWK with its public part and no private member in clear."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import apinizer_pulumi as apinizer
from apinizer_pulumi.client import ApinizerClient, BadRequestError, NotFoundError
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_get_jwks_and_get_jwk_answer_no_private_member(emulator_url: str, client: ApinizerClient) -> None:
    client.jwks.generate("Demo", {"name": "signing", "type": "RSA", "kid": "rsa-1", "rsa": {"keySize": 2048}})
    client.jwks.generate("Demo", {"name": "shared", "type": "OCT", "oct": {"keySize": 256}})
    connection = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")
    full = client.jwks.get("Demo", "signing")
    assert full.rsa is not None and full.rsa.d  # what the gateway answers: the private exponent too

    listed = apinizer.get_jwks("Demo", connection=connection)
    one = apinizer.get_jwk("Demo", "signing", connection=connection)
    symmetric = apinizer.get_jwk("Demo", "shared", connection=connection)

    assert [(item.name, item.kid) for item in listed if item.name == "signing"] == [("signing", "rsa-1")]
    assert all(item.rsa is None and item.oct is None for item in listed)
    assert one.id == next(item.id for item in listed if item.name == "signing")
    assert one.rsa is not None and (one.rsa.n, one.rsa.e) == (full.rsa.n, full.rsa.e)
    assert (one.rsa.d, one.rsa.p, one.rsa.q, one.rsa.dp, one.rsa.dq, one.rsa.qi) == (None,) * 6
    assert full.rsa.d not in one.model_dump_json()
    assert symmetric.oct is not None and symmetric.oct.k is None


def test_an_unknown_jwk_or_project_raises_the_clients_errors(emulator_url: str) -> None:
    connection = {"url": emulator_url, "token": "dev-admin-token"}
    with pytest.raises(BadRequestError, match=r"JWK \(name: nothing\) is not found"):
        apinizer.get_jwk("Demo", "nothing", connection=connection)
    with pytest.raises(NotFoundError):
        apinizer.get_jwks("Nowhere", connection=connection)
