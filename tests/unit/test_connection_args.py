"""The generated connection settings classes (``apinizer_pulumi.connections``): current with the models,
equal to them, and one line for a wrong argument. The second target of scripts/gen_policy_args.py."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

import pytest

from apinizer_pulumi import connections
from apinizer_pulumi.models import ConnectionBase
from apinizer_pulumi.models._connection_registry import CONNECTION_TYPES
from apinizer_pulumi.resources import _connection_args

ROOT = Path(__file__).resolve().parents[2]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_policy_args", ROOT / "scripts" / "gen_policy_args.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("target", ["args_file", "reference_file"])
def test_check_fails_when_a_connection_file_is_stale(target: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    gen = generator()
    current = getattr(gen.CONNECTIONS, target)
    stale = tmp_path / current.name
    stale.write_text(current.read_text(encoding="utf-8").replace("Kafka", "Kafkaesque", 1), encoding="utf-8")
    # Inside ROOT's tree as --check prints it relative to ROOT.
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    monkeypatch.setattr(gen, "TARGETS", (dataclasses.replace(gen.CONNECTIONS, **{target: stale}),))
    assert gen.main(["--check"]) == 1
    assert f"{stale.name} is not current" in capsys.readouterr().err
    stale.write_text(current.read_text(encoding="utf-8"), encoding="utf-8")
    assert gen.main(["--check"]) == 0


@pytest.mark.parametrize("connection_type", sorted(CONNECTION_TYPES))
def test_each_type_has_its_class_with_the_models_own_fields(connection_type: str) -> None:
    model = CONNECTION_TYPES[connection_type]
    args: Any = connections.CONNECTION_ARGS[connection_type]
    assert args.connection_type == connection_type
    assert args.secret_fields == model.secret_fields()
    own = set(model.model_fields) - set(ConnectionBase.model_fields) - {"type"}
    assert {item.name for item in dataclasses.fields(args)} == own
    required = {item.name for item in dataclasses.fields(args) if item.default is dataclasses.MISSING}
    assert required == {name for name in own if model.model_fields[name].is_required()}
    assert getattr(connections, args.__name__) is args
    assert "Source: https://github.com/apinizer/management-api-docs" in " ".join((args.__doc__ or "").split())


@pytest.mark.parametrize("alias", sorted(_connection_args.ENUM_LITERALS))
def test_each_literal_holds_exactly_its_enums_values(alias: str) -> None:
    module, name = _connection_args.ENUM_LITERALS[alias]
    enum = getattr(importlib.import_module(module), name)
    assert get_args(getattr(_connection_args, alias)) == tuple(member.value for member in enum)


def test_the_reference_page_has_every_type() -> None:
    text = (ROOT / "docs" / "resources" / "connection-types.md").read_text()
    for connection_type, args in connections.CONNECTION_ARGS.items():
        assert f"## {args.__name__}\n" in text and f"`{connection_type}`" in text


def test_a_wrong_argument_is_one_line_naming_the_connections_module() -> None:
    import pulumi

    with pytest.raises(pulumi.RunError, match=r"^apinizer\.connections\.Kafka: no argument topic "
                       r"\(given 'audit'\); did you mean topic_name\?$"):
        connections.Kafka(topic="audit", properties_map={})  # type: ignore[call-arg]
    with pytest.raises(pulumi.RunError) as secret:
        connections.Email(host="smtp", pasword="Hunter2-secret")  # type: ignore[call-arg]
    assert "Hunter2-secret" not in str(secret.value) and "apinizer.connections.Email" in str(secret.value)


def test_a_connection_whose_settings_give_no_type_is_refused_saying_what_to_give() -> None:
    import apinizer_pulumi as apinizer

    with pytest.raises(TypeError, match=r"from apinizer_pulumi\.connections .*'type'"):
        apinizer.Connection("x", project_name="Demo", name="x", settings={"hostname": "graylog.internal"})
