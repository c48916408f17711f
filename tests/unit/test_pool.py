"""The process-wide pool: one keep-alive httpx.Client per base URL, shared by clients and threads."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient, close_pooled_clients
from apinizer_pulumi.client._transport_pool import get_client, pool_size

from ._fake_gateway import FakeGateway


@pytest.fixture(autouse=True)
def _empty_pool() -> Iterator[None]:
    close_pooled_clients()
    yield
    close_pooled_clients()


def test_same_base_url_same_client() -> None:
    assert get_client("http://a.test") is get_client("http://a.test/")
    assert pool_size() == 1


def test_other_base_url_other_client() -> None:
    assert get_client("http://a.test") is not get_client("http://b.test")
    assert get_client("http://a.test/x") is not get_client("http://a.test")
    assert pool_size() == 3


def test_pooled_client_settings() -> None:
    http = get_client("http://a.test:8080/")
    assert str(http.base_url).rstrip("/") == "http://a.test:8080"
    assert http.auth is None
    assert http.follow_redirects is False


def test_many_threads_get_one_client() -> None:
    seen: list[httpx.Client] = []
    barrier = threading.Barrier(16)

    def take() -> None:
        barrier.wait()
        seen.append(get_client("http://threads.test"))

    threads = [threading.Thread(target=take) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 16 and len({id(c) for c in seen}) == 1


def test_clients_without_transport_share_the_pooled_http_client() -> None:
    first = ApinizerClient("http://shared.test", token="one")
    second = ApinizerClient("http://shared.test/", username="u", password="p", timeout=3)
    assert first._http is second._http is get_client("http://shared.test")
    assert pool_size() == 1


def test_close_leaves_the_pooled_client_open_for_others() -> None:
    first = ApinizerClient("http://shared.test", token="one")
    second = ApinizerClient("http://shared.test", token="two")
    first.close()
    assert first.is_closed
    assert not second._http.is_closed
    with ApinizerClient("http://shared.test", token="three") as third:
        assert third._http is second._http
    assert not second._http.is_closed


def test_close_all_closes_and_renews() -> None:
    old = get_client("http://a.test")
    close_pooled_clients()
    assert old.is_closed and pool_size() == 0
    new = get_client("http://a.test")
    assert new is not old and not new.is_closed


def test_a_closed_pooled_client_is_replaced() -> None:
    old = get_client("http://a.test")
    old.close()
    assert get_client("http://a.test") is not old


def test_private_transport_bypasses_the_pool() -> None:
    with ApinizerClient("http://a.test", token="t", transport=httpx.MockTransport(FakeGateway())) as client:
        assert client._http is not get_client("http://a.test")
    assert pool_size() == 1  # only the one get_client made


def test_credentials_travel_per_request_not_on_the_shared_client() -> None:
    first = ApinizerClient("http://shared.test", token="one")
    assert first._http.auth is None
    assert "authorization" not in first._http.headers


def test_existing_clients_survive_close_all() -> None:
    client = ApinizerClient("http://shared.test", token="one")
    old = client._http
    close_pooled_clients()
    assert client._http is not old and not client._http.is_closed


def test_a_cookie_the_gateway_sets_is_still_sent_back() -> None:
    """Responses are handed to the cookie jar only when they set a cookie: one that something in
    front of the gateway sets (a sticky session) still comes back on the next request."""
    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("cookie"))
        headers = {"set-cookie": "route=b2; Path=/"} if len(seen) == 1 else {}
        return httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0},
                              headers=headers)

    client = ApinizerClient("http://cookies.test", token="t", transport=httpx.MockTransport(answer))
    for _ in range(3):
        client.endpoints.list("Demo", "PetStore")
    assert seen == [None, "route=b2", "route=b2"]
    assert dict(client._http.cookies) == {"route": "b2"}


@pytest.mark.parametrize("method", ["GET", "DELETE", "POST", "PUT", "PATCH", "delete"])
@pytest.mark.parametrize("content", [None, b"", b'{"name":"/pets","httpMethod":"GET"}'])
@pytest.mark.parametrize("headers", [
    (), (("Accept", "application/json"), ("Content-Type", "application/json")),
    (("Host", "elsewhere.test"),), (("Content-Length", "99"),), (("Transfer-Encoding", "chunked"),),
    (("X-Caf\u00e9", "caf\u00e9"),)], ids=["none", "json", "host", "length", "chunked", "latin-1"])
def test_every_request_built_is_httpx_s_own(method: str, content: bytes | None,
                                            headers: tuple[tuple[str, str], ...]) -> None:
    from apinizer_pulumi.client._transport_pool import build_request

    http = get_client("http://built.test:8080")
    url = httpx.URL("http://built.test:8080/apiops/x/?q=1")
    try:
        theirs = http.build_request(method, url, content=content, headers=dict(headers), timeout=7.0)
    except (UnicodeEncodeError, ValueError) as error:
        with pytest.raises(type(error)):
            build_request(http, method, url, content=content, headers=headers, timeout=7.0)
        return
    ours = build_request(http, method, url, content=content, headers=headers, timeout=7.0)
    assert ours.headers.raw == theirs.headers.raw
    # The headers are made of normalized items (_keepalive.made_headers): the same as httpx's.
    assert ours.headers._list == theirs.headers._list
    assert ours.headers.encoding == theirs.headers.encoding
    assert ours.headers.get("content-length") == theirs.headers.get("content-length")
    assert (ours.method, ours.url, ours.content, ours.extensions, type(ours.stream)) == (
        theirs.method, theirs.url, theirs.content, theirs.extensions, type(theirs.stream))
    assert list(ours.stream) == list(theirs.stream)


def test_the_request_built_once_per_client_is_httpx_s_own() -> None:
    from apinizer_pulumi.client._transport_pool import build_request

    http = get_client("http://built.test")
    url = httpx.URL("http://built.test/apiops/x")
    ours = build_request(http, "POST", url, content=b"{}", headers=(("Accept", "application/json"),),
                         timeout=7.0)
    theirs = http.build_request("POST", url, content=b"{}", headers={"Accept": "application/json"},
                                timeout=7.0)
    assert ours.headers.multi_items() == theirs.headers.multi_items()
    assert (ours.method, ours.url, ours.read(), ours.extensions) == (
        theirs.method, theirs.url, theirs.read(), theirs.extensions)
    http.cookies.set("route", "b2")
    with_cookie = build_request(http, "GET", url, content=None, headers=(), timeout=7.0)
    http.cookies.clear()
    assert with_cookie.headers["cookie"] == "route=b2"


def test_a_later_httpx_keeping_headers_otherwise_gets_the_raw_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    from apinizer_pulumi.client import _keepalive, _transport_pool

    monkeypatch.setattr(_keepalive, "HEADER_TRIPLES", False)
    http = get_client("http://built.test:8080")
    url = httpx.URL("http://built.test:8080/apiops/x/")
    accept = (("Accept", "application/json"),)
    ours = _transport_pool.build_request(http, "POST", url, content=b"{}", headers=accept, timeout=7.0)
    theirs = http.build_request("POST", url, content=b"{}", headers=dict(accept), timeout=7.0)
    assert ours.headers._list == theirs.headers._list


def test_each_request_has_headers_of_its_own() -> None:
    """A request's headers change (the auth flow sets Authorization) without reaching another's."""
    from apinizer_pulumi.client._transport_pool import build_request

    http = get_client("http://built.test:8080")
    url = httpx.URL("http://built.test:8080/apiops/x/")
    accept = (("Accept", "application/json"),)
    first, second = (build_request(http, "POST", url, content=b"{}", headers=accept, timeout=7.0)
                     for _ in range(2))
    first.headers["Authorization"] = "Bearer one"
    assert "authorization" not in second.headers
    again = build_request(http, "POST", url, content=b"{}", headers=accept, timeout=7.0)
    assert "authorization" not in again.headers
