"""A generated OpenAPI 3.0 document of Stripe's size and shape, for benchmarks and tests of big specs.

Stripe's published spec (about 470 operations, 4 MB of JSON) is not on every machine, so this builds
one like it, deterministically: resources with a list, a create, a retrieve, an update and a delete
(some without the last ones), form-encoded request bodies of nested inline schemas, ``expand`` query
parameters in ``deepObject`` style, and component schemas whose properties are nullable strings,
enums, nested objects, arrays of references and Stripe's "expandable" fields
(``anyOf: [string id, $ref]`` with ``x-expansionResources``), so thousands of internal ``$ref`` tie
the schemas together, some of them in cycles.

    from _big_spec import big_spec
    document = big_spec()            # a dict; big_spec_json() gives the bytes
"""

from __future__ import annotations

import json
from typing import Any

#: Operations of the generated document: Stripe's count in the issue's measurement.
OPERATIONS = 468
#: Component schemas beside the resources': nested objects the resources refer to.
SHARED_SCHEMAS = 420
_TEXT = (
    "The identifier of the object, unique for each one, and the fields a caller may change, described "
    "at length as the real document does for every property"
)


def _string(i: int) -> dict[str, Any]:
    return {"description": f"{_TEXT} ({i}).", "maxLength": 5000, "type": "string"}


def _expandable(target: str, i: int) -> dict[str, Any]:
    return {
        "anyOf": [{"maxLength": 5000, "type": "string"}, {"$ref": f"#/components/schemas/{target}"}],
        "description": f"The {target} this object belongs to ({i}).",
        "nullable": True,
        "x-expansionResources": {"oneOf": [{"$ref": f"#/components/schemas/{target}"}]},
    }


def _shared_schema(i: int) -> dict[str, Any]:
    other = f"shared_{(i * 7 + 3) % SHARED_SCHEMAS}"
    properties: dict[str, Any] = {
        "id": _string(i),
        "object": {
            "description": "String representing the object's type.",
            "enum": [f"shared_{i}"],
            "type": "string",
        },
        "amount": {"description": f"An amount in the smallest currency unit ({i}).", "type": "integer"},
        "livemode": {
            "description": "Has the value true if the object exists in live mode.",
            "type": "boolean",
        },
        "metadata": {
            "additionalProperties": {"maxLength": 500, "type": "string"},
            "nullable": True,
            "description": "Set of key-value pairs that you can attach to an object.",
            "type": "object",
        },
        "status": {"enum": ["active", "canceled", "pending", "failed"], "type": "string", "nullable": True},
        "details": {
            "description": "Nested details.",
            "nullable": True,
            "type": "object",
            "properties": {
                "line1": _string(i),
                "line2": _string(i + 1),
                "nested": {
                    "type": "object",
                    "properties": {"code": _string(i + 2), "other": _expandable(other, i)},
                },
            },
        },
        "related": {"items": {"$ref": f"#/components/schemas/{other}"}, "type": "array"},
    }
    return {
        "description": f"A shared object of the API ({i}), with the properties that every caller reads.",
        "properties": properties,
        "required": ["id", "object", "livemode"],
        "title": f"Shared{i}",
        "type": "object",
        "x-expandableFields": ["details"],
    }


def _resource_schema(r: int) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "id": _string(r),
        "object": {"enum": [f"resource_{r}"], "type": "string"},
        "created": {"format": "unix-time", "type": "integer"},
        "description": {**_string(r), "nullable": True},
        "customer": _expandable(f"shared_{r % SHARED_SCHEMAS}", r),
        "invoice": _expandable(f"shared_{(r * 3 + 1) % SHARED_SCHEMAS}", r),
        "parent": _expandable(f"resource_{(r + 1) % _resources()}", r),
        "items": {
            "type": "object",
            "properties": {
                "data": {
                    "items": {"$ref": f"#/components/schemas/shared_{(r * 5) % SHARED_SCHEMAS}"},
                    "type": "array",
                },
                "has_more": {"type": "boolean"},
                "url": {"maxLength": 5000, "type": "string"},
            },
            "required": ["data", "has_more", "url"],
        },
    }
    for k in range(12):
        properties[f"field_{k}"] = (
            {"$ref": f"#/components/schemas/shared_{(r * 11 + k) % SHARED_SCHEMAS}"}
            if k % 3 == 0
            else _string(k)
        )
    return {
        "description": f"Resource {r}.",
        "properties": properties,
        "required": ["id", "object"],
        "type": "object",
        "title": f"Resource{r}",
    }


def _form_body(r: int) -> dict[str, Any]:
    """Stripe's request bodies: an inline form schema, nested objects three levels deep."""

    def level(depth: int) -> dict[str, Any]:
        properties: dict[str, Any] = {f"param_{k}": {"maxLength": 5000, "type": "string"} for k in range(4)}
        properties["flag"] = {"type": "boolean"}
        properties["count"] = {"type": "integer"}
        properties["choice"] = {"enum": ["one", "two", "three"], "type": "string"}
        if depth:
            properties["child"] = level(depth - 1)
            properties["children"] = {"items": level(depth - 1), "type": "array"}
        return {"properties": properties, "title": f"level_{depth}", "type": "object"}

    schema = level(2)
    schema["properties"]["metadata"] = {
        "anyOf": [
            {"additionalProperties": {"type": "string"}, "type": "object"},
            {"enum": [""], "type": "string"},
        ]
    }
    schema["properties"]["expand"] = {"items": {"maxLength": 5000, "type": "string"}, "type": "array"}
    return {
        "content": {
            "application/x-www-form-urlencoded": {
                "encoding": {
                    "expand": {"explode": True, "style": "deepObject"},
                    "metadata": {"explode": True, "style": "deepObject"},
                },
                "schema": schema,
            }
        },
        "required": False,
    }


def _responses(schema: str) -> dict[str, Any]:
    return {
        "200": {
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
            "description": "Successful response.",
        },
        "default": {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}},
            "description": "Error response.",
        },
    }


_EXPAND = {
    "description": "Specifies which fields in the response should be expanded.",
    "explode": True,
    "in": "query",
    "name": "expand",
    "required": False,
    "schema": {"items": {"maxLength": 5000, "type": "string"}, "type": "array"},
    "style": "deepObject",
}


def _resources() -> int:
    return -(-OPERATIONS // 5)


def big_spec() -> dict[str, Any]:
    """The document: :data:`OPERATIONS` operations on :func:`_resources` resources."""
    paths: dict[str, Any] = {}
    operations = 0
    for r in range(_resources()):
        name = f"resource_{r}"
        collection: dict[str, Any] = {}
        item: dict[str, Any] = {}
        id_parameter = {
            "in": "path",
            "name": "id",
            "required": True,
            "schema": {"maxLength": 5000, "type": "string"},
            "style": "simple",
        }
        candidates: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
            (
                collection,
                "get",
                {
                    "parameters": [
                        _EXPAND,
                        {
                            "in": "query",
                            "name": "limit",
                            "required": False,
                            "schema": {"type": "integer"},
                            "style": "form",
                        },
                    ]
                },
            ),
            (collection, "post", {"requestBody": _form_body(r)}),
            (item, "get", {"parameters": [_EXPAND, id_parameter]}),
            (item, "post", {"parameters": [id_parameter], "requestBody": _form_body(r + 1)}),
            (item, "delete", {"parameters": [id_parameter]}),
        ]
        for target, method, extra in candidates:
            if operations == OPERATIONS:
                break
            target[method] = {
                "description": f"<p>{method.upper()} of {name}: {_TEXT}.</p>",
                "operationId": f"{method.capitalize()}Resource{r}{'Item' if target is item else ''}",
                "responses": _responses(name),
                **extra,
            }
            operations += 1
        paths[f"/v1/{name}s"] = collection
        if item:
            paths[f"/v1/{name}s/{{id}}"] = item
    schemas: dict[str, Any] = {f"shared_{i}": _shared_schema(i) for i in range(SHARED_SCHEMAS)}
    schemas.update({f"resource_{r}": _resource_schema(r) for r in range(_resources())})
    schemas["error"] = {
        "description": "An error response from the API.",
        "properties": {"error": {"$ref": "#/components/schemas/api_errors"}},
        "required": ["error"],
        "type": "object",
    }
    schemas["api_errors"] = {
        "properties": {
            "code": {"maxLength": 5000, "type": "string"},
            "message": _string(0),
            "source": _expandable("shared_0", 0),
        },
        "type": "object",
    }
    return {
        "openapi": "3.0.0",
        "info": {"title": "Big API", "version": "2024-06-20", "description": "A Stripe-sized document."},
        "servers": [{"url": "https://api.example.com/"}],
        "security": [{"basicAuth": []}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"basicAuth": {"scheme": "basic", "type": "http"}},
        },
    }


def big_spec_json() -> bytes:
    return json.dumps(big_spec(), indent=2).encode()


def count_operations(document: dict[str, Any]) -> int:
    return sum(len(item) for item in document["paths"].values())
