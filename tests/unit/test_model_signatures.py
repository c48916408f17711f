"""What type checkers and introspecting IDEs show of the models: the snake_case keywords the docs
write, never the API's camelCase aliases (which ``model_validate`` of the API's JSON still takes)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

import apinizer_pulumi.models as models
from apinizer_pulumi.models import EndpointSpec, HttpMethod, HttpMethodName

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent(
    """
    from apinizer_pulumi.models import EndpointSpec, HttpMethod

    as_in_the_docs = EndpointSpec(
        name="/owners", http_method="GET", backend_resource_url="/v1/owners", backend_http_method="GET",
    )
    with_the_enum = EndpointSpec(
        name="/owners", description=None, http_method=HttpMethod.POST,
        backend_resource_url="/v1/owners", backend_http_method=HttpMethod.POST,
    )
    reveal_type(EndpointSpec.__init__)
    unknown_method = EndpointSpec(
        name="/a", http_method="FETCH", backend_resource_url="/b", backend_http_method="GET",
    )
    camel_case = EndpointSpec(
        name="/a", httpMethod="GET", backend_resource_url="/b", backend_http_method="GET",
    )
    """
)


@pytest.mark.parametrize(
    "config",
    [["--config-file", "/dev/null"], ["--config-file", str(ROOT / "pyproject.toml")]],
    ids=["a-user-project-without-the-pydantic-plugin", "this-project-with-the-pydantic-plugin"],
)
def test_endpoint_spec_type_checks_with_snake_case_keywords(config: list[str], tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    # A cache of its own per configuration (git-ignored), kept between runs as the project's is: a cold
    # one made each mypy run analyse pydantic and the models again, 10 s of CPU and more each.
    variant = "with-plugin" if config[-1].endswith("pyproject.toml") else "plain"
    cache = ROOT / ".mypy_cache" / "model-signatures" / variant
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            *config,
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            "--hide-error-context",
            program.name,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    lines = [
        line.split(": ", 1)[1] for line in result.stdout.splitlines() if line.startswith(f"{program.name}:")
    ]
    revealed = next(line for line in lines if line.startswith("note: Revealed type"))
    for keyword in (
        "name: str",
        "description: str | None =",
        "http_method: apinizer_pulumi.models._enums.HttpMethod |",
        "backend_resource_url: str",
        "backend_http_method: apinizer_pulumi.models._enums.HttpMethod |",
    ):
        assert keyword in revealed, revealed
    assert "Any" not in revealed and "kwargs" not in revealed
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 2, result.stdout
    assert "incompatible type \"Literal['FETCH']\"" in errors[0]
    assert 'Unexpected keyword argument "httpMethod"' in errors[1]


def test_http_method_names_are_the_enum_values() -> None:
    assert list(HttpMethodName.__args__) == [member.value for member in HttpMethod]  # type: ignore[attr-defined]


def _api_models() -> list[type[BaseModel]]:
    return [
        value
        for name in models.__all__
        if isinstance(value := getattr(models, name), type) and issubclass(value, models.ApiModel)
    ]


@pytest.mark.parametrize("model", _api_models(), ids=lambda m: m.__name__)
def test_run_time_signatures_show_the_snake_case_names(model: type[BaseModel]) -> None:
    parameters = inspect.signature(model).parameters.values()
    named = [p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD]
    assert named == list(model.model_fields)
    # Only the models that keep unknown fields (the policies') take other keywords.
    takes_more = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    assert takes_more == (model.model_config.get("extra") == "allow")


def test_endpoint_spec_signature_and_both_spellings_at_run_time() -> None:
    assert list(inspect.signature(EndpointSpec).parameters) == [
        "name",
        "description",
        "http_method",
        "backend_resource_url",
        "backend_http_method",
    ]
    wire = {"name": "/a", "httpMethod": "GET", "backendResourceUrl": "/b", "backendHttpMethod": "PUT"}
    from_wire = EndpointSpec.model_validate(wire)
    assert from_wire == EndpointSpec(
        name="/a", http_method="GET", backend_resource_url="/b", backend_http_method="PUT"
    )
    assert from_wire.to_api() == wire
