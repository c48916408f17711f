"""The secret inputs' shared piece: marks taken off for the provider's work and put back once, and the
typed settings' marks put back once too (a kind's check marks what ``HoldsSecrets`` marked already)."""

from __future__ import annotations

from pulumi.runtime import rpc

from apinizer_pulumi.resources._secret_inputs import SecretInputs
from apinizer_pulumi.resources.connection import SETTINGS as CONNECTIONS
from apinizer_pulumi.resources.policy import SETTINGS as POLICIES


def test_secret_inputs_are_unwrapped_and_marked_again_once() -> None:
    secrets = SecretInputs(("password",))
    marked = secrets.secret({"username": "u", "password": "Pa55", "email": None})
    assert rpc.is_rpc_secret(marked["password"]) and marked["username"] == "u"
    assert secrets.secret(marked) == marked  # marked already: not wrapped a second time
    assert secrets.plain(marked) == {"username": "u", "password": "Pa55", "email": None}
    unset = secrets.secret({"password": None})
    assert unset == {"password": None}
    unknown = secrets.secret({"password": rpc.UNKNOWN})
    assert unknown == {"password": rpc.UNKNOWN}  # the engine carries the input's mark over itself


def test_typed_settings_are_marked_again_once() -> None:
    email = {"connection_type": "email", "settings": {"host": "smtp.example.com", "password": "Pa55"}}
    marked = CONNECTIONS.secret(email)
    assert rpc.is_rpc_secret(marked["settings"]["password"])
    assert marked["settings"]["host"] == "smtp.example.com"
    assert CONNECTIONS.secret(marked) == marked
    assert CONNECTIONS.plain(marked) == email
    users = {"policy_type": "policy-api-authentication",
             "settings": {"auth_type": "BASIC", "api_auth_cond_expression_list": [{"password": "Pa55"}]}}
    marked = POLICIES.secret(users)
    assert rpc.is_rpc_secret(marked["settings"]["api_auth_cond_expression_list"])  # the list, whole
    assert POLICIES.secret(marked) == marked
    assert POLICIES.plain(marked) == users
