"""The generator's parts without a gateway: names, rendering, parsing a program, drift, settings."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import (
    ApiProxyRecord,
    ConnectionSettingsError,
    EndpointRecord,
    GatewaySnapshot,
    NotOnGatewayError,
    Policies,
    ProxySnapshot,
    command_line,
    compare,
    compare_proxies,
    declared_endpoints,
    declared_proxies,
    read_gateway,
    render_program,
    resolve_connection,
    resource_name,
    resource_names,
    write_project,
)

from ._fake_gateway import FakeGateway, error

PETS = EndpointRecord("Demo", "PetStore", "/pets", "GET", "/pets", "GET", "List all pets", True)
PET = EndpointRecord("Demo", "PetStore", "/pets/{id}", "GET", "/pets/{id}", "GET", None, False)
ADD = EndpointRecord("Demo", "Calculator", "Add", "POST", "/calc.asmx", "POST", "Adds", True)


def snapshot(*records: EndpointRecord, policies: dict[tuple[str, str, str, str], Policies] | None = None
             ) -> GatewaySnapshot:
    proxies: dict[str, ProxySnapshot] = {}
    for record in records:
        proxies.setdefault(record.proxy, ProxySnapshot(record.proxy, [])).endpoints.append(record)
    for proxy in proxies.values():
        proxy.policies = {k: v for k, v in (policies or {}).items() if k[1] == proxy.name}
    return GatewaySnapshot("Demo", list(proxies.values()))


def test_resource_names_are_readable_and_stable() -> None:
    assert resource_name(PETS) == "demo-petstore-get-pets"
    assert resource_name(PET) == "demo-petstore-get-pets-id"
    assert resource_name(ADD) == "demo-calculator-post-add"


def test_colliding_names_get_a_hash_of_their_own_identity() -> None:
    braces = EndpointRecord("Demo", "PetStore", "/pets/{id}", "GET")
    plain = EndpointRecord("Demo", "PetStore", "/pets/id", "GET")
    names = resource_names([braces, plain, PETS])
    assert names[PETS.key] == "demo-petstore-get-pets"
    assert names[braces.key] != names[plain.key]
    assert names[braces.key].startswith("demo-petstore-get-pets-id-")
    # The suffix depends on the endpoint only, never on which others exist.
    assert resource_names([plain, braces])[braces.key] == names[braces.key]


def test_the_program_declares_every_endpoint_with_adopt_and_its_settings() -> None:
    program = render_program(snapshot(PETS, PET, ADD), command="apinizer-pulumi generate --project Demo")
    tree = ast.parse(program)
    calls = [n for n in ast.walk(tree)
             if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "Endpoint"]
    kwargs = [{kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg != "opts"}
              for call in calls]
    assert kwargs[1] == {
        "project_name": "Demo", "api_proxy_name": "PetStore", "name": "/pets/{id}", "http_method": "GET",
        "backend_resource_url": "/pets/{id}", "backend_http_method": "GET", "active": False, "adopt": True,
    }
    # Each adopted endpoint outlives `pulumi destroy`: it was on the gateway before Pulumi.
    options = [ast.unparse(kw.value) for call in calls for kw in call.keywords if kw.arg == "opts"]
    assert options == ["pulumi.ResourceOptions(retain_on_delete=True)"] * 3
    assert [ast.literal_eval(call.args[0]) for call in calls] == [
        "demo-petstore-get-pets", "demo-petstore-get-pets-id", "demo-calculator-post-add"
    ]
    assert program.count("# Not readable back: cache settings (EndpointCache), WS-Addressing") == 3
    assert "endpoints: dict[str, apinizer.Endpoint] = {" in program
    # The program round-trips through the parser --check uses.
    assert [d.record for d in declared_endpoints(program)] == [PETS, PET, ADD]


def test_no_retain_leaves_the_option_and_the_pulumi_import_out(tmp_path: Path) -> None:
    program = render_program(snapshot(PETS, ADD), command="apinizer-pulumi generate --no-retain",
                             retain=False)
    assert "retain_on_delete" not in program.replace("Generated with --no-retain", "")
    assert "opts=" not in program and "import pulumi" not in program
    assert "`pulumi destroy` deletes these endpoints from the gateway" in program
    assert [d.record for d in declared_endpoints(program)] == [PETS, ADD]
    path = tmp_path / "gateway.py"
    path.write_text(program)
    assert_ruff_clean(path)


def test_the_regenerate_command_keeps_no_retain() -> None:
    assert command_line("Demo", ["PetStore"]) == "apinizer-pulumi generate --project Demo --proxy PetStore"
    assert command_line("Demo", retain=False) == "apinizer-pulumi generate --project Demo --no-retain"


def test_policies_and_rlcl_templates_are_comments() -> None:
    policies = {PETS.key: Policies(request=("throttle",), error=("map-errors (inactive)",))}
    program = render_program(snapshot(PETS, policies=policies), command="c", rlcls=["Standard"])
    comments = " ".join(line.strip().removeprefix("# ") for line in program.splitlines() if "#" in line)
    expected = "Policies on the gateway (not managed here): request: throttle; error: map-errors (inactive)."
    assert expected in comments
    assert "# apinizer.RlclEndpoints(" in program and '#     rlcl_name="Standard",' in program
    code = [line for line in program.splitlines() if not line.lstrip().startswith("#")]
    assert not any("RlclEndpoints" in line for line in code)


def test_awkward_values_stay_valid_python_within_the_width() -> None:
    odd = EndpointRecord(
        "Demo", "PetStore", '/a "quoted"\\path\n', "GET", "https://x.example/" + "y" * 300, "GET",
        "ü" * 150 + " {braces} ' and \t tabs", True,
    )
    program = render_program(snapshot(odd), command="c")
    assert [d.record for d in declared_endpoints(program)] == [odd]
    assert max(len(line) for line in program.splitlines()) <= 100


def assert_formatted(path: Path) -> None:
    """``ruff format`` would leave the file as it is (at the generator's width)."""
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--isolated", "--line-length", "100", "--diff", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert formatted.returncode == 0, formatted.stdout


def assert_ruff_clean(path: Path) -> None:
    """``ruff check`` with this repository's rules, apinizer_pulumi taken as what it is in a user's
    project (an installed, third-party package), and ``ruff format`` leave the file as it is."""
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--config", str(root / "pyproject.toml"),
         "--config", "lint.isort.known-third-party = ['apinizer_pulumi']", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert_formatted(path)


def test_the_program_is_ruff_clean(tmp_path: Path) -> None:
    path = tmp_path / "gateway.py"
    path.write_text(render_program(snapshot(PETS, PET, ADD), command="c", rlcls=["Gold"]))
    assert_ruff_clean(path)


def test_an_empty_project_gives_a_formatted_empty_program(tmp_path: Path) -> None:
    path = tmp_path / "gateway.py"
    path.write_text(render_program(GatewaySnapshot("Demo", []), command="c"))
    assert "endpoints: dict[str, apinizer.Endpoint] = {}\n" in path.read_text()
    assert_formatted(path)


def test_compare_reports_undeclared_missing_and_changed() -> None:
    declared = declared_endpoints(
        render_program(snapshot(PETS, PET), command="c").replace('"List all pets"', '"Old text"')
    )
    toys = EndpointRecord("Demo", "PetStore", "/toys", "GET", "/toys", "GET")
    drift = compare(declared, [PETS, toys], "Demo", ["PetStore"])
    assert [r.name for r in drift.undeclared] == ["/toys"]
    assert [d.record.name for d in drift.missing] == ["/pets/{id}"]
    assert [(d.record.name, fields) for d, _, fields in drift.changed] == [("/pets", ["description"])]
    lines = drift.lines("gateway.py")
    assert lines[0] == "+ GET /toys in Demo/PetStore: on the gateway, not declared in gateway.py"
    assert lines[1].startswith("- GET /pets/{id} in Demo/PetStore: declared at gateway.py:")
    assert "    description: declared 'Old text', gateway has 'List all pets'" in lines


def test_compare_is_quiet_when_they_agree_and_skips_what_was_not_read() -> None:
    declared = declared_endpoints(render_program(snapshot(PETS, ADD), command="c"))
    assert not compare(declared, [PETS], "Demo", ["PetStore"])
    assert not compare(declared, [PETS], "Demo", ["PetStore"]).lines("p")


def test_a_hand_written_program_is_read_too() -> None:
    source = '''
import apinizer_pulumi as apinizer
from apinizer_pulumi import Endpoint

URL = "/pets"
apinizer.Endpoint("a", project_name="Demo", api_proxy_name="PetStore", name="/pets", http_method="get",
                  backend_resource_url=URL, backend_http_method="GET", description="")
Endpoint("b", project_name="Demo", api_proxy_name="PetStore", name=URL, http_method="POST")
'''
    (found,) = declared_endpoints(source)
    # Computed values are not compared; an empty description is none, as Endpoint reads it.
    assert found.record.key == ("Demo", "PetStore", "GET", "/pets")
    assert "backend_resource_url" not in found.given and found.record.description is None
    live = EndpointRecord("Demo", "PetStore", "/pets", "GET", "/elsewhere", "GET")
    assert not compare([found], [live], "Demo", ["PetStore"])


# -- connection -------------------------------------------------------------------------------


def stack_file(tmp_path: Path, config: dict[str, object]) -> Path:
    (tmp_path / "Pulumi.dev.yaml").write_text(yaml.safe_dump({"config": config}))
    return tmp_path


def test_flags_win_then_the_stack_then_the_environment(tmp_path: Path) -> None:
    stack_file(tmp_path, {"apinizer:url": "http://stack", "apinizer:token": "stack-token"})
    env = {"APINIZER_URL": "http://env", "APINIZER_TOKEN": "env-token"}
    flags: dict[str, str | None] = {"url": None, "token": None, "username": None, "password": None}
    assert resolve_connection(flags=flags, environ=env).token == "env-token"
    from_stack = resolve_connection(flags=flags, project_dir=tmp_path, stack="dev", environ=env)
    assert (from_stack.url, from_stack.token) == ("http://stack", "stack-token")
    both = resolve_connection(flags={**flags, "url": "http://flag"}, project_dir=tmp_path, stack="dev",
                              environ=env)
    assert (both.url, both.token) == ("http://flag", "stack-token")
    assert "stack-token" not in repr(both)


def test_credentials_come_from_one_source(tmp_path: Path) -> None:
    stack_file(tmp_path, {"apinizer:url": "http://stack", "apinizer:username": "u", "apinizer:password": "p"})
    flags: dict[str, str | None] = {"url": None, "token": None, "username": None, "password": None}
    env = {"APINIZER_TOKEN": "t"}
    found = resolve_connection(flags=flags, project_dir=tmp_path, stack="dev", environ=env)
    assert (found.token, found.username, found.password) == (None, "u", "p")


def test_an_encrypted_stack_value_is_named_as_unreadable(tmp_path: Path) -> None:
    stack_file(tmp_path, {"apinizer:url": "http://stack", "apinizer:token": {"secure": "v1:abc"}})
    flags: dict[str, str | None] = {"url": None, "token": None, "username": None, "password": None}
    with pytest.raises(ConnectionSettingsError) as info:
        resolve_connection(flags=flags, project_dir=tmp_path, stack="dev", environ={})
    assert str(info.value) == (
        "apinizer:token in Pulumi.dev.yaml is an encrypted secret, which this command cannot decrypt; "
        "set APINIZER_TOKEN (or pass --token) instead"
    )


@pytest.mark.parametrize(
    ("env", "missing"), [({}, "no gateway URL"), ({"APINIZER_URL": "http://x"}, "no credentials")]
)
def test_missing_settings_say_where_to_give_them(env: dict[str, str], missing: str) -> None:
    flags: dict[str, str | None] = {"url": None, "token": None, "username": None, "password": None}
    with pytest.raises(ConnectionSettingsError, match=missing):
        resolve_connection(flags=flags, environ=env)


def test_a_missing_stack_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConnectionSettingsError, match=r"Pulumi\.prod\.yaml does not exist"):
        resolve_connection(flags={}, project_dir=tmp_path, stack="prod", environ={})


# -- project ----------------------------------------------------------------------------------


def test_write_project_lays_out_a_pulumi_project(tmp_path: Path) -> None:
    config = {"apinizer:url": "http://x"}
    directory = write_project(tmp_path / "p", "print(1)\n", config=config, virtualenv="/v")
    assert (directory / "__main__.py").read_text() == "print(1)\n"
    project = yaml.safe_load((directory / "Pulumi.yaml").read_text())
    assert project["runtime"] == {"name": "python", "options": {"virtualenv": "/v"}}
    assert yaml.safe_load((directory / "Pulumi.dev.yaml").read_text()) == {"config": {"apinizer:url": "http://x"}}


def test_write_project_refuses_credentials_in_clear_text(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="apinizer:token"):
        write_project(tmp_path, "", config={"apinizer:token": "t"})
    assert not (tmp_path / "Pulumi.dev.yaml").exists()


# -- reading a large gateway --------------------------------------------------------------------


SHOP = {
    "name": "Shop", "description": "The shop",
    "deploymentList": [
        {"environmentName": "test", "deployed": True, "redeployRequired": False},
        {"environmentName": "production", "deployed": True, "redeployRequired": True},
        {"environmentName": "staging", "deployed": False, "redeployRequired": False},
    ],
}


def test_reading_a_large_proxy_without_a_policy_list_reports_progress(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    listing = {
        "success": True,
        "resultCount": 120,
        "resultList": [
            {"id": f"id{i}", "endpoint": f"/items/{i:03}", "description": "", "active": True,
             "httpMethod": "GET", "backendResourceUrl": f"/b/{i}", "backendHttpMethod": "GET"}
            for i in range(120)
        ],
    }
    path = "/apiops/projects/Big/apiProxies/Shop/endpoints/"
    gateway.script("GET", path, httpx.Response(200, json=listing))

    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/policies/", httpx.Response(200, json={
        "status": "SUCCESS", "resultCount": 1, "resultList": [{
            "name": "Shop", "requestPolicyList": [], "responsePolicyList": [], "errorPolicyList": [],
            "endpointList": [
                {"endpoint": item["endpoint"], "httpMethod": "GET", "requestPolicyList": [
                    {"type": "policy-header", "name": f"p{item['endpoint'][-3:]}", "active": True}]}
                for item in listing["resultList"]  # type: ignore[attr-defined]
            ]}]}))
    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/", httpx.Response(200, json=SHOP))
    # A gateway without the proxy's policy list: each endpoint's policies are read instead.
    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/policies/",
                   httpx.Response(404, json={"error": "not_found", "error_description": "Not Found"}))
    lines: list[str] = []

    snapshot = read_gateway(client, "Big", ["Shop"], progress=lines.append)

    # One list of the proxy's policies, not one request per endpoint.
    assert lines == [
        "[1/1] Big/Shop: 120 endpoint(s), deployed to production, test",
        "      Big/Shop: 0 policies",
    ]
    assert sum(1 for r in gateway.api_requests if r.url.path.endswith("/policies/")) == 1
    assert len(snapshot.endpoints) == 120 and snapshot.endpoints[0].description is None
    (shop,) = snapshot.proxies
    assert shop.policies[("Big", "Shop", "GET", "/items/007")] == Policies(request=("p007",))
    assert shop.proxy == ApiProxyRecord("Big", "Shop", "The shop", ("production", "test"))


def test_every_endpoints_policies_come_from_one_read_of_the_proxys_policy_list(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    listing = {"success": True, "resultList": [
        {"id": f"id{i}", "endpoint": f"/items/{i}", "httpMethod": "GET"} for i in range(300)]}
    path = "/apiops/projects/Big/apiProxies/Shop/"
    gateway.script("GET", path + "endpoints/", httpx.Response(200, json=listing))
    gateway.script("GET", path, httpx.Response(200, json=SHOP))
    policy_list = {"status": "SUCCESS", "resultCount": 1, "resultList": [{
        "name": "Shop", "type": "REST",
        "requestPolicyList": [{"type": "policy-script", "name": "everywhere", "active": True}],
        "endpointList": [
            {"endpoint": "/items/7", "httpMethod": "GET", "active": True,
             "requestPolicyList": [{"type": "policy-header", "name": "add-id", "active": True}],
             "errorPolicyList": [{"type": "policy-script", "active": False}]},
            {"endpoint": "/items/7", "httpMethod": "POST", "active": True,  # not on the gateway's list
             "requestPolicyList": [{"type": "policy-header", "name": "other", "active": True}]},
        ],
    }]}
    gateway.script("GET", path + "policies/", httpx.Response(200, json=policy_list))

    snapshot = read_gateway(client, "Big", ["Shop"])

    (shop,) = snapshot.proxies
    assert shop.policies == {
        ("Big", "Shop", "GET", "/items/7"):
            Policies(request=("add-id",), error=("policy-script (inactive)",)),
    }
    sent = [(request.method, request.url.path) for request in gateway.requests]
    assert not any(method == "POST" and url.endswith("/endpoints/policies/") for method, url in sent)
    assert sent.count(("GET", path + "policies/")) == 1


def test_a_proxy_and_its_deployments_cost_one_read_and_no_endpoint_read(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    listing = {"resultList": [{"id": f"id{i}", "endpoint": f"/items/{i}", "httpMethod": "GET"}
                              for i in range(30)]}
    path = "/apiops/projects/Big/apiProxies/Shop/endpoints/"
    gateway.script("GET", path, httpx.Response(200, json=listing))
    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/", httpx.Response(200, json=SHOP))

    snapshot = read_gateway(client, "Big", ["Shop"], with_policies=False)

    assert [(r.method, r.url.path) for r in gateway.api_requests] == [
        ("GET", "/apiops/projects/"),
        ("GET", "/apiops/projects/Big/apiProxies/Shop/endpoints/"),
        ("GET", "/apiops/projects/Big/apiProxies/Shop/"),
        ("GET", "/apiops/projects/Big/credentials/"),  # the project's credentials: one list (none here)
    ]
    assert snapshot.api_proxies == [ApiProxyRecord("Big", "Shop", "The shop", ("production", "test"))]


def test_a_gateway_without_the_proxy_read_gives_endpoints_only(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/endpoints/",
                   httpx.Response(200, json={"resultList": []}))
    gateway.script("GET", "/apiops/projects/Big/apiProxies/Shop/",
                   error(404, "not_found", "No route for GET /apiops/projects/Big/apiProxies/Shop/"))

    snapshot = read_gateway(client, "Big", ["Shop"])

    assert [p.name for p in snapshot.proxies] == ["Shop"] and snapshot.api_proxies == []
    assert "ApiProxy(" not in render_program(snapshot, command="c")


SHOP_RECORD = ApiProxyRecord("Demo", "Shop", "The shop", ("production", "test"))


def proxy_snapshot(*records: ApiProxyRecord) -> GatewaySnapshot:
    return GatewaySnapshot("Demo", [ProxySnapshot(r.name, [], proxy=r) for r in records])


def test_the_program_adopts_each_proxy_without_a_spec_and_each_deployment() -> None:
    program = render_program(proxy_snapshot(SHOP_RECORD), command="apinizer-pulumi generate --project Demo")
    tree = ast.parse(program)

    def calls(kind: str) -> list[ast.Call]:
        return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == kind]

    (proxy,) = calls("ApiProxy")
    assert [ast.literal_eval(a) for a in proxy.args] == ["demo-shop"]
    kwargs = {kw.arg: ast.unparse(kw.value) for kw in proxy.keywords}
    assert kwargs == {"project_name": "'Demo'", "name": "'Shop'", "description": "'The shop'",
                      "adopt": "True", "opts": "pulumi.ResourceOptions(retain_on_delete=True)"}
    deployments = calls("ApiProxyDeployment")
    assert [ast.literal_eval(d.args[0]) for d in deployments] == ["demo-shop-production", "demo-shop-test"]
    for deployment in deployments:
        kwargs = {kw.arg: ast.unparse(kw.value) for kw in deployment.keywords}
        assert kwargs["api_proxy_name"] == "api_proxies['demo-shop'].name"
        assert kwargs["opts"] == "pulumi.ResourceOptions(retain_on_delete=True)"
    without = render_program(proxy_snapshot(SHOP_RECORD), command="c", retain=False)
    assert "retain_on_delete" not in without and "ApiProxyDeployment(" in without
    # The generated module is valid, ruff-clean Python.
    compile(program, "generated.py", "exec")


def test_check_reads_the_generated_proxies_and_finds_their_drift() -> None:
    program = render_program(proxy_snapshot(SHOP_RECORD), command="c")
    declared = declared_proxies(program)
    assert [(d.record, sorted(d.deployments)) for d in declared] == [
        (ApiProxyRecord("Demo", "Shop", "The shop"), ["production", "test"])
    ]
    assert not compare_proxies(declared, [SHOP_RECORD], "Demo", ["Shop"])

    # Undeployed from production in the console, described anew, and a proxy made in the console.
    other = ApiProxyRecord("Demo", "Billing")
    live = [ApiProxyRecord("Demo", "Shop", "New words", ("test",)), other]
    drift = compare_proxies(declared, live, "Demo", ["Shop", "Billing"])
    production_line = declared[0].deployments["production"]
    assert drift.lines("p.py") == [
        "+ API proxy Demo/Billing: on the gateway, not declared in p.py",
        f"~ API proxy Demo/Shop (p.py:{declared[0].line}):",
        "    description: declared 'The shop', gateway has 'New words'",
        f"- API proxy Demo/Shop deployed to production: declared at p.py:{production_line}, not deployed",
    ]
    # Gone from the gateway: declared, not there.
    assert [item.record.name for item in compare_proxies(declared, [], "Demo", ["Shop"]).missing] == ["Shop"]


# -- a project that is not there ----------------------------------------------------------------

PROJECTS = {"status": "SUCCESS", "resultList": [{"name": "Payments", "description": ""},
                                                {"name": "Demo", "description": "d"}], "resultCount": 2}
NOT_FOUND = {"error": "not_found", "error_description": "ApiProxy (name: PetStore) was not found!"}


def test_a_project_in_the_wrong_case_is_named_with_its_right_spelling(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", "/apiops/projects/", httpx.Response(200, json=PROJECTS))
    with pytest.raises(NotOnGatewayError) as caught:
        read_gateway(client, "demo", ["PetStore"])
    assert str(caught.value) == (
        "project demo does not exist (or this account cannot see it); did you mean Demo? "
        "Projects this account can see: Demo, Payments"
    )
    # Known missing before any proxy is read.
    assert [r.url.path for r in gateway.api_requests] == ["/apiops/projects/"]


def test_an_unknown_project_lists_the_known_ones(gateway: FakeGateway, client: ApinizerClient) -> None:
    many = {"resultList": [{"name": f"P{i:02}"} for i in range(25)]}
    gateway.script("GET", "/apiops/projects/", httpx.Response(200, json=many))
    with pytest.raises(NotOnGatewayError, match=r"^project Nope does not exist \(or this account cannot "
                       r"see it\)\. Projects this account can see: P00, P01, .*, P19 and 5 more$"):
        read_gateway(client, "Nope", [], skip_missing=True)


def test_without_a_project_list_a_missing_proxy_names_the_project_too(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    # A gateway that does not list projects (or not to this account): the proxy's 404 is all there is.
    gateway.script("GET", "/apiops/projects/", error(404, "not_found", "No route for GET /apiops/projects/"))
    gateway.script("GET", "/apiops/projects/demo/apiProxies/PetStore/endpoints/",
                   httpx.Response(404, json=NOT_FOUND))
    with pytest.raises(NotOnGatewayError) as caught:
        read_gateway(client, "demo", ["PetStore"])
    assert str(caught.value) == (
        "project demo has no API proxy PetStore (the gateway answered 404 ApiProxy (name: PetStore) was "
        "not found!); check the project's name and the proxy's, case included"
    )


@pytest.mark.parametrize("listing", [error(403, "access_denied", "Forbidden"), httpx.Response(200, json={})])
def test_without_a_project_list_no_proxy_found_is_an_error_not_an_empty_program(
    gateway: FakeGateway, client: ApinizerClient, listing: httpx.Response
) -> None:
    gateway.script("GET", "/apiops/projects/", listing)
    for proxy in ("PetStore", "Calculator"):
        gateway.script("GET", f"/apiops/projects/demo/apiProxies/{proxy}/endpoints/",
                       httpx.Response(404, json=NOT_FOUND))
    with pytest.raises(NotOnGatewayError, match=r"^project demo holds none of the 2 API proxies looked for "
                       r"\(PetStore, Calculator\); check the project's name, case included, or name"):
        read_gateway(client, "demo", ["PetStore", "Calculator"], skip_missing=True)


def test_a_listed_project_without_the_reports_proxies_is_an_empty_program(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", "/apiops/projects/", httpx.Response(200, json=PROJECTS))
    gateway.script("GET", "/apiops/projects/Payments/apiProxies/PetStore/endpoints/",
                   httpx.Response(404, json=NOT_FOUND))
    snapshot = read_gateway(client, "Payments", ["PetStore"], skip_missing=True)
    assert (snapshot.proxies, snapshot.missing) == ([], ["PetStore"])
