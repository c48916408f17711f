"""The one place where a 2xx answer is read: a success, or :class:`APIResponseValidationError`.

A 2xx status alone is not a success. Reads must carry the documented JSON (a list answer
without ``resultList``, ``{}``, HTML from a proxy in front: all raise), and any answer whose
JSON says ``success: false`` raises, whatever its status. Writes whose 2xx body is empty or not
JSON are accepted: the status says success and there is nothing that contradicts it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from ._exceptions import APIResponseValidationError, redact_secrets, snippet

if TYPE_CHECKING:
    import pydantic

__all__ = ["expect_success", "may_say_failure", "parse_success"]

_M = TypeVar("_M", bound="pydantic.BaseModel")


def _json(response: httpx.Response) -> Any:
    """The body's JSON, or ``None`` when it is empty or not JSON."""
    try:
        return json.loads(response.content) if response.content.strip() else None
    except (ValueError, UnicodeDecodeError):
        return None


def _says_failure(body: Any) -> bool:
    return isinstance(body, dict) and body.get("success") is False


def _failure(
    response: httpx.Response,
    method: str,
    path: str,
    detail: str,
    *,
    redact: tuple[str, ...],
    quote_body: bool,
) -> APIResponseValidationError:
    quoted = ""
    if quote_body:
        try:
            text = response.text
        except (UnicodeDecodeError, LookupError):
            text = repr(response.content[:100])
        quoted = redact_secrets(snippet(text), redact) or "(empty)"
    return APIResponseValidationError(method, path, response.status_code, detail, snippet=quoted)


def parse_success(
    model: type[_M],
    response: httpx.Response,
    method: str,
    path: str,
    *,
    redact: tuple[str, ...] = (),
    quote_body: bool = True,
    expected: str = "",
) -> _M:
    """``response``'s body as ``model``, or :class:`APIResponseValidationError` naming what is wrong.

    ``expected`` says what the body should have been (``a valid EndpointList`` unless given);
    ``quote_body=False`` keeps the body out of the error (the token response is a credential).
    """
    import pydantic

    try:
        parsed = model.model_validate_json(response.content)
    except pydantic.ValidationError as exc:
        if _says_failure(_json(response)):
            detail = "the gateway answered success: false"
        else:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            detail = f"the body is not {expected or 'a valid ' + model.__name__} ({where}: {first['msg']})"
        raise _failure(response, method, path, detail, redact=redact, quote_body=quote_body) from None
    if getattr(parsed, "success", None) is False:
        detail = "the gateway answered success: false"
        raise _failure(response, method, path, detail, redact=redact, quote_body=quote_body)
    return parsed


def may_say_failure(response: httpx.Response) -> bool:
    """Whether a write's answer can say ``success: false``: only a body holding JSON's literal
    ``false`` can (a value has no other spelling of it), in UTF-8, or in UTF-16 or UTF-32 (which
    ``json.loads`` reads too, and whose ASCII characters each hold a zero byte). Every other answer
    (the gateway's ``{"success":true}``) is accepted without parsing it (docs/performance.md)."""
    content = response.content
    return b"false" in content or b"\x00" in content


def expect_success(
    response: httpx.Response, method: str, path: str, *, redact: tuple[str, ...] = ()
) -> None:
    """Accept a write's answer unless its JSON says ``success: false``."""
    if may_say_failure(response) and _says_failure(_json(response)):
        raise _failure(
            response, method, path, "the gateway answered success: false", redact=redact, quote_body=True
        )
