"""Domain records of the emulator, built from database rows, and their API shapes."""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import sqlite3
from dataclasses import dataclass
from typing import Any

from apinizer_pulumi.models import Endpoint, EndpointPolicies, HttpMethod, PolicySummary

PIPELINES = ("request", "response", "error")


#: Ids are names, not secrets: a generator seeded once from the OS. ``secrets`` would read the OS's
#: random source per id, a system call that releases the GIL, on the writer thread's path of
#: every create (and takes a wait for the GIL back while the event loop holds it).
_IDS = random.Random(secrets.randbits(128))


def new_id() -> str:
    """A 24-hex-character id, the shape of the product's ids."""
    return f"{_IDS.getrandbits(96):024x}"


def stable_id(*parts: str) -> str:
    """A 24-hex-character id derived from names, so fixture objects keep their ids across resets."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Proxy:
    id: str
    project: str
    name: str
    type: str
    sharing_type: str
    access_list: list[dict[str, Any]]

    @property
    def is_rest(self) -> bool:
        return self.type == "REST"

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Proxy:
        return cls(
            row["id"],
            row["project"],
            row["name"],
            row["type"],
            row["sharing_type"],
            json.loads(row["access_list"]),
        )


@dataclass(frozen=True)
class EndpointRecord:
    id: str
    proxy_id: str
    name: str
    http_method: str
    description: str | None
    active: bool
    backend_resource_url: str | None
    backend_http_method: str | None
    cache_settings: dict[str, Any] | None
    wsa_settings: dict[str, Any] | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> EndpointRecord:
        return cls(
            id=row["id"],
            proxy_id=row["proxy_id"],
            name=row["name"],
            http_method=row["http_method"],
            description=row["description"],
            active=bool(row["active"]),
            backend_resource_url=row["backend_resource_url"],
            backend_http_method=row["backend_http_method"],
            cache_settings=json.loads(row["cache_settings"]) if row["cache_settings"] else None,
            wsa_settings=json.loads(row["wsa_settings"]) if row["wsa_settings"] else None,
        )

    def to_model(self) -> Endpoint:
        return Endpoint(
            id=self.id,
            endpoint=self.name,
            description=self.description,
            active=self.active,
            http_method=HttpMethod(self.http_method),
            backend_resource_url=self.backend_resource_url,
            backend_http_method=HttpMethod(self.backend_http_method) if self.backend_http_method else None,
        )

    def with_policies(self, policies: dict[str, list[PolicySummary]]) -> EndpointPolicies:
        return EndpointPolicies(
            **self.to_model().model_dump(),
            request_policy_list=policies["request"],
            response_policy_list=policies["response"],
            error_policy_list=policies["error"],
        )


def endpoint_json(endpoint: Endpoint) -> dict[str, Any]:
    """An endpoint as the API reads it: all seven fields, a missing description as null."""
    return endpoint.model_dump(mode="json", by_alias=True)


def policy_from_row(row: sqlite3.Row) -> PolicySummary:
    return PolicySummary(
        type=row["type"], name=row["name"], description=row["description"], active=bool(row["active"])
    )
