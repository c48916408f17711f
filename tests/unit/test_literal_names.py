"""What ``_literal_names`` notes lasts one program run: a new run (every ``configure``) starts empty."""

from __future__ import annotations

from typing import Any

import pulumi

from apinizer_pulumi.resources import _literal_names


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        return args.name, dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return {}, []


def test_each_program_run_notes_its_own_proxies() -> None:
    pulumi.runtime.set_mocks(Mocks(), project="one", stack="dev", preview=True)
    first = _literal_names._noted()
    assert first is not None
    first.proxies[("Demo", "Orders")] = "orders"
    assert _literal_names._noted() is first  # the same run

    pulumi.runtime.set_mocks(Mocks(), project="two", stack="dev", preview=True)
    second = _literal_names._noted()
    assert second is not None and second is not first and second.proxies == {}
