"""What importing each layer pulls in: the layers stay one-directional and light."""

from __future__ import annotations

import subprocess
import sys

import pytest


def modules_loaded_by(statement: str) -> set[str]:
    code = f"{statement}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {line.split(".")[0] for line in result.stdout.splitlines()}


@pytest.mark.parametrize(
    "statement",
    ["import apinizer_pulumi.models", "import apinizer_pulumi.client", "import apinizer_emulator.app"],
)
def test_models_client_and_emulator_do_not_load_the_pulumi_sdk(statement: str) -> None:
    loaded = modules_loaded_by(statement)
    assert "pulumi" not in loaded
    assert "grpc" not in loaded


def test_the_pulumi_surface_never_loads_a_web_framework() -> None:
    loaded = modules_loaded_by("import apinizer_pulumi as a\na.Endpoint, a.get_endpoints, a.RlclEndpoints")
    assert "pulumi" in loaded
    assert not loaded & {"fastapi", "starlette", "uvicorn", "apinizer_emulator"}


def test_public_names_resolve_and_unknown_ones_fail() -> None:
    import apinizer_pulumi

    for name in apinizer_pulumi.__all__:
        assert getattr(apinizer_pulumi, name) is not None
        assert name in dir(apinizer_pulumi)
    assert apinizer_pulumi.Endpoint.__module__ == "apinizer_pulumi.resources.endpoint"
    with pytest.raises(AttributeError, match="no attribute 'Endpont'"):
        _ = apinizer_pulumi.Endpont  # type: ignore[attr-defined]


def test_dir_lists_only_the_public_api() -> None:
    code = "import apinizer_pulumi as a\nprint('\\n'.join(dir(a)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    import apinizer_pulumi

    assert result.stdout.split() == sorted(apinizer_pulumi.__all__)
    assert not {"Any", "TYPE_CHECKING", "annotations", "importlib"} & set(result.stdout.split())


def test_the_version_is_the_distribution_metadata() -> None:
    import importlib.metadata

    import apinizer_pulumi

    assert apinizer_pulumi.__version__ == importlib.metadata.version("apinizer-pulumi")
    assert apinizer_pulumi.client is importlib.import_module("apinizer_pulumi.client")


# Pulumi state records each provider by module path and class name (dill pickles them by
# reference): these are a contract with every user's stacks, listed in docs/limits.md.
RECORDED_PROVIDERS = [
    ("apinizer_pulumi.resources.endpoint", "EndpointProvider"),
    ("apinizer_pulumi.resources.endpoint_cache", "EndpointCacheProvider"),
    ("apinizer_pulumi.resources.endpoint_wsa", "EndpointWsaProvider"),
    ("apinizer_pulumi.resources.rlcl", "RlclProvider"),
    ("apinizer_pulumi.resources.rlcl_endpoints", "RlclEndpointsProvider"),
    ("apinizer_pulumi.resources.api_proxy", "ApiProxyProvider"),
    ("apinizer_pulumi.resources.api_proxy_deployment", "ApiProxyDeploymentProvider"),
    ("apinizer_pulumi.resources.ip_group", "IpGroupProvider"),
    ("apinizer_pulumi.resources.environment_variable", "EnvironmentVariableProvider"),
    ("apinizer_pulumi.resources.environment_variable_value", "EnvironmentVariableValueProvider"),
    ("apinizer_pulumi.resources.policy", "PolicyProvider"),
    ("apinizer_pulumi.resources.api_proxy_group", "ApiProxyGroupProvider"),
    ("apinizer_pulumi.resources.api_proxy_group_deployment", "ApiProxyGroupDeploymentProvider"),
    ("apinizer_pulumi.resources.rlcl_credentials", "RlclCredentialsProvider"),
    ("apinizer_pulumi.resources.rlcl_condition", "RlclConditionProvider"),
]
# Credentials and their access.
RECORDED_PROVIDERS.append(("apinizer_pulumi.resources.credential", "CredentialProvider"))
# JWKs.
RECORDED_PROVIDERS.append(("apinizer_pulumi.resources.jwk", "JwkProvider"))
# Keystores and crypto keys.
RECORDED_PROVIDERS += [("apinizer_pulumi.resources.keystore", "KeystoreProvider"),
                       ("apinizer_pulumi.resources.crypto_key", "CryptoKeyProvider")]


@pytest.mark.parametrize(("module", "name"), RECORDED_PROVIDERS, ids=[n for _, n in RECORDED_PROVIDERS])
def test_recorded_provider_paths_resolve_to_the_class_that_pickles_under_them(module: str, name: str) -> None:
    import importlib
    import pickle

    provider_class = getattr(importlib.import_module(module), name)
    assert (provider_class.__module__, provider_class.__qualname__) == (module, name)
    assert f"{module}\n{name}".encode() in pickle.dumps(provider_class, protocol=0)


def test_the_docs_list_every_recorded_provider() -> None:
    from pathlib import Path

    limits = (Path(__file__).parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")
    for module, name in RECORDED_PROVIDERS:
        assert f"{module.rsplit('.', 1)[1]}.{name}" in limits, name


def test_every_public_resources_module_but_two_is_one_kind_as_the_package_says() -> None:
    # resources/__init__.py's docstring: each public module holds <Kind> and <Kind>Provider, exported.
    import pkgutil

    import pulumi.dynamic as dyn

    import apinizer_pulumi.resources as resources

    homes: dict[str, str] = resources._HOMES  # type: ignore[attr-defined]
    kinds = sorted(info.name for info in pkgutil.iter_modules(resources.__path__)
                   if not info.name.startswith("_") and info.name not in {"functions", "testing"})
    assert len(kinds) >= 20
    for module_name in kinds:
        module = __import__(f"apinizer_pulumi.resources.{module_name}", fromlist=["_"])
        declared = [value for value in vars(module).values() if isinstance(value, type)
                    and issubclass(value, dyn.Resource) and value.__module__ == module.__name__]
        assert len(declared) == 1, (module_name, declared)
        (kind,) = declared
        assert issubclass(getattr(module, f"{kind.__name__}Provider"), dyn.ResourceProvider), module_name
        assert homes[kind.__name__] == homes[f"{kind.__name__}Provider"] == module_name
