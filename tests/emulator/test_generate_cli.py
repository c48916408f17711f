"""``apinizer-pulumi generate`` against the live emulator: the program, --check, settings, progress."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import declared_endpoints, declared_proxies
from apinizer_pulumi.generate.cli import main

from .conftest import Api, new_endpoint

ALL_PROXIES = ["--proxy", "PetStore", "--proxy", "Orders", "--proxy", "Calculator"]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, emulator_url: str, admin_token: str) -> None:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("APINIZER_URL", emulator_url)
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)


def test_generate_writes_every_endpoint_and_reports_progress(env, tmp_path: Path, capsys, admin_token: str):
    out = tmp_path / "infra" / "gateway.py"
    assert main(["generate", "--project", "Demo", *ALL_PROXIES, "--out", str(out)]) == 0
    program = out.read_text()
    keys = sorted(d.record.key[1:] for d in declared_endpoints(program))
    assert keys == [
        ("Calculator", "POST", "Add"), ("Calculator", "POST", "Subtract"), ("Orders", "GET", "/orders"),
        ("PetStore", "GET", "/pets"), ("PetStore", "GET", "/pets/{id}"), ("PetStore", "POST", "/pets"),
    ]
    assert "request: throttle-list, add-correlation-id" in program
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "url from environment, credentials from environment"
    assert "[1/3] Demo/PetStore: 3 endpoint(s)" in err and "wrote 6 endpoints of 3 proxies" in err
    assert admin_token not in program and admin_token not in err


def test_without_proxies_every_proxy_of_the_project_is_read(env, capsys):
    assert main(["generate", "--project", "Demo", "--quiet"]) == 0
    captured = capsys.readouterr()
    proxies = {d.record.proxy for d in declared_endpoints(captured.out)}
    # Orders is shared internally only: the project's proxy list names it all the same.
    assert proxies == {"PetStore", "Orders", "Calculator"}
    assert captured.err == ""


def test_without_proxies_a_developer_token_reads_the_project(env, monkeypatch, capsys, developer_token):
    # The project's proxy list needs ROLE_MANAGE_PROXIES, not the system roles the report needs.
    monkeypatch.setenv("APINIZER_TOKEN", developer_token)
    assert main(["generate", "--project", "Demo"]) == 0
    captured = capsys.readouterr()
    assert {d.record.proxy for d in declared_endpoints(captured.out)} == {"PetStore", "Orders", "Calculator"}
    assert "organization access report" not in captured.err
    assert "listing the API proxies of project Demo" in captured.err
    assert developer_token not in captured.err + captured.out


def test_check_passes_then_finds_drift(env, tmp_path: Path, capsys, api: Api, emulator_url: str):
    out = tmp_path / "gateway.py"
    assert main(["generate", "--project", "Demo", *ALL_PROXIES, "--out", str(out), "--quiet"]) == 0
    assert main(["generate", "--project", "Demo", "--check", "--out", str(out)]) == 0
    assert "no drift" in capsys.readouterr().err

    # Made outside code: a new endpoint, a changed description, a disabled endpoint.
    assert api.create(new_endpoint("/toys")).status_code == 200
    with ApinizerClient(emulator_url, token=api.token) as client:
        client.endpoints.update("Demo", "PetStore", "/pets", "GET", description="Changed in the console")
        client.endpoints.set_status("Demo", "Orders", "/orders", "GET", False)

    assert main(["generate", "--project", "Demo", "--check", "--out", str(out), "--quiet"]) == 1
    report = capsys.readouterr().out.splitlines()
    assert report[0] == f"drift between {out} and the gateway (project Demo):"
    assert f"+ GET /toys in Demo/PetStore: on the gateway, not declared in {out}" in report
    assert "    description: declared 'List all pets', gateway has 'Changed in the console'" in report
    assert "    active: declared True, gateway has False" in report
    assert report[-1].startswith("regenerate with: apinizer-pulumi generate --project Demo")


def test_generate_adopts_the_proxies_and_their_deployments_with_one_read_each(
    env, tmp_path: Path, capsys, emulator_url: str, admin_token: str
):
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.api_proxies.deploy("Demo", "PetStore", "test")
        client.api_proxies.deploy("Demo", "PetStore", "production")
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
    out = tmp_path / "gateway.py"

    assert main(["generate", "--project", "Demo", *ALL_PROXIES, "--out", str(out), "--no-policies"]) == 0

    proxies = {d.record.name: d for d in declared_proxies(out.read_text())}
    assert sorted(proxies) == ["Calculator", "Orders", "PetStore"]
    assert sorted(proxies["PetStore"].deployments) == ["production", "test"]
    assert proxies["Orders"].deployments == {}
    # No spec: the generated ApiProxy takes the proxy over as it is.
    calls = [line for line in out.read_text().splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in calls if "spec_" in line]
    assert "wrote 6 endpoints of 3 proxies, 3 API proxies and 2 deployments" in capsys.readouterr().err
    # One read of each proxy (its deployments included) and its endpoint list; nothing per endpoint.
    requests = emulator_http.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
    assert requests == {
        "GET /apiops/projects/": 1,
        "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/": 3,
        "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/": 3,
        # The project's environment variables (none in the default fixture): one list.
        "GET /apiops/projects/{projectName}/environmentVariables/": 1,
        "GET /apiops/projects/{projectName}/credentials/": 1,  # the project's credentials (none)
        # The project's API proxy groups (none here: no environments list per group).
        "GET /apiops/projects/{projectName}/apiProxyGroups/": 1,
        "GET /apiops/projects/{projectName}/jwks/": 1,  # the project's JWKs (none: no get per JWK)
        # The project's keystores and crypto keys (none): one list each.
        "GET /apiops/projects/{projectName}/keystores/": 1,
        "GET /apiops/projects/{projectName}/keys/": 1,
        # The project's connections: the API lists one type at a time (none here: no get of one).
        "GET /apiops/projects/{projectName}/connections/": 14,
        # The project's certificates (none: no export).
        "GET /apiops/projects/{projectName}/certificates/": 1,
    }

    # --check: no drift, then an undeploy and a new proxy made in the console.
    assert main(["generate", "--project", "Demo", "--check", "--out", str(out), "--quiet"]) == 0
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.api_proxies.undeploy("Demo", "PetStore", "production")
        client.api_proxies.deploy("Demo", "Orders", "test")
    capsys.readouterr()
    assert main(["generate", "--project", "Demo", "--check", "--out", str(out), "--quiet"]) == 1
    report = capsys.readouterr().out.splitlines()
    line = proxies["PetStore"].deployments["production"]
    where = f"declared at {out}:{line}, not deployed"
    assert f"- API proxy Demo/PetStore deployed to production: {where}" in report
    assert f"+ API proxy Demo/Orders deployed to test: no ApiProxyDeployment in {out} declares it" in report


def test_check_sees_a_declared_endpoint_gone(env, tmp_path: Path, capsys, api: Api, emulator_url: str):
    out = tmp_path / "gateway.py"
    main(["generate", "--project", "Demo", "--proxy", "PetStore", "--out", str(out), "--quiet"])
    with ApinizerClient(emulator_url, token=api.token) as client:
        client.endpoints.delete("Demo", "PetStore", "/pets", "POST")
    assert main(["generate", "--project", "Demo", "--check", "--out", str(out), "--quiet"]) == 1
    assert any(line.startswith("- POST /pets in Demo/PetStore: declared at") for line in
               capsys.readouterr().out.splitlines())


def test_the_stack_config_gives_the_connection(
    tmp_path: Path, monkeypatch, capsys, emulator_url, admin_token
):
    for name in ("APINIZER_URL", "APINIZER_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token}
    (tmp_path / "Pulumi.dev.yaml").write_text(yaml.safe_dump({"config": config}))
    args = ["generate", "--project", "Demo", "--proxy", "Orders", "--quiet", "--project-dir", str(tmp_path)]
    assert main([*args, "--stack", "dev", "--url", emulator_url]) == 0
    assert '"/orders"' in capsys.readouterr().out
    assert main([*args[:-3], "--stack", "dev", "--project-dir", str(tmp_path)]) == 0
    first_line = capsys.readouterr().err.splitlines()[0]
    assert first_line == "url from Pulumi.dev.yaml, credentials from Pulumi.dev.yaml"

    config["apinizer:token"] = {"secure": "v1:AAAA"}  # type: ignore[assignment]
    (tmp_path / "Pulumi.dev.yaml").write_text(yaml.safe_dump({"config": config}))
    assert main([*args, "--stack", "dev"]) == 2
    assert "apinizer:token in Pulumi.dev.yaml is an encrypted secret" in capsys.readouterr().err


def test_gateway_errors_are_one_line_and_exit_2(env, capsys):
    assert main(["generate", "--project", "Demo", "--proxy", "Nope", "--quiet"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("apinizer-pulumi generate: project Demo has no API proxy Nope (")
    assert "404 ApiProxy (name: Nope) was not found!" in line and "case included" in line


def projects_listed(url: str, token: str) -> bool:
    """Whether the gateway answers the documented list of projects (the emulator may not yet)."""
    listed = emulator_http.get(f"{url}/apiops/projects/", headers={"Authorization": f"Bearer {token}"})
    return listed.is_success


@pytest.mark.parametrize("proxies", [[], ["--proxy", "PetStore"]], ids=["report", "named-proxy"])
def test_a_project_in_the_wrong_case_exits_2_naming_it(
    env, tmp_path: Path, emulator_url: str, admin_token: str, proxies
):
    """Not "wrote 0 endpoints": one line that names the project, exit 2, no file written."""
    out = tmp_path / "gateway.py"
    result = run_console_script("generate", "--project", "demo", *proxies, "--out", str(out))
    assert result.returncode == 2, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("apinizer-pulumi generate: project demo "), result.stderr
    assert "wrote" not in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()
    if projects_listed(emulator_url, admin_token):
        assert "did you mean Demo?" in last
    else:
        assert "check the project's name" in last and "case included" in last


def test_a_project_that_does_not_exist_exits_2(env, capsys, tmp_path: Path):
    assert main(["generate", "--project", "Nowhere", "--quiet"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("apinizer-pulumi generate: project Nowhere ")
    program = tmp_path / "gateway.py"
    program.write_text("")
    assert main(["generate", "--project", "Nowhere", "--check", "--out", str(program), "--quiet"]) == 2
    assert capsys.readouterr().err.startswith("apinizer-pulumi generate: project Nowhere ")


def test_check_needs_out(env, capsys):
    assert main(["generate", "--project", "Demo", "--check"]) == 2
    assert "--check needs --out" in capsys.readouterr().err


def run_console_script(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("apinizer-pulumi")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, check=False, env=dict(os.environ), timeout=60
    )


def test_no_retain_leaves_retain_on_delete_out(env, tmp_path: Path, api: Api, capsys):
    kept, deleted = tmp_path / "kept.py", tmp_path / "deleted.py"
    assert main(["generate", "--project", "Demo", "--proxy", "PetStore", "--out", str(kept), "--quiet"]) == 0
    assert main(["generate", "--project", "Demo", "--proxy", "PetStore", "--out", str(deleted), "--quiet",
                 "--no-retain"]) == 0
    # Three endpoints and the proxy itself (not deployed: no deployment).
    assert kept.read_text().count("opts=pulumi.ResourceOptions(retain_on_delete=True),") == 4
    assert "opts=" not in deleted.read_text()
    assert "apinizer-pulumi generate --project Demo --proxy PetStore --no-retain" in deleted.read_text()
    # --check's "regenerate with" keeps the choice the program was written with.
    assert api.create(new_endpoint("/toys")).status_code == 200
    for program, flag in ((kept, ""), (deleted, " --no-retain")):
        assert main(["generate", "--project", "Demo", "--check", "--out", str(program), "--quiet"]) == 1
        last = capsys.readouterr().out.splitlines()[-1]
        assert last == f"regenerate with: apinizer-pulumi generate --project Demo{flag} --out {program}"


def test_version_is_the_installed_distributions(env):
    result = run_console_script("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"apinizer-pulumi {importlib.metadata.version('apinizer-pulumi')}\n"


def test_the_console_script_is_installed(env, tmp_path: Path):
    result = run_console_script("generate", "--project", "Demo", "--proxy", "Orders")
    assert result.returncode == 0, result.stderr
    assert '"demo-orders-get-orders": apinizer.Endpoint(' in result.stdout
    assert "[1/1] Demo/Orders: 1 endpoint(s)" in result.stderr
