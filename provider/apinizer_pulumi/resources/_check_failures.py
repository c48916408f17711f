"""Check failures as the engine prints them: the value named, never ``{<nil>}``.

The engine prints a failure with a property as ``property P value V has a problem: R``, where V is
the *top-level* input named P: for a nested path (``settings.throttling_interval``) there is none,
and it prints ``{<nil>}``. So a nested path's failure is sent without a property, its reason
naming the path and (for a plain, non-secret value) the value: ``settings.throttling_interval is
'ONE_WEEK': Input should be 'ONE_SECOND', ...``, which the engine prints as ``<type> resource
'<name>' has a problem: <that>``. Top-level failures keep their property: the engine finds the value.
:func:`split` gives the path and the reason back (the provider tests key failures by path).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi.dynamic as dyn

#: Paths under these inputs, or whose last name holds one of these words, never show their value.
_SECRET_BLOCKS = ("connection", "api_keys", "ntlm", "proxy_server", "password", "spec_content")
_SECRET_WORDS = ("password", "secret", "token", "key", "credential", "private", "passphrase")
#: A value longer than this is not shown (a script body, a certificate).
_LONGEST = 80
_PATH = re.compile(r"^(?P<path>[A-Za-z_]\w*(?:\.\w+|\[\d+\])+)(?: is .*?)?: ")


def _parts(path: str) -> list[str]:
    return re.findall(r"[^.\[\]]+", path)


def _value(inputs: Mapping[str, Any], path: str) -> tuple[bool, Any]:
    """(found, value) of ``path`` (``a.0.b`` or ``a[0].b``) in ``inputs``."""
    holder: Any = inputs
    for part in _parts(path):
        if isinstance(holder, Mapping) and part in holder:
            holder = holder[part]
        elif isinstance(holder, Sequence) and not isinstance(holder, str) and part.isdigit() \
                and int(part) < len(holder):
            holder = holder[int(part)]
        else:
            return False, None
    return True, holder


def may_be_secret(name: str) -> bool:
    """Whether a field of this name may hold a credential (its value is then never shown)."""
    return any(word in name.lower() for word in _SECRET_WORDS)


def shown_value(name: str, value: Any) -> str | None:
    """``repr(value)`` where it is safe and short enough to show in an error; else None."""
    scalar = str | int | float | bool
    plain = isinstance(value, scalar) or (
        isinstance(value, list | tuple) and all(isinstance(item, scalar) for item in value))
    if may_be_secret(name) or not plain or len(repr(value)) > _LONGEST:
        return None
    return repr(value)


#: Path parts whose values may be secret without saying so: a policy's header and parameter values
#: (``policy-api-call``'s secret fields) and an environment variable's values.
_MAY_HOLD_SECRETS = ("value", "global_value", "environment_values")


def _shown(path: str, value: Any) -> bool:
    parts = _parts(path)
    if parts[0] in _SECRET_BLOCKS or any(part in _MAY_HOLD_SECRETS or may_be_secret(part) for part in parts):
        return False
    return shown_value(parts[-1], value) is not None


def prefix(path: str, inputs: Mapping[str, Any]) -> str:
    """What a nested path's reason starts with: ``<path> is <value>: `` or ``<path>: ``."""
    found, value = _value(inputs, path)
    return f"{path} is {value!r}: " if found and _shown(path, value) else f"{path}: "


def readable(failures: Sequence[dyn.CheckFailure], inputs: Mapping[str, Any]) -> list[dyn.CheckFailure]:
    """``failures`` with each nested path moved into its reason, with the value (see the module)."""
    out = []
    for failure in failures:
        path = failure.property or ""
        if "." in path or "[" in path:
            out.append(dyn.CheckFailure("", prefix(path, inputs) + failure.reason))
        else:
            out.append(failure)
    return out


def split(prop: str, reason: str, inputs: Mapping[str, Any]) -> tuple[str, str]:
    """(path, reason) of a failure as :func:`readable` sent it; others as they are."""
    match = None if prop else _PATH.match(reason)
    if match is None:
        return prop, reason
    path = match.group("path")
    start = prefix(path, inputs)
    return (path, reason[len(start):]) if reason.startswith(start) else (prop, reason)
