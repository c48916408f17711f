"""Credential through the dynamic provider server over gRPC, against a live emulator: check, create,
update (the password through change-password), access granted and revoked as declared, refresh
with drift, adoption, lost answers, delete, and the password kept secret.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/index.md
"""

from __future__ import annotations

import json
from typing import Any

import grpc
import pytest
from pulumi.runtime import rpc

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import CredentialProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway

PASSWORD = "Partner-Pa55-word"
PARTNER: dict[str, Any] = {
    "project_name": "Demo",
    "username": "partner",
    "password": PASSWORD,
    "email": "partner@example.com",
    "full_name": "Partner Inc.",
    "access": [{"name": "PetStore", "type": "API_PROXY"}, {"name": "Orders", "type": "API_PROXY"}],
}
CREDENTIALS = "/apiops/projects/{projectName}/credentials/"
CREATE = f"POST {CREDENTIALS}"
LIST = f"GET {CREDENTIALS}"
UPDATE = f"PUT {CREDENTIALS}"
PATCH = f"PATCH {CREDENTIALS}{{username}}/"
ACCESS = f"{CREDENTIALS}{{username}}/access/"


@pytest.fixture
def credentials(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, CredentialProvider(), "Credential")


def stored(gateway: Gateway) -> list[dict[str, Any]]:
    return list(emulator_http.get(f"{gateway.url}/_emulator/state").json()["credentials"])


def fault(gateway: Gateway, **rule: Any) -> None:
    if "status" in rule:
        rule.setdefault("retry_after", 0.01)
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def can_log_in(gateway: Gateway, password: str) -> bool:
    """Whether the gateway holds ``password`` for partner: its stored hash checks against it."""
    from apinizer_emulator import auth

    backend = _EMULATOR["server"].backend
    with backend.store.read() as db:
        row = db.execute("SELECT password_hash FROM credentials WHERE username = 'partner'").fetchone()
    return bool(auth.verify_password(password, row[0]))


_EMULATOR: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _remember_emulator(emulator: Any) -> None:
    _EMULATOR["server"] = emulator


def test_create_makes_the_credential_and_grants_the_declared_access(
    credentials: Engine, gateway: Gateway
) -> None:
    gateway.reset_stats()
    id_, outs = credentials.up(PARTNER)
    assert id_ == "Demo/partner"
    [live] = stored(gateway)
    assert (live["email"], live["fullName"], live["enabled"], live["roleNameList"]) == (
        "partner@example.com",
        "Partner Inc.",
        True,
        [],
    )
    assert live["accessList"] == [
        {"name": "Orders", "type": "API_PROXY"},
        {"name": "PetStore", "type": "API_PROXY"},
    ]
    assert can_log_in(gateway, PASSWORD)
    # One create, one grant of both: a new credential has no access to read first.
    assert gateway.stats()["requests"] == {CREATE: 1, f"PUT {ACCESS}": 1}
    # The access is recorded sorted: the order of a declaration is no diff.
    assert outs["access"] == [
        {"name": "Orders", "type": "API_PROXY"},
        {"name": "PetStore", "type": "API_PROXY"},
    ]
    assert credentials.diff(id_, outs, credentials.checked(PARTNER)).changes == DIFF_NONE


def test_check_names_each_bad_property(credentials: Engine) -> None:
    failures = credentials.check(
        {
            **PARTNER,
            "email": "nobody",
            "password": "",
            "ip_list": ["10.0.0.1/8", "1.2.3.4"],
            "expire_date": "tomorrow",
            "enabled": "maybe",
            "access": [{"name": "PetStore", "type": "USER"}, {"type": "API_PROXY"}],
        }
    ).failures
    assert set(failures) == {
        "email",
        "password",
        "ip_list",
        "expire_date",
        "enabled",
        "access.0.type",
        "access.1.name",
    }
    assert "10.0.0.1/8" in failures["ip_list"]
    assert PASSWORD not in json.dumps(failures)


def test_check_refuses_an_access_declared_twice(credentials: Engine) -> None:
    twice = [{"name": "PetStore", "type": "API_PROXY"}, {"name": "PetStore", "type": "API_PROXY"}]
    failures = credentials.check({**PARTNER, "access": twice}).failures
    assert list(failures) == ["access.1"] and "declared twice" in failures["access.1"]


def test_check_and_read_keep_the_password_secret(credentials: Engine) -> None:
    inputs = credentials.checked({**PARTNER, "password": rpc.wrap_rpc_secret(PASSWORD)})
    assert inputs["password"] == rpc.wrap_rpc_secret(PASSWORD)


def test_a_changed_password_goes_through_change_password(credentials: Engine, gateway: Gateway) -> None:
    id_, outs = credentials.up(PARTNER)
    news = credentials.checked({**PARTNER, "password": "Rotated-Pa55"})
    diff = credentials.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    outs = credentials.update(id_, outs, news)
    assert gateway.stats()["requests"] == {PATCH: 1}
    assert can_log_in(gateway, "Rotated-Pa55") and not can_log_in(gateway, PASSWORD)
    assert outs["password"] == "Rotated-Pa55"


def test_other_fields_change_in_place_with_one_update(credentials: Engine, gateway: Gateway) -> None:
    id_, outs = credentials.up(PARTNER)
    news = credentials.checked(
        {
            **PARTNER,
            "enabled": False,
            "ip_list": ["10.0.0.0/8"],
            "expire_date": "2030-12-31T23:59:59.000Z",
            "role_name_list": ["API_USER"],
        }
    )
    gateway.reset_stats()
    credentials.update(id_, outs, news)
    assert gateway.stats()["requests"] == {UPDATE: 1}
    [live] = stored(gateway)
    assert (live["enabled"], live["ipList"], live["expireDate"], live["roleNameList"]) == (
        False,
        ["10.0.0.0/8"],
        "2030-12-31T23:59:59.000Z",
        ["API_USER"],
    )
    assert can_log_in(gateway, PASSWORD)


def test_renaming_replaces(credentials: Engine) -> None:
    id_, outs = credentials.up(PARTNER)
    diff = credentials.diff(id_, outs, credentials.checked({**PARTNER, "username": "partner2"}))
    assert list(diff.replaces) == ["username"]


def test_access_removed_from_the_list_is_revoked(
    credentials: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = credentials.up(
        {
            **PARTNER,
            "access": [{"name": "PetStore", "type": "API_PROXY"}, {"name": "Orders", "type": "API_PROXY"}],
        }
    )
    news = credentials.checked({**PARTNER, "access": [{"name": "PetStore", "type": "API_PROXY"}]})
    gateway.reset_stats()
    outs = credentials.update(id_, outs, news)
    requests = gateway.stats()["requests"]
    assert requests == {f"GET {ACCESS}": 1, f"DELETE {ACCESS}": 1}
    assert [a.name for a in client.credentials.access("Demo", "partner")] == ["PetStore"]
    assert outs["access"] == [{"name": "PetStore", "type": "API_PROXY"}]


def test_an_undeclared_grant_survives_updates_refreshes_and_revokes(
    credentials: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = credentials.up({**PARTNER, "access": [{"name": "PetStore", "type": "API_PROXY"}]})
    client.credentials.grant_access("Demo", "partner", [{"name": "Orders", "type": "API_PROXY"}])
    _, read_outs, read_inputs = credentials.read(id_, outs)
    assert read_outs["access"] == [{"name": "PetStore", "type": "API_PROXY"}]  # Orders is not the program's
    assert read_inputs is None  # so nothing drifted
    outs = credentials.update(id_, read_outs, credentials.checked({**PARTNER, "access": []}))
    assert [a.name for a in client.credentials.access("Demo", "partner")] == ["Orders"]


def test_refresh_shows_drift_and_update_repairs_it(
    credentials: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = credentials.up(PARTNER)
    # The console: another email, disabled, and one declared access revoked.
    changed = {
        "email": "console@example.com",
        "full_name": "Partner Inc.",
        "username": "partner",
        "password": "console-set",
        "enabled": False,
    }
    client.credentials.update("Demo", changed)
    client.credentials.revoke_access("Demo", "partner", [{"name": "Orders", "type": "API_PROXY"}])

    gateway.reset_stats()
    read_id, read_outs, read_inputs = credentials.read(id_, outs)
    assert gateway.stats()["requests"] == {LIST: 1, f"GET {ACCESS}": 1}
    assert read_id == id_
    assert (read_outs["email"], read_outs["enabled"]) == ("console@example.com", False)
    assert read_outs["access"] == [{"name": "PetStore", "type": "API_PROXY"}]
    assert read_outs["password"] == PASSWORD  # cannot be read back: the recorded one stays
    assert read_inputs is not None and read_inputs["password"] == rpc.wrap_rpc_secret(PASSWORD)

    news = credentials.checked(PARTNER)
    diff = credentials.diff(id_, read_outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    credentials.update(id_, read_outs, news)
    [live] = stored(gateway)
    assert (live["email"], live["enabled"]) == ("partner@example.com", True)
    assert {a["name"] for a in live["accessList"]} == {"PetStore", "Orders"}
    assert can_log_in(gateway, PASSWORD)  # update wrote the declared password with the fields


def test_refresh_of_many_credentials_reads_the_list_once(
    credentials: Engine, gateway: Gateway, emulator_url: str
) -> None:
    made = [credentials.up({**PARTNER, "username": f"user{n}", "access": []}, name=f"c{n}") for n in range(5)]
    gateway.reset_stats()
    # A refresh gets a provider process of its own; the list's lifetime is raised there so that a
    # slow machine cannot make the count depend on timing (as in test_shared_reads.py).
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_READ_CACHE_TTL": "600",
                                     "APINIZER_SKIP_CONNECTION_CHECK": "1"}) as refreshing:
        engine = Engine(refreshing, CredentialProvider(), "Credential")
        futures = [engine.read_future(id_, outs, name=f"c{n}") for n, (id_, outs) in enumerate(made)]
        for future in futures:
            assert future.result().id
    assert gateway.stats()["requests"][LIST] == 1


def test_a_credential_deleted_outside_is_dropped_by_refresh(
    credentials: Engine, client: ApinizerClient
) -> None:
    id_, outs = credentials.up(PARTNER)
    client.credentials.delete("Demo", "partner")
    read_id, read_outs, _ = credentials.read(id_, outs)
    assert read_id == "" and read_outs == {}
    credentials.delete(id_, outs)  # gone already: nothing to do, no error


def test_an_existing_credential_needs_adopt(
    credentials: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    client.credentials.create(
        "Demo",
        {"email": "old@example.com", "full_name": "Old", "username": "partner", "password": "old-password"},
    )
    client.credentials.grant_access("Demo", "partner", [{"name": "Orders", "type": "API_PROXY"}])
    with pytest.raises(grpc.RpcError) as info:
        credentials.up(PARTNER)
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())
    assert stored(gateway)[0]["email"] == "old@example.com"  # untouched

    declared = {
        **PARTNER,
        "adopt": True,
        "access": [{"name": "PetStore", "type": "API_PROXY"}, {"name": "Orders", "type": "API_PROXY"}],
    }
    gateway.reset_stats()
    id_, _outs = credentials.up(declared)
    assert id_ == "Demo/partner"
    [live] = stored(gateway)
    assert live["email"] == "partner@example.com" and can_log_in(gateway, PASSWORD)
    assert {a["name"] for a in live["accessList"]} == {"PetStore", "Orders"}
    # Orders was granted already: only PetStore is sent.
    requests = gateway.stats()["requests"]
    assert requests[f"PUT {ACCESS}"] == 1 and requests[f"GET {ACCESS}"] == 1


def test_a_grant_to_a_missing_proxy_after_create_is_a_warning_and_repaired_later(
    credentials: Engine, gateway: Gateway
) -> None:
    declared = {**PARTNER, "access": [{"name": "Nowhere", "type": "API_PROXY"}]}
    id_, outs = credentials.up(declared)
    assert [c["username"] for c in stored(gateway)] == ["partner"]  # created, and known to the stack
    _, read_outs, _ = credentials.read(id_, outs)
    assert read_outs["access"] == []  # the grant that failed shows as drift


def test_an_update_naming_a_missing_proxy_fails_clearly(credentials: Engine) -> None:
    id_, outs = credentials.up({**PARTNER, "access": []})
    news = credentials.checked({**PARTNER, "access": [{"name": "Nowhere", "type": "API_PROXY"}]})
    with pytest.raises(grpc.RpcError) as info:
        credentials.update(id_, outs, news)
    details = str(info.value.details())
    assert (
        "apinizer:Credential partner in Demo" in details
        and "API Proxy (name:Nowhere) is not found" in details
    )
    assert PASSWORD not in details


@pytest.mark.parametrize(
    "lost",
    [{"drop": True, "after": True}, {"status": 504, "after": True}, {"status": 503, "after": True}],
    ids=["connection dropped after the create", "504 after the create", "503 after the create"],
)
def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    credentials: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/credentials/", count=1, **lost)
    id_, _ = credentials.up(PARTNER)
    assert id_ == "Demo/partner" and len(stored(gateway)) == 1
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 1, "the create was sent again"
    assert requests[LIST] >= 1  # the look-up that found it


def test_a_create_that_never_arrived_is_sent_again_after_looking(
    credentials: Engine, gateway: Gateway
) -> None:
    fault(gateway, method="POST", path="/credentials/", count=1, drop=True)
    credentials.up(PARTNER)
    assert len(stored(gateway)) == 1
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 2 and requests[LIST] == 1


def test_someone_elses_credential_found_after_a_lost_answer_is_not_taken(
    credentials: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    client.credentials.create(
        "Demo",
        {"email": "other@example.com", "full_name": "Other", "username": "partner", "password": "theirs"},
    )
    fault(gateway, method="POST", path="/credentials/", count=1, drop=True)
    with pytest.raises(grpc.RpcError) as info:
        credentials.up(PARTNER)
    assert "adopt=True" in str(info.value.details())
    assert stored(gateway)[0]["email"] == "other@example.com"


def test_delete_removes_the_credential_and_its_access(credentials: Engine, gateway: Gateway) -> None:
    # Another username: the adoption test's provider process holds "partner" as taken over (_replace).
    id_, outs = credentials.up({**PARTNER, "username": "leaver"})
    gateway.reset_stats()
    credentials.delete(id_, outs)
    assert stored(gateway) == []
    assert gateway.stats()["requests"] == {f"DELETE {CREDENTIALS}{{username}}/": 1}


def test_the_password_is_in_no_error_and_no_other_output(credentials: Engine, gateway: Gateway) -> None:
    fault(
        gateway,
        method="POST",
        path="/credentials/",
        count=1,
        status=400,
        error="bad_request",
        error_description="Credential email can not be empty!",
    )
    with pytest.raises(grpc.RpcError) as info:
        credentials.up(PARTNER)
    assert PASSWORD not in str(info.value.details())
    _, outs = credentials.up(PARTNER)
    others = {key: value for key, value in outs.items() if key != "password"}
    assert PASSWORD not in json.dumps(others)


# -- get_credentials: called from the program's process -------------------------------------------


def test_get_credentials_lists_each_credential_with_its_access(
    emulator_url: str, client: ApinizerClient, gateway: Gateway
) -> None:
    import apinizer_pulumi as apinizer
    from apinizer_pulumi.client import NotFoundError
    from apinizer_pulumi.resources._connection import close_clients

    client.credentials.create(
        "Demo", {"email": "a@example.com", "full_name": "A", "username": "a", "password": PASSWORD}
    )
    client.credentials.create(
        "Demo",
        {"email": "b@example.com", "full_name": "B", "username": "b", "password": PASSWORD, "enabled": False},
    )
    client.credentials.grant_access("Demo", "b", [{"name": "Orders", "type": "API_PROXY"}])
    connection = apinizer.ConnectionArgs(url=emulator_url, token="dev-developer-token")
    gateway.reset_stats()
    try:
        found = apinizer.get_credentials("Demo", connection=connection)
        assert [(c.username, c.enabled, [a.name for a in c.access]) for c in found] == [
            ("a", True, []),
            ("b", False, ["Orders"]),
        ]
        assert all(c.password is None for c in found) and PASSWORD not in repr(found)
        assert gateway.stats()["requests"] == {LIST: 1, f"GET {ACCESS}": 2}
        with pytest.raises(NotFoundError):
            apinizer.get_credentials("Nowhere", connection=connection)
    finally:
        close_clients()


def test_a_preview_with_an_access_not_known_yet_is_not_rejected(credentials: Engine) -> None:
    # access=[CredentialAccessArgs(name=proxy.name, ...)] of a proxy that the same program creates.
    pending = {**PARTNER, "access": [{"name": rpc.UNKNOWN, "type": "API_PROXY"}]}
    result = credentials.check(pending)
    assert result.failures == {}
    id_, outs = credentials.up(PARTNER)
    diff = credentials.diff(id_, outs, result.inputs)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
