"""Request bodies copied from the product's documentation pages, as they stand, for the unit tests
(replayed through the client over ``httpx.MockTransport``) and the emulator tests (sent to the live
emulator). Only the settings objects are kept where a page wraps them in an endpoint's identifiers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md
#: (cURL example: no ``name``, the path names the RLCL).
UPDATE_RLCL: dict[str, Any] = {
    "description": "Updated rate limit for premium users",
    "enabled": True,
    "executionOrder": "FIRST",
    "cacheConnectionTimeoutInSeconds": 5,
    "cacheErrorHandlingType": "CONTINUE",
    "timeIntervalWindowType": "SLIDING",
    "showRateLimitStatisticsInResponseHeader": True,
}

# https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/endpoints/update-endpoint-cache.md

#: "Full JSON Body Example - Basic Cache Configuration", its ``cacheSettings``.
BASIC_CACHE: dict[str, Any] = {
    "name": "Endpoint Cache Settings",
    "description": "Cache configuration for this endpoint",
    "cacheActive": True,
    "cacheOnlyHttpGetRequests": False,
    "cacheKeyType": "QUERY_PARAMS",
    "cacheStorageType": "LOCAL",
    "capacity": 1000,
    "ttl": 3600,
    "handlingAction": "STOP",
    "invalidationRequiresAuthn": False,
    "cacheNullValue": False,
    "variableList": [],
}
#: The variables of the custom-key examples: HEADER and PARAMETER without headerName or paramName.
CUSTOM_KEY_VARIABLES: list[dict[str, Any]] = [
    {"name": "userId", "type": "HEADER", "dataType": "STRING"},
    {"name": "apiVersion", "type": "PARAMETER", "dataType": "STRING"},
]
#: "Full JSON Body Example - Custom Cache Key", its ``cacheSettings``.
CUSTOM_KEY_CACHE: dict[str, Any] = {
    "name": "Endpoint Cache with Custom Key",
    "description": "Cache using custom variables",
    "cacheActive": True,
    "cacheOnlyHttpGetRequests": False,
    "cacheKeyType": "CUSTOM",
    "cacheStorageType": "DISTRIBUTED",
    "capacity": 5000,
    "ttl": 7200,
    "handlingAction": "CONTINUE",
    "invalidationRequiresAuthn": True,
    "cacheNullValue": True,
    "variableList": CUSTOM_KEY_VARIABLES,
}
#: cURL "Example 1: Basic Endpoint Cache Configuration", its ``cacheSettings``.
CURL_1_CACHE: dict[str, Any] = {
    "name": "Endpoint Cache Settings",
    "cacheActive": True,
    "cacheOnlyHttpGetRequests": False,
    "cacheKeyType": "QUERY_PARAMS",
    "cacheStorageType": "LOCAL",
    "capacity": 1000,
    "ttl": 3600,
    "handlingAction": "STOP",
    "cacheNullValue": False,
}
#: cURL "Example 2: Custom Cache Key with Variables", its ``cacheSettings``.
CURL_2_CACHE: dict[str, Any] = {
    "name": "Endpoint Cache with Custom Key",
    "cacheActive": True,
    "cacheKeyType": "CUSTOM",
    "cacheStorageType": "DISTRIBUTED",
    "capacity": 5000,
    "ttl": 7200,
    "handlingAction": "CONTINUE",
    "invalidationRequiresAuthn": True,
    "variableList": CUSTOM_KEY_VARIABLES,
}

#: The characters of the issue that no name may hold: NEL, RIGHT-TO-LEFT OVERRIDE, LEFT-TO-RIGHT
#: ISOLATE, LINE SEPARATOR, ZERO WIDTH SPACE, ZERO WIDTH NO-BREAK SPACE (BOM), CSI.
REFUSED_NAME_CHARACTERS = ["\u0085", "\u202e", "\u2066", "\u2028", "\u200b", "\ufeff", "\u009b"]

#: Every JSON example, cURL body and form of 02-api-reference/08-keys-secrets/crud/ (JWKs, keystores,
#: crypto keys, certificates), keyed ``<page>#N`` (its Nth JSON block), ``#curl-N`` (its Nth cURL
#: body) and ``#form-N`` (its Nth multipart cURL example): ``{"model": ..., "body": ...}``, with
#: ``refused`` where the block is a fragment the model refuses, ``query``, ``path_name`` and ``note``.
KEYS_EXAMPLES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "unit" / "data" / "keys_doc_examples.json").read_text(encoding="utf-8")
)


def without_nulls(value: Any) -> Any:
    """A documented body without its null fields (a model leaves them out of what it sends)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def assert_contained(expected: Any, actual: Any, where: str) -> None:
    """Every documented field came back, by its API name and with its value."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for name, value in expected.items():
            assert name in actual, f"{where}: field {name} was dropped"
            assert_contained(value, actual[name], f"{where}.{name}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_contained(e, a, f"{where}[{i}]")
    else:
        assert actual == expected, where
