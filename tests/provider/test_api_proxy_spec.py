"""An ``ApiProxy``'s spec file through the provider server: read at preview with the emulator's parser,
kept out of the state, and re-parsed once when the gateway's answer is lost.

Issue 27: a broken spec failed only at ``up``; the state held the spec's bytes; a re-parse whose answer
was lost was sent again blindly; a refresh that found drift dropped the spec's bytes from the recorded
inputs, so the next ``up`` showed a ``+spec_content`` that it never sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import ApiProxyProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, Engine

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway
from .test_api_proxy import FILE, PETSTORE, endpoint_names, fault, orders

STORES = '  /stores:\n    get:\n      summary: List stores\n      responses:\n        "200":\n' \
         '          description: Stores\n'


@pytest.fixture
def proxies(server: Any, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyProvider(), "ApiProxy")


@pytest.fixture(scope="module")
def checking(emulator: Any) -> Iterator[Engine]:
    """A provider process whose checks prove the connection (one request), as a preview's do."""
    config = {"apinizer:url": emulator.base_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config) as server:
        yield Engine(server, ApiProxyProvider(), "ApiProxy")


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "orders.yaml"
    path.write_bytes(PETSTORE.read_bytes())
    return path


BROKEN = {
    "not YAML": (b"openapi: [3.0.3\n", "Invalid specification: the document is neither JSON nor YAML"),
    "not a spec": (b"title: a shopping list\n", 'Invalid specification: the document declares neither '
                                                 '"openapi: 3.x" nor "swagger: \'2.0\'"'),
    "invalid": (b'openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n',
                "Invalid specification (OPEN_API): at info: \"version\" is a required property"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_spec_that_is_not_a_spec_fails_the_check_naming_the_file_with_no_request(
        checking: Engine, gateway: Gateway, tmp_path: Path, case: str) -> None:
    content, reason = BROKEN[case]
    broken = tmp_path / "broken.yaml"
    broken.write_bytes(content)
    gateway.reset_stats()

    failures = checking.check(orders(broken)).failures

    assert list(failures) == [""]
    assert failures[""].startswith(f"apinizer: spec_file '{broken}': {reason}"), failures[""]
    assert "\n" not in failures[""]
    assert gateway.stats()["total"] == 0  # offline: not even the connection check's request


def test_a_ref_outside_the_spec_fails_the_check_naming_it_as_the_gateway_would_with_no_request(
        checking: Engine, gateway: Gateway, tmp_path: Path) -> None:
    # A file the preview could read and that would make a valid response: the rule, not the luck of the
    # file's content, refuses it; the emulator gives the same message to an upload (test_spec_trust.py).
    readable = tmp_path / "r.yaml"
    readable.write_text("r:\n  description: read from the machine running the preview\n")
    broken = tmp_path / "refs.yaml"
    gateway.reset_stats()
    for ref in (f"file://{readable}#/r", "file:///etc/passwd", "r.yaml#/r", "../secrets/r.yaml"):
        broken.write_text("openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
                          f"paths:\n  /a:\n    get:\n      responses:\n        '200': {{$ref: '{ref}'}}\n")

        failures = checking.check(orders(broken)).failures

        assert failures == {"": f"apinizer: spec_file '{broken}': Invalid specification: the reference "
                                f"({ref}) is outside the document; only references inside the document "
                                "(#/...) are resolved"}, ref
    assert gateway.stats()["total"] == 0


def test_a_yaml_spec_with_unquoted_response_codes_and_dates_passes_the_check(
        checking: Engine, tmp_path: Path) -> None:
    # Unquoted response codes and a date-looking default, as hand-written YAML specs have them: the
    # emulator reads keys and timestamps as text (test_specs.py), and the preview must not refuse them.
    path = tmp_path / "dates.yaml"
    path.write_bytes(b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
                     b"      parameters: [{name: since, in: query,\n"
                     b"                    schema: {type: string, default: 2001-01-01}}]\n"
                     b"      responses:\n        200: {description: ok}\n")

    assert checking.check(orders(path)).failures == {}


def test_a_spec_that_cannot_be_read_fails_the_check_naming_the_file(
        checking: Engine, gateway: Gateway, tmp_path: Path) -> None:
    gateway.reset_stats()
    missing = orders(tmp_path / "nowhere.yaml")
    assert checking.check(missing).failures == {
        "": f"apinizer: spec_file '{tmp_path / 'nowhere.yaml'}' cannot be read: No such file or directory"}
    (tmp_path / "empty.yaml").write_bytes(b"")
    assert checking.check(orders(tmp_path / "empty.yaml")).failures == {
        "": f"apinizer: spec_file '{tmp_path / 'empty.yaml'}' is empty"}
    assert gateway.stats()["total"] == 0


def test_the_state_keeps_the_specs_path_and_hash_not_its_bytes(
        proxies: Engine, spec: Path, client: ApinizerClient) -> None:
    id_, outs = proxies.up(orders(spec))

    assert "spec_content" not in outs and outs["spec_file"] == str(spec)
    assert "List all pets" not in repr(outs)
    # A checkout elsewhere (another path to the same bytes) is no diff.
    moved = spec.with_name("moved.yaml")
    moved.write_bytes(spec.read_bytes())
    assert proxies.diff(id_, outs, proxies.checked(orders(moved))).changes == DIFF_NONE


def test_a_refresh_that_finds_drift_records_the_inputs_the_program_sends(
        proxies: Engine, spec: Path, client: ApinizerClient) -> None:
    declared = orders(spec, client_route={"relative_paths": ["/orders"]})
    id_, outs = proxies.up(declared)
    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/changed"]})

    _, _, recorded = proxies.read(id_, outs)

    # The engine shows the next up's diff between these and the program's inputs: only what drifted.
    assert recorded is not None
    news = proxies.checked(declared)
    differing = {key for key in set(recorded) | set(news) - {"__provider"}
                 if key != "connection" and recorded.get(key) != news.get(key)}
    assert differing == {"client_route"}, differing


def re_parse(proxies: Engine, spec: Path, gateway: Gateway, edit: Callable[[str], str],
             **lost: Any) -> dict[str, Any]:
    """Create from ``spec``, edit it, and update while the re-parse's answer is ``lost``; the outputs."""
    id_, outs = proxies.up(orders(spec))
    spec.write_text(edit(spec.read_text()))
    news = proxies.checked(orders(spec))
    gateway.reset_stats()
    fault(gateway, path="/apiProxies/file/", method="PUT", **lost)
    return proxies.update(id_, outs, news)


def test_a_re_parse_whose_answer_is_lost_is_read_back_and_not_sent_again(
        proxies: Engine, spec: Path, gateway: Gateway) -> None:
    outs = re_parse(proxies, spec, gateway, lambda text: text + STORES, after=True, drop=True)

    assert gateway.stats()["requests"][f"PUT {FILE}"] == 1  # carried out, then seen in the endpoints
    assert ("GET", "/stores") in endpoint_names(outs)


def test_a_re_parse_that_never_arrived_is_sent_again_after_looking(
        proxies: Engine, spec: Path, gateway: Gateway) -> None:
    # Refused before the work: the looks find the old endpoints, and it is sent again.
    outs = re_parse(proxies, spec, gateway, lambda text: text + STORES, status=502)

    assert gateway.stats()["requests"][f"PUT {FILE}"] == 2
    assert ("GET", "/stores") in endpoint_names(outs)


def test_a_lost_re_parse_whose_endpoints_cannot_tell_is_sent_again(
        proxies: Engine, spec: Path, gateway: Gateway) -> None:
    re_parse(proxies, spec, gateway, lambda text: text.replace("List all pets", "List every pet"),
             after=True, drop=True)

    # The same endpoints before and after: nothing tells whether it took effect, and a re-parse
    # repeated leaves the same proxy.
    assert gateway.stats()["requests"][f"PUT {FILE}"] == 2


def test_a_spec_changed_after_the_program_read_it_is_not_sent(
        proxies: Engine, spec: Path, gateway: Gateway) -> None:
    id_, outs = proxies.up(orders(spec))
    spec.write_text(spec.read_text() + STORES)
    news = proxies.checked(orders(spec))
    spec.write_text(spec.read_text() + "  /later:\n    get:\n      responses: {'200': {description: x}}\n")
    gateway.reset_stats()

    with pytest.raises(grpc.RpcError) as failure:
        proxies.update(id_, outs, news)

    assert f"spec_file '{spec}' changed after the program read it" in failure.value.details()
    assert f"PUT {FILE}" not in gateway.stats()["requests"]
