"""Helpers for the emulator's tests: raw HTTP against the session's live emulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from _emulator_http import emulator_client

PROXY_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/endpoints/"
RLCL_PATH = "/apiops/projects/{project}/rlcl/{rlcl}/endpoints/"
ANALYST_TOKEN = "dev-analyst-token"
GUEST_TOKEN = "dev-guest-token"


def endpoints_path(suffix: str = "", project: str = "Demo", proxy: str = "PetStore") -> str:
    return PROXY_PATH.format(project=project, proxy=proxy) + (f"{suffix}/" if suffix else "")


def rlcl_path(rlcl: str = "Standard", project: str = "Demo") -> str:
    return RLCL_PATH.format(project=project, rlcl=rlcl)


def assert_error(response: httpx.Response, status: int, error: str, description: str | None = None) -> None:
    """The response is the API's error body with exactly this status, error and (when given) text."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "error_description"}, body
    assert body["error"] == error, body
    if description is not None:
        assert body["error_description"] == description, body


def assert_success(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    assert response.json() == {"success": True}


class Api:
    """Raw HTTP calls with a bearer token; ``request`` sends JSON bodies even with DELETE."""

    def __init__(self, client: httpx.Client, token: str | None) -> None:
        self.client = client
        self.token = token

    def headers(self, token: str | None = None) -> dict[str, str]:
        token = token or self.token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def request(
        self, method: str, path: str, body: Any = None, *, token: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        if body is not None:
            kwargs["json"] = body
        return self.client.request(method, path, headers=self.headers(token), **kwargs)

    def as_user(self, token: str) -> Api:
        return Api(self.client, token)

    # shortcuts for the endpoint operations
    def list(self, proxy: str = "PetStore", project: str = "Demo") -> httpx.Response:
        return self.request("GET", endpoints_path(project=project, proxy=proxy))

    def create(self, body: Any, proxy: str = "PetStore", project: str = "Demo") -> httpx.Response:
        return self.request("POST", endpoints_path(project=project, proxy=proxy), body)

    def get(self, name: str, method: str, proxy: str = "PetStore", project: str = "Demo") -> httpx.Response:
        return self.request(
            "POST", endpoints_path("details", project, proxy), {"name": name, "httpMethod": method}
        )

    def state(self) -> dict[str, Any]:
        response = self.client.get("/_emulator/state")
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def proxy_state(self, proxy: str, project: str = "Demo") -> dict[str, Any]:
        for p in self.state()["projects"]:
            if p["name"] == project:
                for px in p["apiProxies"]:
                    if px["name"] == proxy:
                        return dict(px)
        raise AssertionError(f"no proxy {project}/{proxy} in the state")

    def rlcl_entries(self, rlcl: str = "Standard", project: str = "Demo") -> list[dict[str, Any]]:
        response = self.client.get(f"/_emulator/projects/{project}/rlcl/{rlcl}/endpoints")
        response.raise_for_status()
        entries: list[dict[str, Any]] = response.json()["endpointRateLimitList"]
        return entries


def new_endpoint(name: str = "/toys", method: str = "GET", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "httpMethod": method,
        "backendResourceUrl": f"/backend{name}",
        "backendHttpMethod": method,
        **extra,
    }


@pytest.fixture
def http(emulator_url: str) -> Iterator[httpx.Client]:
    with emulator_client(emulator_url) as client:
        yield client


@pytest.fixture
def api(http: httpx.Client, admin_token: str) -> Api:
    """Raw calls as the admin (ROLE_ADMIN) against a freshly reset emulator."""
    return Api(http, admin_token)


@pytest.fixture
def dev_api(http: httpx.Client, developer_token: str) -> Api:
    """Raw calls as the developer (ROLE_MANAGE_PROXIES only)."""
    return Api(http, developer_token)
