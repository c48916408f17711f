"""A restart on the same database file loses nothing that was acknowledged."""

from __future__ import annotations

import signal

import pytest

import _emulator_http as emulator_http
from apinizer_emulator.testing import start_subprocess

from .conftest import endpoints_path, new_endpoint, rlcl_path

AUTH = {"Authorization": "Bearer dev-admin-token"}
ENTRY = {
    "apiProxyName": "PetStore",
    "endpointName": "/pets",
    "endpointHTTPMethod": "GET",
    "permittedMessageCount": 5,
    "timeIntervalPeriodLength": 1,
    "timeInterval": "ONE_SECOND",
    "cacheConnectionTimeoutInSeconds": 2,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
}


def write_everything(url: str) -> str:
    with emulator_http.client(base_url=url, headers=AUTH, timeout=10) as client:
        assert client.post(endpoints_path(), json=new_endpoint("/kept", "PATCH")).status_code == 200
        assert (
            client.request(
                "POST", endpoints_path("delete"), json={"name": "/pets/{id}", "httpMethod": "GET"}
            ).status_code
            == 200
        )
        assert (
            client.patch(
                endpoints_path("status"),
                json={"identifierName": "/pets", "identifierHttpMethod": "POST", "active": False},
            ).status_code
            == 200
        )
        assert (
            client.patch(
                endpoints_path("cache"),
                json={
                    "identifierName": "/pets",
                    "identifierHttpMethod": "GET",
                    "cacheSettings": {"name": "c", "handlingAction": "STOP", "ttl": 30},
                },
            ).status_code
            == 200
        )
        assert client.post(rlcl_path(), json={"endpointRateLimitList": [ENTRY]}).status_code == 200
        token = client.post(
            "/apiops/auth/token",
            data={"grant_type": "client_credentials", "client_id": "developer", "client_secret": "developer"},
        ).json()["access_token"]
    return str(token)


def read_back(url: str, token: str) -> None:
    with emulator_http.client(base_url=url, headers=AUTH, timeout=10) as client:
        listed = client.get(endpoints_path()).json()["resultList"]
        assert [(e["httpMethod"], e["endpoint"], e["active"]) for e in listed] == [
            ("GET", "/pets", True),
            ("POST", "/pets", False),
            ("PATCH", "/kept", True),
        ]
        endpoint = next(
            e
            for e in client.get("/_emulator/state").json()["projects"][0]["apiProxies"][0]["endpoints"]
            if e["endpoint"] == "/pets" and e["httpMethod"] == "GET"
        )
        assert endpoint["cacheSettings"]["ttl"] == 30
        assert len(endpoint["requestPolicyList"]) == 2
        assert client.get("/_emulator/projects/Demo/rlcl/Standard/endpoints").json() == {
            "endpointRateLimitList": [
                {
                    **ENTRY,
                    "showRateLimitStatisticsInResponseHeader": False,
                    "enabled": True,
                    "targetVariable": None,
                    "targetIdentityValue": None,
                }
            ]
        }
        # the issued access token survived too
        assert client.get(endpoints_path(), headers={"Authorization": f"Bearer {token}"}).status_code == 200


@pytest.mark.parametrize("stop", ["kill", "terminate"])
def test_restart_on_the_same_file_keeps_every_acknowledged_write(tmp_path, stop):
    db = tmp_path / "durable.db"
    proc, url = start_subprocess(db=db)
    try:
        token = write_everything(url)
    finally:
        if stop == "kill":
            proc.send_signal(signal.SIGKILL)  # a crash: no shutdown code runs
        else:
            proc.terminate()
        proc.wait(timeout=30)
    # uvicorn shuts down cleanly on SIGTERM, then exits by the signal it caught
    assert proc.returncode == (-signal.SIGKILL if stop == "kill" else -signal.SIGTERM)

    proc, url = start_subprocess(db=db)
    try:
        read_back(url, token)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_memory_database_starts_from_the_fixture_each_time():
    for _ in range(2):
        proc, url = start_subprocess(db=":memory:")
        try:
            with emulator_http.client(base_url=url, headers=AUTH) as client:
                assert client.get(endpoints_path()).json()["resultCount"] == 3
                assert client.post(endpoints_path(), json=new_endpoint()).status_code == 200
        finally:
            proc.terminate()
            proc.wait(timeout=30)
