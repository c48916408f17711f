"""Secret fields of policies (the models' ``secret_fields()``) never reach ``/_emulator/state`` in clear
text: masked at any depth, in lists too; the API's own list returns what was written, but for
the passwords that the type's page says a list clears (null there, hashed at rest)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import pytest

from _documented_policies import type_pages
from apinizer_emulator import policies, secrets_at_rest
from apinizer_pulumi.models import POLICY_TYPES, ApiModel, PolicyBase
from apinizer_pulumi.models._policy import SecretField

from .conftest import Api
from .test_keys_references import hold_what_it_names_by_name


class _Account(ApiModel):
    user_name: str
    pass_word: str | None = SecretField(default=None, description="a secret in a list item")


class _Vault(ApiModel):
    accounts: list[_Account] | None = None
    master_key: str | None = SecretField(default=None, description="a nested secret")


class _SecretivePolicy(PolicyBase):
    policy_type: ClassVar[str] = "policy-secretive"
    type: Literal["policy-secretive"] = "policy-secretive"
    client_secret: str | None = SecretField(default=None, description="a top-level secret")
    vault: _Vault | None = None
    label: str | None = None


def test_the_model_declares_its_secret_paths() -> None:
    assert _SecretivePolicy.secret_fields() == (
        "client_secret",
        "vault.accounts.pass_word",
        "vault.master_key",
    )


def test_masking_replaces_every_secret_value_and_nothing_else() -> None:
    body: dict[str, Any] = {
        "type": "policy-secretive",
        "clientSecret": "s3cret-top",
        "label": "s3cret-top-look-alike",
        "vault": {
            "masterKey": "s3cret-nested",
            "accounts": [{"userName": "a", "passWord": "s3cret-1"}, {"userName": "b"}],
        },
    }
    masked = policies.mask_secrets(body, _SecretivePolicy)
    assert masked == {
        "type": "policy-secretive",
        "clientSecret": policies.MASK,
        "label": "s3cret-top-look-alike",
        "vault": {
            "masterKey": policies.MASK,
            "accounts": [{"userName": "a", "passWord": policies.MASK}, {"userName": "b"}],
        },
    }
    assert body["clientSecret"] == "s3cret-top"  # the stored body is left alone


def _secret_values(model: type[PolicyBase], body: Any, paths: list[list[str]]) -> list[str]:
    """The values at the secret paths of a policy body (the API's names, lists walked)."""
    found: list[str] = []
    for parts in paths:
        values = [body]
        current: Any = model
        for part in parts:
            field = current.model_fields[part]
            key = field.alias or part
            values = [
                v.get(key)
                for item in values
                for v in (item if isinstance(item, list) else [item])
                if isinstance(v, dict)
            ]
            values = [v for v in values if v is not None]
            current = policies._nested_model(field.annotation)
        found.extend(str(v) for v in values if isinstance(v, str) and v)
    return found


_SECRET_EXAMPLES = [
    (policy_type, index, example)
    for policy_type, examples in type_pages().items()
    if policy_type in POLICY_TYPES and POLICY_TYPES[policy_type].secret_fields()
    for index, example in enumerate(examples)
    if isinstance(example.get("body"), dict) and isinstance(example["body"].get("policy"), dict)
]


@pytest.mark.parametrize(
    ("policy_type", "index", "example"), _SECRET_EXAMPLES, ids=[f"{t}[{i}]" for t, i, _ in _SECRET_EXAMPLES]
)
def test_the_state_masks_a_documented_policys_secrets(
    api: Api, policy_type: str, index: int, example: dict[str, Any]
) -> None:
    model = POLICY_TYPES[policy_type]
    policy = example["body"]["policy"]
    secrets = _secret_values(model, policy, [p.split(".") for p in model.secret_fields()])
    body = {
        "operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False},
        "policy": policy,
    }
    # The WS-Security examples name their keystores: the gateway must hold them (test_keys_references.py).
    hold_what_it_names_by_name(api, policy)
    response = api.request("POST", "/apiops/projects/Demo/apiProxies/PetStore/policies/secretive/", body)
    assert response.status_code == 200, response.text
    listed = api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/policies/").json()
    (entry,) = [p for p in listed["resultList"][0]["requestPolicyList"] if p["name"] == "secretive"]
    paths = [p.split(".") for p in model.secret_fields()]
    # The API's own read returns what was written, but for the passwords that the type's page says
    # a list clears: those are null (and stored only as hashes).
    cleared = secrets_at_rest.CLEARED_POLICY_FIELDS.get(policy_type)
    assert _secret_values(model, entry, paths) == ([] if cleared else secrets)
    (pets,) = [p for p in api.state()["projects"][0]["apiProxies"] if p["name"] == "PetStore"]
    (shown,) = [p for p in pets["policies"]["requestPolicyList"] if p["name"] == "secretive"]
    assert _secret_values(model, shown, paths) == [policies.MASK] * len(secrets)
    state = api.client.get("/_emulator/state").text
    assert not [secret for secret in secrets if len(secret) >= 8 and secret in state]


def test_the_state_masks_a_stored_policys_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    # The registry extended with a type of this module's own (no modelled type has secrets yet):
    # the store, the state and the masking are the emulator's own.
    from apinizer_emulator.families import Backend
    from apinizer_emulator.fixtures import load_fixture
    from apinizer_emulator.store import Store

    monkeypatch.setattr(policies, "POLICY_TYPES", {**POLICY_TYPES, "policy-secretive": _SecretivePolicy})
    backend = Backend(Store(), load_fixture())
    body = {
        "type": "policy-secretive",
        "clientSecret": "s3cret-top",
        "vault": {"masterKey": "s3cret-nested", "accounts": [{"userName": "a", "passWord": "s3cret-1"}]},
    }
    try:
        with backend.store.write() as db:
            proxy = db.execute("SELECT id FROM proxies WHERE name = 'PetStore'").fetchone()["id"]
            policies.insert_summary(
                db, proxy, None, "request", "policy-secretive", "vaulted", None, True, body
            )
            listed = policies.list_policies(db, "Demo", "PetStore")
        state = backend.state()
    finally:
        backend.store.close()
    assert listed["resultList"][0]["requestPolicyList"][0]["clientSecret"] == "s3cret-top"
    text = str(state)
    assert "vaulted" in text and "s3cret" not in text
    (pets,) = [p for p in state["projects"][0]["apiProxies"] if p["name"] == "PetStore"]
    assert pets["policies"]["requestPolicyList"][0]["vault"]["accounts"][0]["passWord"] == policies.MASK
