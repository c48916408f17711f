"""A kind's secret inputs: plain for the provider's own work, marked again for what the engine keeps.

The engine hands a dynamic provider a secret as a signature-tagged dict (the SDK's server accepts no
secrets), so a check or a diff that compares or validates one must take the mark off first; the inputs
that check answers must carry it again, or the state would hold them in clear. :class:`SecretInputs`
does both for named top-level inputs; :class:`~._typed_settings.SettingsFamily` does the same for the
secret fields of a typed ``settings``. :class:`HoldsSecrets` runs a kind's check and diff on the plain
values with either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import pulumi.dynamic as dyn

from ._base import ApinizerProvider, is_unknown
from ._connection import unwrap_secrets


class Secrets(Protocol):
    """Where a kind's secrets are in its props: taken off (``plain``) and put back (``secret``)."""

    def plain(self, props: Mapping[str, Any]) -> dict[str, Any]: ...

    def secret(self, props: Mapping[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class SecretInputs:
    """The top-level inputs (or outputs) ``names`` that hold secrets."""

    names: tuple[str, ...]

    def plain(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with these secrets unwrapped."""
        return unwrap_secrets(props, self.names)

    def secret(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with these secrets marked again; one not set or not known yet stays as it is (the
        engine carries the mark of an input not known yet over itself)."""
        from pulumi.runtime import rpc

        return {key: rpc.wrap_rpc_secret(value)
                if key in self.names and value is not None and not is_unknown(value) else value
                for key, value in props.items()}


class HoldsSecrets(ApinizerProvider):
    """A kind whose inputs hold secrets: its check and diff see them plain, and the inputs check
    answers carry the marks again. A kind that reads the inputs before this check or diff (its own
    rules) takes the marks off itself: ``self.secrets.plain``."""

    #: Where the kind's secrets are.
    secrets: ClassVar[Secrets]

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        result = super().check_inputs(self.secrets.plain(olds), self.secrets.plain(news))
        return dyn.CheckResult(self.secrets.secret(result.inputs), result.failures)

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        return super().diff(id_, self.secrets.plain(olds), self.secrets.plain(news))
