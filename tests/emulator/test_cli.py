"""``apinizer-emulator token create|list|revoke`` against a database file, and ``serve``'s options."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import _emulator_http as emulator_http
from apinizer_emulator.cli import main
from apinizer_emulator.testing import EmulatorServer, start_subprocess

from .conftest import assert_error, endpoints_path


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``apinizer-emulator ARGS`` run through the CLI's ``main`` in this process, its exit code and output
    kept as a finished process's would be.

    A Python process per command cost 1 to 2 s of start-up each (about 40 commands in this module); the
    tests that are about the process itself (the console script, ``python -m``, the installed extras in
    test_cli_without_extra.py) start one.
    """
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse: --help, --version and bad arguments
            code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
    result = subprocess.CompletedProcess(
        ["apinizer-emulator", *args], code, stdout.getvalue(), stderr.getvalue()
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def token_list(db: Path, *extra: str) -> list[dict]:
    return json.loads(cli("token", "list", "--db", str(db), "--json", *extra).stdout)


def test_console_script_is_installed_next_to_python():
    script = Path(sys.executable).with_name("apinizer-emulator")
    assert script.exists()
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "serve" in result.stdout and "token" in result.stdout


def test_token_lifecycle_against_a_running_server(tmp_path):
    db = tmp_path / "emulator.db"
    created = cli("token", "create", "--db", str(db), "--user", "developer", "--name", "ci")
    value = created.stdout.strip()
    assert len(value) >= 32 and "\n" not in value
    assert "shown only now" in created.stderr
    assert value not in db.read_bytes().decode("latin-1")  # stored only as a hash

    listed = token_list(db)
    ci = next(t for t in listed if t["name"] == "ci")
    assert ci["username"] == "developer" and ci["expires_at"] is None and ci["revoked_at"] is None
    assert {t["name"] for t in listed} >= {"dev-admin", "dev-developer", "ci"}
    assert all("value" not in t and "token_hash" not in t for t in listed)

    with EmulatorServer(db=db) as server, emulator_http.client(base_url=server.base_url) as client:
        headers = {"Authorization": f"Bearer {value}"}
        assert client.get(endpoints_path(), headers=headers).status_code == 200
        revoked = cli("token", "revoke", "--db", str(db), "--user", "developer", "--name", "ci")
        assert "revoked" in revoked.stdout
        # the running server sees the revocation at once
        assert_error(
            client.get(endpoints_path(), headers=headers), 401, "unauthorized_client", "Invalid token"
        )
    assert next(t for t in token_list(db) if t["id"] == ci["id"])["revoked_at"] is not None


def test_a_token_expiring_today_or_later_works_through_the_whole_day(tmp_path):
    db = tmp_path / "emulator.db"
    today = dt.datetime.now(dt.UTC).date()
    made = {
        name: cli("token", "create", "--db", str(db), "--user", "admin", "--name", name, "--expires", day)
        for name, day in (("today", today.isoformat()), ("later", "2999-12-31"))
    }
    with EmulatorServer(db=db) as server, emulator_http.client(base_url=server.base_url) as client:
        for created in made.values():
            headers = {"Authorization": f"Bearer {created.stdout.strip()}"}
            assert client.get(endpoints_path(), headers=headers).status_code == 200
    expiries = {t["name"]: t["expires_at"] for t in token_list(db)}
    end_of_today = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    assert expiries["today"] == end_of_today.timestamp()  # valid through the whole day, UTC
    assert expiries["later"] == 32503680000.0  # 3000-01-01T00:00:00Z


def test_revoke_by_id_and_errors(tmp_path):
    db = tmp_path / "emulator.db"
    cli("token", "create", "--db", str(db), "--user", "guest", "--name", "t1")
    token_id = next(t for t in token_list(db) if t["name"] == "t1")["id"]
    cli("token", "revoke", "--db", str(db), "--id", str(token_id))
    again = cli("token", "revoke", "--db", str(db), "--id", str(token_id), check=False)
    assert again.returncode == 2 and "no such active token" in again.stderr
    unknown = cli("token", "create", "--db", str(db), "--user", "nobody", "--name", "x", check=False)
    assert unknown.returncode == 2 and "User (nobody) was not found!" in unknown.stderr
    cli("token", "create", "--db", str(db), "--user", "guest", "--name", "t2")
    clash = cli("token", "create", "--db", str(db), "--user", "guest", "--name", "t2", check=False)
    assert clash.returncode == 2 and "already has a token named (t2)" in clash.stderr
    bad_date = cli(
        "token",
        "create",
        "--db",
        str(db),
        "--user",
        "guest",
        "--name",
        "t3",
        "--expires",
        "31/12/2030",
        check=False,
    )
    assert bad_date.returncode == 2
    memory = cli("token", "list", "--db", ":memory:", check=False)
    assert memory.returncode == 2


def test_revoke_by_user_and_name_leaves_other_users_tokens_of_that_name(tmp_path):
    db = tmp_path / "emulator.db"
    kept = cli("token", "create", "--db", str(db), "--user", "admin", "--name", "ci").stdout.strip()
    gone = cli("token", "create", "--db", str(db), "--user", "developer", "--name", "ci").stdout.strip()

    revoked = cli("token", "revoke", "--db", str(db), "--user", "developer", "--name", "ci")

    assert len(revoked.stdout.strip().splitlines()) == 1 and "developer" in revoked.stdout
    states = {t["username"]: t["revoked_at"] for t in token_list(db) if t["name"] == "ci"}
    assert states["developer"] is not None and states["admin"] is None
    with EmulatorServer(db=db) as server, emulator_http.client(base_url=server.base_url) as client:
        assert client.get(endpoints_path(), headers={"Authorization": f"Bearer {kept}"}).status_code == 200
        refused = client.get(endpoints_path(), headers={"Authorization": f"Bearer {gone}"})
        assert_error(refused, 401, "unauthorized_client", "Invalid token")


def test_access_tokens_are_listed_only_with_all(tmp_path):
    db = tmp_path / "emulator.db"
    with EmulatorServer(db=db) as server:
        emulator_http.post(
            f"{server.base_url}/apiops/auth/token",
            data={"grant_type": "client_credentials", "client_id": "admin", "client_secret": "admin"},
        )
    assert all(t["kind"] == "personal" for t in token_list(db))
    assert any(t["kind"] == "access" and t["username"] == "admin" for t in token_list(db, "--all"))
    table = cli("token", "list", "--db", str(db)).stdout
    assert "dev-admin" in table and "never" in table


def test_serve_prints_its_url_and_uses_the_given_fixture(tmp_path):
    fixture = tmp_path / "tiny.yaml"
    fixture.write_text(
        "users: [{username: u, password: p, roles: [ROLE_MANAGE_PROXIES]}]\n"
        "tokens: [{value: tiny-token, user: u, name: t}]\n"
        "projects: [{name: T, api_proxies: [{name: Only}]}]\n"
    )
    proc, url = start_subprocess(db=tmp_path / "t.db", fixtures=fixture)
    try:
        assert url.startswith("http://127.0.0.1:")
        body = emulator_http.get(
            f"{url}{endpoints_path(project='T', proxy='Only')}",
            headers={"Authorization": "Bearer tiny-token"},
        ).json()
        assert body == {"success": True, "resultList": [], "resultCount": 0}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("users: [{username: u}]\n", "password"),
        ("tokens: [{value: v, user: ghost, name: n}]\n", "unknown user 'ghost'"),
        ("projects: [{name: P, api_proxies: [{name: X, type: GRPC}]}]\n", "type"),
        ("users: [\n", "not valid YAML"),
        (
            "projects: [{name: P, api_proxies: [{name: X, endpoints: [{name: /a, http_method: GET},"
            " {name: /a, http_method: GET}]}]}]\n",
            "the fixture declares an object twice (UNIQUE constraint failed: endpoints.proxy_id",
        ),
        (
            "projects: [{name: P, rlcls: [{name: R, endpoint_rate_limit_list: [{apiProxyName: Ghost,"
            " endpointName: ALL, permittedMessageCount: 1, timeIntervalPeriodLength: 1,"
            " timeInterval: ONE_SECOND, cacheConnectionTimeoutInSeconds: 1, cacheErrorHandlingType: FAIL,"
            " timeIntervalWindowType: FIXED}]}]}]\n",
            "API Proxy with name (Ghost) is not found in project!",
        ),
    ],
)
def test_serve_refuses_a_bad_fixture_with_a_clear_message(tmp_path, content, message):
    fixture = tmp_path / "bad.yaml"
    fixture.write_text(content)
    result = cli("serve", "--db", ":memory:", "--port", "0", "--fixtures", str(fixture), check=False)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_python_dash_m_runs_the_cli():
    env = {**os.environ}
    result = subprocess.run(
        [sys.executable, "-m", "apinizer_emulator", "token", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0 and "create" in result.stdout


def test_version_is_the_package_metadata():
    import importlib.metadata

    import apinizer_pulumi

    version = importlib.metadata.version("apinizer-pulumi")
    assert cli("--version").stdout.strip() == f"apinizer-emulator {version}"
    assert apinizer_pulumi.__version__ == version


def test_serve_defaults_to_the_projects_one_port():
    assert "default 18080" in cli("serve", "--help").stdout


def test_a_date_expiry_lists_as_the_end_of_that_day_utc(tmp_path):
    db = tmp_path / "emulator.db"
    created = cli("token", "create", "--db", str(db), "--user", "developer", "--name", "ci",
                  "--expires", "2999-12-31")
    assert "expires 2999-12-31T23:59:59Z" in created.stderr
    (line,) = [line for line in cli("token", "list", "--db", str(db)).stdout.splitlines() if " ci " in line]
    assert "expires 2999-12-31T23:59:59Z" in line


@pytest.mark.parametrize("expires", ["2020-01-01", "1999-12-31"])
def test_a_past_expiry_date_is_refused(tmp_path, expires):
    db = tmp_path / "emulator.db"
    result = cli("token", "create", "--db", str(db), "--user", "developer", "--name", "ci",
                 "--expires", expires, check=False)
    assert result.returncode == 2
    assert f"--expires {expires} is in the past" in result.stderr
    assert result.stdout == ""
    assert "ci" not in {t["name"] for t in token_list(db)}


def test_an_expiry_that_is_not_a_date_is_refused(tmp_path):
    result = cli("token", "create", "--db", str(tmp_path / "e.db"), "--user", "developer", "--name", "ci",
                 "--expires", "next week", check=False)
    assert result.returncode == 2
    assert "'next week' is not a date of the form YYYY-MM-DD" in result.stderr
