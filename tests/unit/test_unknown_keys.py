"""``unknown_keys``: the keys a model would silently ignore, at any depth, named by their path."""

from __future__ import annotations

from pydantic import BaseModel, Field

from apinizer_pulumi.resources._base import unknown_keys


class Leaf(BaseModel):
    size: int = 0


class Root(BaseModel):
    name: str = ""
    renamed: str = Field(default="", alias="otherName")
    leaf: Leaf | None = None
    leaves: list[Leaf] = Field(default_factory=list)
    by_name: dict[str, Leaf] | None = None


def test_unknown_keys_are_named_at_every_depth_and_known_names_and_aliases_pass() -> None:
    data = {
        "name": "a", "renamed": "b", "otherName": "c", "typo": 1,
        "leaf": {"size": 1, "sise": 2},
        "leaves": [{"size": 1}, {"colour": "red"}],
        "by_name": {"x": {"size": 1}, "y": {"weight": 3}},
    }
    assert unknown_keys(Root, data) == [
        ("typo",), ("leaf", "sise"), ("leaves", "1", "colour"), ("by_name", "y", "weight")]


def test_a_model_checked_again_gives_the_same_answer() -> None:
    data = {"leaf": {"bad": 1}, "leaves": [{"bad": 2}]}
    assert unknown_keys(Root, data) == unknown_keys(Root, data) == [("leaf", "bad"), ("leaves", "0", "bad")]
