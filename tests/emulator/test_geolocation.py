"""Geolocation over raw HTTP and through the client: the MMDB upload parsed with ``maxminddb``
(a bad file is a 400 and changes nothing), enable and disable, the admin-only rule, and the
deployment answer of the pages.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from _mmdb import write_mmdb
from apinizer_pulumi.client import ApinizerClient, AuthenticationError, BadRequestError

from .conftest import ANALYST_TOKEN, Api, assert_error
from .test_environment_variables import DEPLOYED  # the same answer: every environment deployed

MMDB = "/apiops/settings/geolocation/mmdb"
ENABLE = "/apiops/settings/geolocation/enable"
DISABLE = "/apiops/settings/geolocation/disable"


@pytest.fixture
def mmdb(tmp_path: Path) -> bytes:
    return write_mmdb(tmp_path / "GeoLite2-Country.mmdb")


def upload(api: Api, content: bytes, file_name: str | None = None, token: str | None = None) -> Any:
    data = {"fileName": file_name} if file_name is not None else None
    return api.client.put(
        MMDB,
        files={"file": ("GeoLite2-City.mmdb", content, "application/octet-stream")},
        data=data,
        headers=api.headers(token),
    )


def geolocation(api: Api) -> dict[str, Any]:
    state: dict[str, Any] = api.state()["geolocation"]
    return state


def test_nothing_is_there_at_first(api: Api) -> None:
    assert geolocation(api) == {"enabled": False, "mmdb": None}


def test_an_upload_is_parsed_and_kept_as_what_the_file_says(api: Api, mmdb: bytes) -> None:
    response = upload(api, mmdb, "countries.mmdb")
    assert response.status_code == 200, response.text
    assert response.json() == DEPLOYED
    assert geolocation(api) == {
        "enabled": False,
        "mmdb": {
            "fileName": "countries.mmdb",
            "size": len(mmdb),
            "sha256": hashlib.sha256(mmdb).hexdigest(),
            "databaseType": "GeoLite2-Country",
            "ipVersion": 6,
            "nodeCount": geolocation(api)["mmdb"]["nodeCount"],
            "buildEpoch": geolocation(api)["mmdb"]["buildEpoch"],
        },
    }
    assert geolocation(api)["mmdb"]["nodeCount"] > 0


def test_without_a_file_name_the_file_keeps_its_own(api: Api, mmdb: bytes) -> None:
    upload(api, mmdb)
    assert geolocation(api)["mmdb"]["fileName"] == "GeoLite2-City.mmdb"


def test_a_new_upload_replaces_the_old_and_keeps_on_or_off(api: Api, mmdb: bytes, tmp_path: Path) -> None:
    upload(api, mmdb)
    api.request("PUT", ENABLE)
    city = write_mmdb(tmp_path / "city.mmdb", "GeoLite2-City")
    upload(api, city)
    state = geolocation(api)
    assert state["enabled"] is True
    assert (state["mmdb"]["databaseType"], state["mmdb"]["sha256"]) == (
        "GeoLite2-City",
        hashlib.sha256(city).hexdigest(),
    )


@pytest.mark.parametrize(
    ("content", "description"),
    [
        (b"", "File can not be empty!"),
        (b"not an mmdb file" * 8, "File is not a valid MMDB (MaxMind DB) file: "),
        ("truncated", "File is not a valid MMDB (MaxMind DB) file: "),
        ("corrupt", "File is not a valid MMDB (MaxMind DB) file: "),
    ],
)
def test_a_bad_file_is_the_400_and_the_old_file_stays(
    api: Api, mmdb: bytes, content: Any, description: str
) -> None:
    upload(api, mmdb, "good.mmdb")
    before = geolocation(api)
    if content == "truncated":
        content = mmdb[: len(mmdb) // 2]
    elif content == "corrupt":
        content = mmdb[:-10]
    response = upload(api, content, "bad.mmdb")
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(description)
    assert geolocation(api) == before


def test_an_upload_without_a_file_part_is_the_400(api: Api) -> None:
    response = api.client.put(MMDB, files={"fileName": (None, b"x.mmdb")}, headers=api.headers())
    assert_error(response, 400, "bad_request", "File can not be empty!")
    response = api.request("PUT", MMDB, {"file": "x"})
    assert_error(response, 400, "bad_request")
    assert "multipart/form-data" in response.json()["error_description"]


def test_enable_and_disable(api: Api, mmdb: bytes) -> None:
    upload(api, mmdb)
    assert api.request("PUT", ENABLE).json() == DEPLOYED
    assert geolocation(api)["enabled"] is True
    assert api.request("PUT", ENABLE).json() == DEPLOYED  # again: the same state
    assert api.request("PUT", DISABLE).json() == DEPLOYED
    assert geolocation(api)["enabled"] is False
    assert geolocation(api)["mmdb"] is not None


def test_enable_without_a_file_is_accepted_as_the_page_allows(api: Api) -> None:
    # "MMDB file should be uploaded before enabling; geolocation may not work properly without" it.
    assert api.request("PUT", ENABLE).status_code == 200
    assert geolocation(api) == {"enabled": True, "mmdb": None}


def test_only_an_administrator(api: Api, dev_api: Api, mmdb: bytes) -> None:
    denied = "User does not have privilege to access admin settings!"
    for caller in (dev_api, api.as_user(ANALYST_TOKEN)):
        assert_error(upload(caller, mmdb), 401, "unauthorized_client", denied)
        assert_error(caller.request("PUT", ENABLE), 401, "unauthorized_client", denied)
        assert_error(caller.request("PUT", DISABLE), 401, "unauthorized_client", denied)
    assert geolocation(api) == {"enabled": False, "mmdb": None}
    assert_error(api.client.put(ENABLE), 401, "unauthorized_client", "Invalid token")


def test_a_reset_forgets_it(api: Api, mmdb: bytes) -> None:
    upload(api, mmdb)
    api.request("PUT", ENABLE)
    api.client.post("/_emulator/reset", json={}).raise_for_status()
    assert geolocation(api) == {"enabled": False, "mmdb": None}


def test_through_the_client(
    emulator_url: str, admin_token: str, developer_token: str, tmp_path: Path
) -> None:
    path = tmp_path / "GeoLite2-Country.mmdb"
    content = write_mmdb(path)
    with ApinizerClient(emulator_url, token=admin_token) as client:
        answer = client.geolocation.upload_mmdb(path, file_name="countries.mmdb")
        assert answer.deployment_result is not None and answer.deployment_result.ok
        assert client.geolocation.enable().ok
        assert client.geolocation.disable().ok
        with pytest.raises(BadRequestError, match="not a valid MMDB"):
            client.geolocation.upload_mmdb(content[:-10])
    with (
        ApinizerClient(emulator_url, token=developer_token) as client,
        pytest.raises(AuthenticationError, match="admin settings"),
    ):
        client.geolocation.enable()
