"""What importing ``apinizer_pulumi.generate`` loads: never the Pulumi SDK (generate writes a program's
text), and no model, pydantic or YAML before a kind is read. Modules counted, never timed
(docs/performance.md, "Import time")."""

from __future__ import annotations

import pytest

import apinizer_pulumi.generate as generate
from apinizer_pulumi.generate import _program

from .test_import_cost import loaded_after

#: What generate never needs: the SDK, gRPC and the resource module that imports them.
SDK = ("pulumi", "grpc", "apinizer_pulumi.resources.jwk")
#: What it needs only once it reads: the models, pydantic that makes them, and YAML (``--stack``).
MODELS = ("pydantic", "apinizer_pulumi.models._base", "apinizer_pulumi.models._endpoint",
          "apinizer_pulumi.models._policy", "apinizer_pulumi.models._policy_security",
          "apinizer_pulumi.models._connection_types", "apinizer_pulumi.models._environment_variable", "yaml")
#: ``--help`` and a usage error need neither the client nor httpx.
CLIENT = ("apinizer_pulumi.client", "httpx")

HELP = ("import contextlib, io\n"
        "from apinizer_pulumi.generate.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        "        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass")


@pytest.mark.parametrize("statement", [
    "import apinizer_pulumi.generate",
    "from apinizer_pulumi.generate import generate_program, declared_resources, write_project",
    "from apinizer_pulumi.generate.cli import main",
])
def test_importing_generate_loads_no_pulumi_sdk_and_no_model(statement: str) -> None:
    assert loaded_after(statement, SDK + MODELS) == []


def test_importing_the_package_loads_none_of_its_modules() -> None:
    modules = ("apinizer_pulumi.generate._program", *CLIENT)
    assert loaded_after("import apinizer_pulumi.generate", modules) == []


@pytest.mark.parametrize("argv", [["--help"], ["generate", "--help"], ["generate"],
                                  ["generate", "--project", "Demo", "--no-definitions"]],
                         ids=["help", "generate-help", "usage-error", "no-definitions-without-environment"])
def test_help_and_usage_errors_load_no_client_sdk_or_model(argv: list[str]) -> None:
    assert loaded_after(HELP.format(argv=argv), CLIENT + SDK + MODELS) == []


def test_every_public_name_resolves_on_first_use_and_stays() -> None:
    assert generate.generate_program is _program.generate_program
    assert "generate_program" in vars(generate)  # kept like an import keeps it
    assert [name for name in generate.__all__ if not hasattr(generate, name)] == []
    assert set(generate.__all__) <= set(dir(generate))
    with pytest.raises(AttributeError, match="no_such_name"):
        generate.no_such_name  # noqa: B018
