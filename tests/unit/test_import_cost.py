"""What a Pulumi program pays to import the resources: modules counted, never timed."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("httpx", "pydantic", "apinizer_pulumi.client", "apinizer_pulumi.models",
         "apinizer_pulumi.resources._reads")
HTTPX_CLI = ("click", "pygments", "rich", "httpx._main")


def loaded_after(statement: str, names: tuple[str, ...]) -> list[str]:
    code = (f"import json, sys\n{statement}\n"
            f"print(json.dumps([n for n in {list(names)!r} if n in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_declaring_an_endpoint_imports_no_client_models_pydantic_or_httpx() -> None:
    assert loaded_after("from apinizer_pulumi import Endpoint", HEAVY) == []
    assert loaded_after("import apinizer_pulumi as apinizer; apinizer.Endpoint", HEAVY) == []


def test_declaring_an_endpoint_imports_no_other_resource_kind() -> None:
    others = ("apinizer_pulumi.resources.endpoint_cache", "apinizer_pulumi.resources.endpoint_wsa",
              "apinizer_pulumi.resources.rlcl_endpoints", "apinizer_pulumi.resources.functions")
    assert loaded_after("from apinizer_pulumi import Endpoint", others) == []


def test_the_client_imports_httpx_without_its_command_line() -> None:
    assert loaded_after("import apinizer_pulumi.client", HTTPX_CLI) == []
    assert loaded_after("from apinizer_pulumi.client import ApinizerClient", ("httpx",)) == ["httpx"]


def test_the_provider_still_loads_everything_it_needs_on_first_use() -> None:
    statement = ("from apinizer_pulumi.resources.endpoint import EndpointProvider\n"
                 "EndpointProvider.inputs_model.model_validate({'project_name': 'P', 'api_proxy_name': 'A',"
                 " 'name': '/n', 'http_method': 'GET', 'backend_resource_url': '/b',"
                 " 'backend_http_method': 'GET'})")
    needed = ["pydantic", "apinizer_pulumi.models"]
    assert loaded_after(statement, tuple(needed)) == needed


#: What an endpoint's provider process never needs: the policy types, API proxies, credentials.
OTHER_MODELS = ("apinizer_pulumi.models._policy_registry", "apinizer_pulumi.models._policy_security",
                "apinizer_pulumi.models._policy_traffic", "apinizer_pulumi.models._policy_message",
                "apinizer_pulumi.models._api_proxy", "apinizer_pulumi.models._credential")


def test_an_endpoint_provider_builds_only_the_models_it_uses() -> None:
    statement = ("from apinizer_pulumi.resources.endpoint import EndpointProvider\n"
                 "import apinizer_pulumi.resources._reads, apinizer_pulumi.client\n"
                 "EndpointProvider.inputs_model.model_validate({'project_name': 'P', 'api_proxy_name': 'A',"
                 " 'name': '/n', 'http_method': 'GET', 'backend_resource_url': '/b',"
                 " 'backend_http_method': 'GET'})")
    assert loaded_after(statement, OTHER_MODELS) == []


def test_importing_the_models_package_imports_none_of_its_modules() -> None:
    modules = ("apinizer_pulumi.models._endpoint", "pydantic")
    assert loaded_after("import apinizer_pulumi.models", modules) == []


#: What the spec parser needs only once it parses: a provider process that never reads a spec, and the
#: emulator's start, never load them.
SPEC_LIBRARIES = ("yaml", "openapi_spec_validator", "jsonschema_path", "referencing", "defusedxml")


def test_the_spec_parser_imports_its_libraries_only_when_it_parses() -> None:
    assert loaded_after("from apinizer_pulumi.models import parse_spec, SpecError", SPEC_LIBRARIES) == []
    parsed = ("from apinizer_pulumi.models import parse_spec\n"
              "parse_spec('OPEN_API', b'openapi: 3.0.3\\ninfo: {title: t, version: \"1\"}\\npaths: {}\\n')")
    assert loaded_after(parsed, SPEC_LIBRARIES) == list(SPEC_LIBRARIES[:4])


def test_every_public_model_name_resolves_on_first_use_and_stays() -> None:
    import apinizer_pulumi.models as models
    from apinizer_pulumi.models._policy_security import OidcPolicy

    assert models.OidcPolicy is OidcPolicy
    assert "OidcPolicy" in vars(models)  # kept like an import keeps it
    missing = [name for name in models.__all__ if not hasattr(models, name)]
    assert missing == []
    assert set(models.__all__) <= set(dir(models))


def test_a_name_the_models_package_does_not_declare_is_an_attribute_error() -> None:
    import apinizer_pulumi.models as models

    try:
        models.NoSuchModel  # noqa: B018
    except AttributeError as error:
        assert "NoSuchModel" in str(error)
    else:
        raise AssertionError("an unknown name resolved")


def test_a_delete_through_the_client_imports_no_model() -> None:
    """A token fetched with a password, then a delete: no model is built, so pydantic is never imported."""
    statement = (
        "import httpx\n"
        "from apinizer_pulumi.client import ApinizerClient\n"
        "def answer(request):\n"
        "    if request.url.path.endswith('/auth/token'):\n"
        "        token = {'access_token': 't', 'token_type': 'Bearer', 'expires_in': 60}\n"
        "        return httpx.Response(200, json=token)\n"
        "    assert request.headers['authorization'] == 'Bearer t'\n"
        "    return httpx.Response(200, json={'success': True})\n"
        "with ApinizerClient('http://gateway.test', username='u', password='p',"
        " transport=httpx.MockTransport(answer)) as client:\n"
        "    client.endpoints.delete('Demo', 'PetStore', '/pets', 'GET')"
    )
    models = ("pydantic", "pydantic_core", "apinizer_pulumi.models._base", "apinizer_pulumi.models._auth",
              "apinizer_pulumi.models._endpoint")
    assert loaded_after(statement, models) == []
