"""What the emulator keeps on disk: its database file and the WAL and SHM files beside it are its
owner's alone (0600), and what the API never answers (a secret environment value, an API key's
secret key, a password that a policy list clears) is stored only as a salted hash."""

from __future__ import annotations

import io
import json
import os
import stat
import zipfile
from pathlib import Path
from typing import Any

from _spec_server import zip_of
from apinizer_emulator import policies
from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import load_fixture
from apinizer_emulator.store import Store
from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import WsSecurityUsernamePolicy

from .conftest import Api

OWNER_ONLY = 0o600


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_its_wal_and_shm_are_the_owners_alone(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)  # the usual one, which would leave the files readable by all
    try:
        db = tmp_path / "emulator.db"
        store = Store(db)
        try:
            with store.write() as conn:
                conn.execute("INSERT INTO projects (name) VALUES ('Mode')")
            files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
            assert all(path.exists() for path in files)
            assert {path.name: _mode(path) for path in files} == {path.name: OWNER_ONLY for path in files}
        finally:
            store.close()
    finally:
        os.umask(old_umask)


def test_an_existing_database_open_to_others_is_closed_to_them(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    Store(db).close()
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        path.touch()
        path.chmod(0o644)
    store = Store(db)
    try:
        assert _mode(db) == OWNER_ONLY
        assert _mode(Path(f"{db}-wal")) == OWNER_ONLY and _mode(Path(f"{db}-shm")) == OWNER_ONLY
    finally:
        store.close()


# -- what the API never answers is stored only as a salted hash -----------------------------------

GLOBAL_SECRET = "global-secret-at-rest-1"
PROD_SECRET = "prod-secret-at-rest-2"
SHOWN_VALUE = "staging-value-shown-3"
SECRET_KEY = "sk_secret-key-at-rest-4"
PUBLIC_KEY = "ak_public-key-shown-5"
WS_PASSWORD = "ws-password-at-rest-6"
TO_TARGET_PASSWORD = "un-password-at-rest-7"
PROXY = "/apiops/projects/Demo/apiProxies/PetStore/"


def _on_disk(emulator: EmulatorServer) -> bytes:
    """The database file and its WAL as they stand: every byte a reader of the disk would find."""
    files = (Path(emulator.db), Path(f"{emulator.db}-wal"))
    return b"".join(path.read_bytes() for path in files if path.exists())


def _policy(api: Api, name: str, policy: dict[str, Any]) -> None:
    body = {"operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False},
            "policy": policy}
    response = api.request("POST", f"{PROXY}policies/{name}/", body)
    assert response.status_code == 200, response.text


def test_what_the_api_never_answers_is_not_on_disk(api: Api, emulator: EmulatorServer) -> None:
    variable = {"name": "atRest", "global": False, "environmentValueList": [
        {"environmentName": "production", "value": PROD_SECRET, "visible": False},
        {"environmentName": "test", "value": SHOWN_VALUE, "visible": True}]}
    response = api.request("POST", "/apiops/projects/Demo/environmentVariables/atRest/", variable)
    assert response.status_code == 200, response.text
    global_variable = {"name": "globalAtRest", "global": True, "globalValue": GLOBAL_SECRET,
                       "globalVisible": False}
    response = api.request("POST", "/apiops/projects/Demo/environmentVariables/globalAtRest/",
                           global_variable)
    assert response.status_code == 200, response.text
    keys = {"publicKey": PUBLIC_KEY, "secretKey": SECRET_KEY}
    assert api.request("PATCH", f"{PROXY}settings/keys/", keys).status_code == 200
    _policy(api, "ws-user", {"type": "policy-ws-security-username", "username": "soap-user",
                             "password": WS_PASSWORD, "passwordType": "PasswordText"})
    _policy(api, "ws-target", {"type": "policy-ws-security-to-target", "unUsername": "soap-user",
                               "unPassword": TO_TARGET_PASSWORD, "unPasswordType": "PasswordDigest",
                               "wsSecurityEntryOrderList": ["USERNAME_TOKEN"]})

    disk = _on_disk(emulator)
    for secret in (PROD_SECRET, GLOBAL_SECRET, SECRET_KEY, WS_PASSWORD, TO_TARGET_PASSWORD):
        assert secret.encode() not in disk, secret
    # What the API does answer stays as written: it is needed in clear to answer it.
    assert SHOWN_VALUE.encode() in disk and PUBLIC_KEY.encode() in disk and b"soap-user" in disk
    assert disk.count(b"pbkdf2_sha256$") >= 5

    # The answers are what the pages document: hidden values and cleared passwords are null.
    found = api.request("GET", "/apiops/projects/Demo/environmentVariables/atRest/").json()["resultList"][0]
    assert [(v["environmentName"], v["value"]) for v in found["environmentValueList"]] == [
        ("production", None), ("test", SHOWN_VALUE)]
    listed = api.request("GET", f"{PROXY}policies/").json()["resultList"][0]["requestPolicyList"]
    by_name = {entry["name"]: entry for entry in listed}
    assert by_name["ws-user"]["password"] is None and by_name["ws-user"]["username"] == "soap-user"
    assert by_name["ws-target"]["unPassword"] is None


def test_the_client_reads_a_policy_whose_password_the_list_cleared(api: Api, emulator_url: str) -> None:
    _policy(api, "ws-user", {"type": "policy-ws-security-username", "username": "soap-user",
                             "password": WS_PASSWORD, "passwordType": "PasswordDigest"})
    with ApinizerClient(emulator_url, token=api.token) as client:
        listed = client.policies.list("Demo", "PetStore").request_policy_list
    (policy,) = [p for p in listed if p.name == "ws-user"]
    assert isinstance(policy, WsSecurityUsernamePolicy)
    assert (policy.username, policy.password, policy.password_type) == ("soap-user", None, "PasswordDigest")


def test_secrets_written_before_are_hashed_when_the_file_is_opened(tmp_path: Path) -> None:
    db = tmp_path / "before.db"
    backend = Backend(Store(db), load_fixture())
    with backend.store.write() as conn:  # rows as an emulator of before this rule wrote them
        conn.execute(
            "INSERT INTO environment_variables (id, project, name, body) VALUES ('v1', 'Demo', 'old', ?)",
            (json.dumps({"name": "old", "global": True, "globalValue": GLOBAL_SECRET, "globalVisible": False,
                         "environmentValueList": None}),))
        proxy_id = conn.execute("SELECT id FROM proxies WHERE name = 'PetStore'").fetchone()["id"]
        keys = json.dumps({"publicKey": PUBLIC_KEY, "secretKey": SECRET_KEY})
        conn.execute("UPDATE proxy_details SET body = json_set(body, '$.apiKeys', json(?))"
                     " WHERE proxy_id = ?", (keys, proxy_id))
        ws_user = {"type": "policy-ws-security-username", "username": "u", "password": WS_PASSWORD,
                   "passwordType": "PasswordText"}
        policies.insert_summary(conn, proxy_id, None, "request", ws_user["type"], "old", None, True, ws_user)
    backend.store.close()

    store = Store(db)
    try:
        with store.read() as conn:
            rows = [r[0] for r in conn.execute(
                "SELECT body FROM environment_variables UNION ALL SELECT body FROM proxy_details"
                " UNION ALL SELECT body FROM policies WHERE body IS NOT NULL")]
    finally:
        store.close()
    text = "\n".join(rows)
    for secret in (GLOBAL_SECRET, SECRET_KEY, WS_PASSWORD):
        assert secret not in text, secret
    assert PUBLIC_KEY in text and text.count("pbkdf2_sha256$") == 3
    # Nor are they left in the file's free space or its WAL.
    disk = b"".join(path.read_bytes() for path in (db, Path(f"{db}-wal")) if path.exists())
    for secret in (GLOBAL_SECRET, SECRET_KEY, WS_PASSWORD):
        assert secret.encode() not in disk, secret


def _redeploy_required(api: Api) -> bool:
    listed = api.request("GET", PROXY).json()["deploymentList"]
    (production,) = [d for d in listed if d["environmentName"] == "production"]
    return bool(production["redeployRequired"])


def test_writing_the_same_secret_again_changes_nothing_stored(api: Api) -> None:
    ws_user = {"type": "policy-ws-security-username", "username": "soap-user", "password": WS_PASSWORD,
               "passwordType": "PasswordText"}
    _policy(api, "ws-user", ws_user)
    assert api.request("PATCH", f"{PROXY}settings/keys/", {"secretKey": SECRET_KEY}).status_code == 200
    assert api.request("POST", f"{PROXY}environments/production/").status_code == 200
    assert not _redeploy_required(api)

    metadata = {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False}
    same = api.request("PUT", f"{PROXY}policies/ws-user/",
                       {"operationMetadata": metadata, "policy": ws_user})
    assert same.status_code == 200, same.text
    assert api.request("PATCH", f"{PROXY}settings/keys/", {"secretKey": SECRET_KEY}).status_code == 200
    assert not _redeploy_required(api)  # the same password and key: nothing changed

    changed = {**ws_user, "password": "another-ws-password"}
    response = api.request("PUT", f"{PROXY}policies/ws-user/",
                           {"operationMetadata": metadata, "policy": changed})
    assert response.status_code == 200, response.text
    assert _redeploy_required(api)  # a new password is a change the deployment lacks


def test_an_import_stores_the_secrets_of_its_export_hashed(api: Api, emulator: EmulatorServer) -> None:
    _policy(api, "ws-user", {"type": "policy-ws-security-username", "username": "soap-user",
                             "password": WS_PASSWORD, "passwordType": "PasswordText"})
    assert api.request("PATCH", f"{PROXY}settings/keys/", {"secretKey": SECRET_KEY}).status_code == 200
    exported = api.request("GET", f"{PROXY}export/").content
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        definition = json.loads(archive.read("PetStore.json"))
    assert SECRET_KEY not in json.dumps(definition)  # the export carries the hashes
    # An export written elsewhere may hold them in clear: the import hashes them; a hash stays as it is.
    definition["details"]["apiKeys"]["secretKey"] = "sk_imported-in-clear-8"
    definition["name"] = "Imported"
    definition["details"]["clientRoute"] = {"relativePathList": ["/imported"]}
    content = zip_of({"Imported.json": json.dumps(definition).encode()})
    files = {"apiProxyExportFile": ("apiProxyExportFile.zip", content, "application/zip")}
    response = api.client.post("/apiops/projects/Demo/apiProxies/import/", files=files, headers=api.headers())
    assert response.status_code == 200, response.text
    disk = _on_disk(emulator)
    assert b"sk_imported-in-clear-8" not in disk and WS_PASSWORD.encode() not in disk
    listed = api.request("GET", "/apiops/projects/Demo/apiProxies/Imported/policies/").json()
    (ws_user,) = [p for p in listed["resultList"][0]["requestPolicyList"] if p["name"] == "ws-user"]
    assert ws_user["password"] is None
