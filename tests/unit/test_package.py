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
