"""An uploaded or fetched spec is untrusted input, over raw HTTP against the live emulator: ``$ref``
resolved only inside the document, every parser failure a 400, one deadline for a spec URL's whole
transfer, the user's headers dropped on a redirect to another host, and no fetch of the emulator's
own ``/_emulator/`` namespace or of link-local and metadata addresses (nor of private and loopback
ones under ``serve --public-spec-urls-only``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import _emulator_http as emulator_http
from _spec_server import Served, SpecServer, spec_server, zip_of
from apinizer_emulator import specs
from apinizer_emulator.testing import start_subprocess

from .conftest import Api, assert_error
from .test_api_proxies import PETSTORE, PROXIES, metadata, proxy_names, upload

SMALL = b'{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}'
VALID_YAML = b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"
#: Ten lists of ten of the level below, eight levels deep: 10^8 lists from a few hundred bytes.
ALIAS_BOMB = b"x-bomb:\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + b"".join(
    f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n".encode() for i in range(1, 9)
)
OUTSIDE = "only references inside the document (#/...) are resolved"


@pytest.fixture
def served() -> Iterator[SpecServer]:
    with spec_server() as server:
        server.files["/petstore.yaml"] = Served(PETSTORE)
        yield server


def with_response_ref(ref: str) -> bytes:
    """An OpenAPI document whose one response is ``{$ref: ref}``."""
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": {"$ref": ref}}}}},
    }
    return json.dumps(document).encode()


def refused_ref(api: Api, ref: str) -> str:
    response = upload(api, "POST", metadata("Refs"), with_response_ref(ref), "refs.json")
    assert_error(response, 400, "bad_request")
    description: str = response.json()["error_description"]
    assert description.startswith("Invalid specification: "), description
    return description


# -- $ref ----------------------------------------------------------------------------------------------


def test_a_ref_to_a_local_file_is_refused_whether_or_not_it_exists(dev_api: Api, tmp_path: Path) -> None:
    existing = tmp_path / "r.yaml"
    existing.write_text("r:\n  description: read from the emulator's disk\n")
    answers = []
    for path in (existing, tmp_path / "missing.yaml"):
        ref = f"file://{path}#/r"
        description = refused_ref(dev_api, ref)
        assert f"the reference ({ref}) is outside the document; {OUTSIDE}" in description
        answers.append(description.replace(str(path), "PATH"))
    # No oracle: an existing file and a missing one get the same answer.
    assert answers[0] == answers[1]
    assert "Refs" not in proxy_names(dev_api)


def test_a_ref_to_a_url_or_a_relative_path_is_refused_without_a_request(
    dev_api: Api, served: SpecServer, emulator_url: str
) -> None:
    for ref in (
        f"{emulator_url}/_emulator/state#/users",
        served.url("/petstore.yaml#/paths"),
        "other.yaml#/r",
        "//127.0.0.1/r.yaml",
    ):
        assert f"the reference ({ref}) is outside the document" in refused_ref(dev_api, ref)
    # A 3.1 schema's $id would make its "#" reference point to that URL: it is resolved in the document.
    schema = {"$id": served.url("/petstore.yaml"), "$ref": "#/paths"}
    media = {"application/json": {"schema": schema}}
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": media}}}}},
    }
    response = upload(dev_api, "POST", metadata("WithId"), json.dumps(document).encode(), "id.json")
    assert response.status_code == 200, response.text
    assert served.paths == []
    # A reference inside the document still resolves.
    document = json.loads(with_response_ref("#/components/responses/Ok"))
    document["components"] = {"responses": {"Ok": {"description": "ok"}}}
    response = upload(dev_api, "POST", metadata("Inside"), json.dumps(document).encode(), "in.json")
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (with_response_ref("#/components/responses/Nope"), "(#/components/responses/Nope)"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (VALID_YAML + b"x-loop: &a [*a]\n", "the document contains itself (a YAML alias inside its anchor)"),
        (VALID_YAML.replace(b"paths: {}", b"paths:\n  /a: &p {get: {responses: *p}}"), "contains itself"),
        (VALID_YAML + ALIAS_BOMB, "the document expands to more than 2000000 objects and lists"),
    ],
    ids=["missing-pointer", "deep-json", "recursive-yaml", "recursive-yaml-in-paths", "alias-bomb"],
)
def test_every_parser_failure_is_a_400_naming_it(api: Api, content: bytes, named: str) -> None:
    response = upload(api, "POST", metadata("Broken"), content, "broken.yaml")
    assert_error(response, 400, "bad_request")
    description = response.json()["error_description"]
    assert description.startswith("Invalid specification"), description
    assert named in description, description
    assert "Broken" not in proxy_names(api)


def test_a_zip_whose_data_is_corrupt_is_a_400(api: Api) -> None:
    wsdl = b'<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">' + b"<x/>" * 500 + b"</definitions>"
    archive = bytearray(zip_of({"a.wsdl": wsdl}))
    data = archive.find(b"a.wsdl") + len(b"a.wsdl")
    for i in range(data + 2, data + 40):  # inside the deflated bytes, past the local header
        archive[i] ^= 0xFF
    response = upload(api, "POST", metadata("Corrupt", "WSDL"), bytes(archive), "c.zip")
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("Invalid specification: the ZIP cannot be read (")
    assert "Corrupt" not in proxy_names(api)


# -- the fetch -----------------------------------------------------------------------------------------


def test_one_deadline_for_the_whole_transfer(
    api: Api, served: SpecServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(specs, "FETCH_TIMEOUT", 0.5)
    # Each byte comes well within the deadline; the whole takes about 3 s.
    served.files["/drip.json"] = Served(SMALL, drip=0.05)
    url = served.url("/drip.json")
    response = api.request("POST", PROXIES + "url/", metadata("Drip", specUrl=url))
    assert_error(
        response,
        400,
        "bad_request",
        f"Specification could not be read from URL ({url}): it was not read whole within 0.5 seconds",
    )
    assert "Drip" not in proxy_names(api)


def test_a_redirect_to_another_host_carries_none_of_the_users_headers(api: Api, served: SpecServer) -> None:
    port = served.base_url.rsplit(":", 1)[1]
    served.files["/elsewhere"] = Served(
        b"", status=302, headers={"Location": f"http://localhost:{port}/petstore.yaml"}
    )
    served.files["/here"] = Served(b"", status=302, headers={"Location": "/petstore.yaml"})
    sent = [
        {"headerName": "X-Api-Key", "headerValue": "k3y"},
        {"headerName": "Authorization", "headerValue": "Bearer t0ken"},
    ]
    for name, path in (("Moved", "/elsewhere"), ("Stays", "/here")):
        body = metadata(name, specUrl=served.url(path), specAuthorizationValueList=sent)
        response = api.request("POST", PROXIES + "url/", body)
        assert response.status_code == 200, response.text
    assert served.paths == ["/elsewhere", "/petstore.yaml", "/here", "/petstore.yaml"]
    first, moved, same, kept = ({k.lower(): v for k, v in h.items()} for h in served.seen)
    assert first["x-api-key"] == "k3y" and first["authorization"] == "Bearer t0ken"
    assert "x-api-key" not in moved and "authorization" not in moved
    # A redirect on the same origin keeps them: the same server asked for them.
    assert same["x-api-key"] == kept["x-api-key"] == "k3y"


def test_the_emulators_own_namespace_is_never_fetched(
    api: Api, served: SpecServer, emulator_url: str
) -> None:
    port = emulator_url.rsplit(":", 1)[1]
    served.files["/to-state"] = Served(
        b"", status=302, headers={"Location": f"{emulator_url}/_emulator/state"}
    )
    for url in (
        f"{emulator_url}/_emulator/state",
        f"http://localhost:{port}/%5Femulator/state",
        f"{emulator_url}/apiops/../_emulator/state",
        served.url("/to-state"),
    ):
        response = api.request("POST", PROXIES + "url/", metadata("Own", specUrl=url))
        assert_error(response, 400, "bad_request")
        description = response.json()["error_description"]
        assert description.startswith(f"Specification could not be read from URL ({url}): "), description
        assert "the emulator's own /_emulator/ namespace, which it never fetches" in description
    assert "Own" not in proxy_names(api)


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The hosts the emulator (in this process) opens TCP connections to; a non-loopback one is
    recorded and refused here, so no packet leaves the machine even when the emulator's own check fails."""
    attempts: list[str] = []
    connect = anyio.connect_tcp

    async def recorded(remote_host: str, remote_port: int, **kwargs: Any) -> Any:
        attempts.append(str(remote_host))
        if not str(remote_host).startswith(("127.", "::1", "localhost")):
            raise OSError(f"the test refuses a connection to {remote_host}")
        return await connect(remote_host, remote_port, **kwargs)

    monkeypatch.setattr(anyio, "connect_tcp", recorded)
    return attempts


def test_link_local_and_metadata_addresses_are_refused_before_connecting(
    api: Api, served: SpecServer, connections: list[str]
) -> None:
    served.files["/to-metadata"] = Served(
        b"", status=302, headers={"Location": "http://169.254.169.254/latest/meta-data/"}
    )
    cases = [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://[fe80::1]:8080/spec.json", "fe80::1"),
        ("http://[::ffff:169.254.169.254]/spec.json", "169.254.169.254"),
        ("http://[fd00:ec2::254]/latest/meta-data/", "fd00:ec2::254"),
        # NAT64 and 6to4 addresses that carry it.
        ("http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "169.254.169.254"),
        ("http://[2002:a9fe:a9fe::1]/latest/meta-data/", "169.254.169.254"),
        (served.url("/to-metadata"), "169.254.169.254"),
    ]
    for url, address in cases:
        response = api.request("POST", PROXIES + "url/", metadata("Meta", specUrl=url))
        assert_error(response, 400, "bad_request")
        description = response.json()["error_description"]
        assert description.startswith(f"Specification could not be read from URL ({url}): "), description
        assert f"{address} is a link-local or cloud metadata address, which the emulator never fetches" in (
            description
        )
        assert "answered HTTP" not in description
    assert all(host.startswith("127.") for host in connections), connections
    assert "Meta" not in proxy_names(api)


def test_public_spec_urls_only_refuses_private_and_loopback_targets(
    served: SpecServer, tmp_path: Path, admin_token: str
) -> None:
    proc, base_url = start_subprocess(tmp_path / "shared.db", extra_args=["--public-spec-urls-only"])
    try:

        with emulator_http.client(base_url=base_url, timeout=30) as client:
            api = Api(client, admin_token)
            port = served.base_url.rsplit(":", 1)[1]
            for url, address in (
                (served.url("/petstore.yaml"), "127.0.0.1"),
                (f"http://localhost:{port}/petstore.yaml", "localhost"),
                ("http://10.1.2.3/spec.json", "10.1.2.3"),
                ("http://[::1]/spec.json", "::1"),
            ):
                response = api.request("POST", PROXIES + "url/", metadata("Near", specUrl=url))
                assert_error(response, 400, "bad_request")
                description = response.json()["error_description"]
                assert f"({address}" in description or f" {address} " in description, description
                assert "a private or loopback address, which this emulator does not fetch" in description
                assert "(serve --public-spec-urls-only)" in description
            assert served.paths == []
            # An upload needs no fetch: it works as before.
            response = upload(api, "POST", metadata("Uploaded"), PETSTORE, "p.yaml")
            assert response.status_code == 200, response.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    "url",
    ["http://[::1/spec.json", "http://127.0.0.1:99999/spec.json", "http://exa mple.invalid/", "http://\x00/"],
    ids=["unclosed-ipv6", "port-out-of-range", "space-in-host", "nul-in-host"],
)
def test_a_malformed_spec_url_is_a_400(api: Api, url: str, connections: list[str]) -> None:
    response = api.request("POST", PROXIES + "url/", metadata("Odd", specUrl=url))
    assert_error(response, 400, "bad_request")
    description = response.json()["error_description"]
    assert description.startswith(("specUrl ", f"Specification could not be read from URL ({url})")), (
        description
    )
    assert connections == []


def test_a_header_value_that_http_cannot_carry_is_a_400_that_does_not_quote_it(
    api: Api, served: SpecServer
) -> None:
    sent = [{"headerName": "X-Api-Key", "headerValue": "clé-s3cret"}]
    body = metadata("Accent", specUrl=served.url("/petstore.yaml"), specAuthorizationValueList=sent)
    response = api.request("POST", PROXIES + "url/", body)
    assert_error(
        response,
        400,
        "bad_request",
        "specAuthorizationValueList: the value of header (X-Api-Key) can not be sent",
    )
    assert served.paths == []


@pytest.mark.parametrize(
    ("location", "reason"),
    [
        ("file:///etc/passwd", "unsupported protocol 'file://'"),
        ("gopher://127.0.0.1:70/", "unsupported protocol 'gopher://'"),
        ("/loop", "it redirects more than 5 times"),
    ],
)
def test_a_redirect_off_http_or_in_a_loop_is_a_400(
    api: Api, served: SpecServer, location: str, reason: str
) -> None:
    served.files["/loop"] = Served(b"", status=302, headers={"Location": location})
    url = served.url("/loop")
    response = api.request("POST", PROXIES + "url/", metadata("Loop", specUrl=url))
    assert_error(response, 400, "bad_request")
    description = response.json()["error_description"]
    assert description.startswith(f"Specification could not be read from URL ({url}): "), description
    assert reason in description, description
