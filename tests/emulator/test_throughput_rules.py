"""What the emulator's speed must not cost: durability, revocation, correct lists, a free event loop."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

import _emulator_http as emulator_http
from apinizer_emulator.testing import EmulatorServer, start_subprocess

from .conftest import endpoints_path, new_endpoint

AUTH = {"Authorization": "Bearer dev-admin-token"}
WRITERS = 8


def test_kill_9_amid_concurrent_writers_loses_no_acknowledged_write(tmp_path: Path) -> None:
    db = tmp_path / "durable.db"
    proc, url = start_subprocess(db=db)
    acknowledged: list[str] = []
    lock = threading.Lock()
    enough = threading.Event()

    def write(writer: int) -> None:
        with emulator_http.client(base_url=url, headers=AUTH, timeout=10) as client:
            for index in range(10_000):
                name = f"/w/{writer}/{index}"
                try:
                    response = client.post(endpoints_path(), json=new_endpoint(name, "GET"))
                except httpx.TransportError:
                    return  # the server is gone; this write was never acknowledged
                assert response.status_code == 200, response.text
                with lock:
                    acknowledged.append(name)
                    if len(acknowledged) >= 200:
                        enough.set()

    try:
        with ThreadPoolExecutor(WRITERS) as pool:
            futures = [pool.submit(write, writer) for writer in range(WRITERS)]
            assert enough.wait(120)
            proc.send_signal(signal.SIGKILL)  # while every writer has a request on the way
            for future in futures:
                future.result()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    proc, url = start_subprocess(db=db)
    try:
        listed = emulator_http.get(f"{url}{endpoints_path()}", headers=AUTH).json()["resultList"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    stored = {e["endpoint"] for e in listed}
    assert [name for name in acknowledged if name not in stored] == []


def cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "apinizer_emulator", *args], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def test_a_token_revoked_by_another_process_is_refused_on_the_next_request(tmp_path: Path) -> None:
    db = tmp_path / "emulator.db"
    token = cli("token", "create", "--db", str(db), "--user", "admin", "--name", "ci")
    proc, url = start_subprocess(db=db)
    try:
        with emulator_http.client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as client:
            for _ in range(3):  # looked up once, then answered from the process's cache
                assert client.get(endpoints_path()).status_code == 200

            cli("token", "revoke", "--db", str(db), "--user", "admin", "--name", "ci")

            refused = client.get(endpoints_path())
            assert refused.status_code == 401
            assert refused.json()["error_description"] == "Invalid token"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_reads_are_served_while_a_write_waits_for_the_database(emulator: EmulatorServer,
                                                                 emulator_url: str) -> None:
    assert emulator.backend is not None
    store = emulator.backend.store
    with emulator_http.client(base_url=emulator_url, headers=AUTH, timeout=10) as client, \
            ThreadPoolExecutor(1) as pool:
        with store.write():  # the database's write lock, as a long commit would hold it
            pending = pool.submit(client.post, endpoints_path(), json=new_endpoint("/late", "GET"))
            counted = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
            while emulator_http.get(f"{emulator_url}/_emulator/stats").json()["requests"].get(counted) != 1:
                assert not pending.done()

            listed = client.get(endpoints_path())

            assert listed.status_code == 200
            assert "/late" not in {e["endpoint"] for e in listed.json()["resultList"]}
            assert not pending.done()
        assert pending.result().status_code == 200


def test_the_list_holds_what_each_endpoint_read_answers(emulator_url: str) -> None:
    with emulator_http.client(base_url=emulator_url, headers=AUTH) as client:
        odd = {"name": '/q"uote\\d/ünï/{id}', "httpMethod": "PUT", "backendResourceUrl": "https://b/ü?x=1",
               "backendHttpMethod": "POST", "description": 'tab\there "quoted" ✓'}
        assert client.post(endpoints_path(), json=odd).status_code == 200
        assert client.post(endpoints_path(), json=new_endpoint("/bare", "DELETE")).status_code == 200
        listed = client.get(endpoints_path()).json()

        assert listed["success"] is True and listed["resultCount"] == len(listed["resultList"]) == 5
        for item in listed["resultList"]:
            detail = client.post(endpoints_path("details"),
                                 json={"name": item["endpoint"], "httpMethod": item["httpMethod"]}).json()
            assert list(item.items()) == list(detail.items())
        assert client.get(endpoints_path(proxy="Orders")).json()["resultCount"] == 1
