"""The (name, httpMethod) pair stays unique under concurrent creates: exactly one wins."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

import _emulator_http as emulator_http

from .conftest import endpoints_path, new_endpoint

THREADS = 20


def test_concurrent_duplicate_creates_have_exactly_one_winner(emulator_url, admin_token):
    barrier = threading.Barrier(THREADS)

    def create(_: int) -> httpx.Response:
        with emulator_http.client(base_url=emulator_url, timeout=30) as client:
            barrier.wait()
            return client.post(
                endpoints_path(),
                json=new_endpoint("/race", "POST"),
                headers={"Authorization": f"Bearer {admin_token}"},
            )

    with ThreadPoolExecutor(THREADS) as pool:
        responses = list(pool.map(create, range(THREADS)))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [400] * (THREADS - 1)
    for response in responses:
        if response.status_code == 400:
            assert response.json() == {
                "error": "bad_request",
                "error_description": "Endpoint with name (/race) and HTTP method (POST) already exists!",
            }
    listed = emulator_http.get(
        f"{emulator_url}{endpoints_path()}", headers={"Authorization": f"Bearer {admin_token}"}
    ).json()
    assert [e["endpoint"] for e in listed["resultList"]].count("/race") == 1


def test_concurrent_distinct_creates_all_land(emulator_url, admin_token):
    def create(i: int) -> int:
        with emulator_http.client(base_url=emulator_url, timeout=30) as client:
            return client.post(
                endpoints_path(),
                json=new_endpoint(f"/item/{i}"),
                headers={"Authorization": f"Bearer {admin_token}"},
            ).status_code

    with ThreadPoolExecutor(THREADS) as pool:
        assert list(pool.map(create, range(THREADS))) == [200] * THREADS
    listed = emulator_http.get(
        f"{emulator_url}{endpoints_path()}", headers={"Authorization": f"Bearer {admin_token}"}
    ).json()
    assert listed["resultCount"] == 3 + THREADS


def test_two_servers_on_one_file_keep_the_pair_unique(tmp_path, admin_token):
    """Two emulator processes' worth of stores on one database file: the UNIQUE index decides."""
    from apinizer_emulator.testing import EmulatorServer

    db = tmp_path / "shared.db"
    with EmulatorServer(db=db) as first, EmulatorServer(db=db) as second:
        barrier = threading.Barrier(THREADS)

        def create(i: int) -> int:
            url = (first if i % 2 else second).base_url
            with emulator_http.client(base_url=url, timeout=30) as client:
                barrier.wait()
                return client.post(
                    endpoints_path(),
                    json=new_endpoint("/shared"),
                    headers={"Authorization": f"Bearer {admin_token}"},
                ).status_code

        with ThreadPoolExecutor(THREADS) as pool:
            statuses = sorted(pool.map(create, range(THREADS)))
    assert statuses == [200] + [400] * (THREADS - 1)
