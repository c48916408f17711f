"""Geolocation through the dynamic provider server, against a live emulator: the MMDB uploaded and
compared by sha256 (never in the outputs), enabled toggled in place, refresh keeping the recorded
state, destroy disabling, lost answers, bad input (the program's side: test_geolocation_program.py)."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

import grpc
import pytest
from pulumi.runtime import rpc

import _emulator_http as emulator_http
from _mmdb import write_mmdb
from apinizer_pulumi.resources import GeolocationProvider
from apinizer_pulumi.resources.geolocation import MMDB_METADATA_MARKER
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from .conftest import Gateway
from .test_lost_answers import fault, last_line

UPLOAD = "PUT /apiops/settings/geolocation/mmdb"
ENABLE = "PUT /apiops/settings/geolocation/enable"
DISABLE = "PUT /apiops/settings/geolocation/disable"


@pytest.fixture
def geos(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, GeolocationProvider(), "Geolocation")


@pytest.fixture
def mmdb_file(tmp_path: Path) -> Path:
    path = tmp_path / "GeoLite2-Country.mmdb"
    write_mmdb(path)
    return path


def _file_inputs(path: Path, **extra: Any) -> dict[str, Any]:
    """The inputs a program registers for ``mmdb_file`` (resources.geolocation.Geolocation)."""
    return {"mmdb_file": str(path), "mmdb_sha256": hashlib.sha256(path.read_bytes()).hexdigest(), **extra}


def _live(gateway: Gateway) -> dict[str, Any]:
    state: dict[str, Any] = emulator_http.get(f"{gateway.url}/_emulator/state").json()["geolocation"]
    return state


def _requests(gateway: Gateway) -> dict[str, int]:
    counted: dict[str, int] = gateway.stats()["requests"]
    return counted


def test_create_uploads_and_enables_update_changes_only_what_changed(
    geos: Engine, gateway: Gateway, mmdb_file: Path, tmp_path: Path
) -> None:
    gateway.reset_stats()
    id_, outs = geos.up(_file_inputs(mmdb_file))

    assert id_ == "geolocation"
    live = _live(gateway)
    assert live["enabled"] is True and live["mmdb"]["sha256"] == outs["mmdb_sha256"]
    assert live["mmdb"]["fileName"] == "GeoLite2-Country.mmdb"
    assert outs["enabled"] is True and outs["mmdb_file"] == str(mmdb_file)
    assert _requests(gateway) == {UPLOAD: 1, ENABLE: 1}
    assert geos.diff(id_, outs, geos.checked(_file_inputs(mmdb_file))).changes == DIFF_NONE

    # Off: one disable, no upload.
    gateway.reset_stats()
    news = geos.checked(_file_inputs(mmdb_file, enabled=False))
    diff = geos.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    outs = geos.update(id_, outs, news)
    assert _requests(gateway) == {DISABLE: 1} and _live(gateway)["enabled"] is False

    # A new release of the file, at another path: one upload; the path alone is no change.
    moved = tmp_path / "moved.mmdb"
    moved.write_bytes(mmdb_file.read_bytes())
    assert geos.diff(id_, outs, geos.checked(_file_inputs(moved, enabled=False))).changes == DIFF_NONE
    write_mmdb(moved, country="DE")
    gateway.reset_stats()
    news = geos.checked(_file_inputs(moved, enabled=False))
    assert geos.diff(id_, outs, news).changes == DIFF_SOME
    outs = geos.update(id_, outs, news)
    assert _requests(gateway) == {UPLOAD: 1}
    assert _live(gateway)["mmdb"]["sha256"] == hashlib.sha256(moved.read_bytes()).hexdigest()
    assert _live(gateway)["enabled"] is False


def test_refresh_keeps_the_recorded_state_and_destroy_disables_leaving_the_file(
    geos: Engine, gateway: Gateway, mmdb_file: Path, client: Any
) -> None:
    id_, outs = geos.up(_file_inputs(mmdb_file))
    client.geolocation.disable()  # drift the API cannot show
    gateway.reset_stats()

    read_id, read_outs, read_inputs = geos.read(id_, outs)

    assert read_id == id_ and read_outs == outs and read_inputs is None
    assert gateway.stats()["total"] == 0

    client.geolocation.enable()
    gateway.reset_stats()
    geos.delete(id_, outs)
    assert _requests(gateway) == {DISABLE: 1}
    live = _live(gateway)
    assert live["enabled"] is False and live["mmdb"]["sha256"] == outs["mmdb_sha256"]


def test_base64_source_is_hashed_at_check_and_never_in_the_outputs(
    geos: Engine, gateway: Gateway, mmdb_file: Path
) -> None:
    content = base64.b64encode(mmdb_file.read_bytes()).decode()
    checked = geos.checked({"mmdb_base64": rpc.wrap_rpc_secret(content)})
    assert checked["mmdb_sha256"] == hashlib.sha256(mmdb_file.read_bytes()).hexdigest()

    id_, outs = geos.create(checked)

    assert "mmdb_base64" not in outs and content not in repr(outs)
    assert outs["mmdb_sha256"] == checked["mmdb_sha256"]
    live = _live(gateway)
    assert live["mmdb"]["sha256"] == outs["mmdb_sha256"] and live["mmdb"]["fileName"] == "geolocation.mmdb"
    # The same bytes again, as the next `up` sends them: no change.
    assert geos.diff(id_, outs, geos.checked({"mmdb_base64": content})).changes == DIFF_NONE


def test_bad_input_fails_at_check_naming_it_without_the_file(geos: Engine, mmdb_file: Path) -> None:
    not_mmdb = base64.b64encode(b"secret-looking bytes that are no database").decode()
    failures = geos.check({"mmdb_base64": not_mmdb}).failures
    assert list(failures.values()) == [
        "Value error, mmdb_base64 is not a MaxMind DB (.mmdb) file: it has no MaxMind metadata section"]
    failures = geos.check({"mmdb_base64": "%%% not base64"}).failures
    assert list(failures.values()) == ["Value error, is not valid base64"]
    both = {**_file_inputs(mmdb_file), "mmdb_base64": base64.b64encode(mmdb_file.read_bytes()).decode()}
    assert list(geos.check(both).failures.values()) == [
        "Value error, give mmdb_file or mmdb_base64, not both"]
    assert set(geos.check({"enabled": "sometimes"}).failures) == {"enabled"}
    # Unknown during a preview: skipped, not refused.
    assert geos.check({"mmdb_base64": rpc.UNKNOWN}).failures == {}
    for failure in (geos.check({"mmdb_base64": not_mmdb}).failures.values()):
        assert not_mmdb not in failure


def test_a_file_changed_after_the_program_read_it_or_refused_by_the_gateway_changes_nothing(
    geos: Engine, gateway: Gateway, mmdb_file: Path
) -> None:
    inputs = geos.checked(_file_inputs(mmdb_file))
    write_mmdb(mmdb_file, country="FR")
    with pytest.raises(grpc.RpcError) as changed:
        geos.create(inputs)
    assert "changed after the program read it" in last_line(changed)

    # Past the offline marker check, but no database: the gateway's 400, and nothing stored.
    mmdb_file.write_bytes(b"no search tree" + MMDB_METADATA_MARKER + b"\xff\xff")
    with pytest.raises(grpc.RpcError) as refused:
        geos.create(geos.checked(_file_inputs(mmdb_file)))
    assert last_line(refused).startswith(
        "apinizer:Geolocation: 400 bad_request: File is not a valid MMDB (MaxMind DB) file")
    assert _live(gateway) == {"enabled": False, "mmdb": None}


def test_a_lost_answer_is_retried_and_leaves_one_upload_in_effect(
    geos: Engine, gateway: Gateway, mmdb_file: Path
) -> None:
    fault(gateway, drop=True, after=True, method="PUT", path="/geolocation/mmdb")
    gateway.reset_stats()
    id_, outs = geos.up(_file_inputs(mmdb_file))
    assert id_ == "geolocation"
    live = _live(gateway)
    assert live["enabled"] is True and live["mmdb"]["sha256"] == outs["mmdb_sha256"]
    assert _requests(gateway)[UPLOAD] == 2



def test_create_takes_over_what_the_gateway_had_and_a_second_declaration_is_refused(
    geos: Engine, gateway: Gateway, mmdb_file: Path, tmp_path: Path, client: Any
) -> None:
    other = tmp_path / "other.mmdb"
    write_mmdb(other, country="DE")
    client.geolocation.upload_mmdb(other)
    client.geolocation.disable()

    _, outs = geos.up(_file_inputs(mmdb_file))

    live = _live(gateway)
    assert live["enabled"] is True and live["mmdb"]["sha256"] == outs["mmdb_sha256"]
    # One per management API: a second resource of the same deployment names the same object (the
    # first to claim it in this provider process, which earlier tests share, is named beside it).
    [failure] = geos.check({"enabled": False}, name="geo-again").failures.values()
    assert failure.startswith("apinizer: Geolocation 'geo-again' and Geolocation '")
    assert "' manage the same gateway object: each would overwrite (or delete)" in failure
