"""Fault injection for ``/apiops/`` requests: a status (with ``Retry-After``), a delay, or a drop.

A rule applies to the next ``count`` matching requests, or to a random ``fraction`` of them
(optionally capped by ``count``). With ``after``, the request is carried out first and only its
answer is replaced by the status or lost with the connection: the "did my create go through?"
case that a client cannot tell from a request that never arrived; with ``after`` and a ``delay``
alone, the answer is the real one, sent ``delay`` seconds after the work was committed ("slow
but carried out": a client that gives up meanwhile finds the write done). Rules are tried in the order
they were added; the first one that matches a request and fires is used.
"""

from __future__ import annotations

import random
import threading
from http import HTTPStatus
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import BadRequestError


class FaultRule(BaseModel):
    """One rule as ``POST /_emulator/faults`` takes it."""

    model_config = ConfigDict(extra="forbid")

    status: int | None = Field(default=None, ge=400, le=599)
    retry_after: float | None = Field(default=None, ge=0)
    delay: float = Field(default=0.0, ge=0, le=60)
    drop: bool = False
    after: bool = False
    count: int | None = Field(default=None, ge=1)
    fraction: float | None = Field(default=None, gt=0, le=1)
    path: str | None = None
    method: str | None = None
    error: str | None = None
    error_description: str | None = None

    @model_validator(mode="after")
    def _one_effect(self) -> FaultRule:
        if self.status is None and not self.drop and not self.delay:
            raise ValueError("a fault needs a status, a delay or drop=true")
        if self.status is not None and self.drop:
            raise ValueError("status and drop exclude each other")
        if self.after and self.status is None and not self.drop and not self.delay:
            raise ValueError("after needs a status, a delay or drop=true: it is the answer that is changed")
        if self.count is None and self.fraction is None:
            self.count = 1
        return self

    def matches(self, method: str, path: str) -> bool:
        return (self.path is None or self.path in path) and (
            self.method is None or self.method.upper() == method
        )

    @property
    def kind(self) -> str:
        """How the fault shows in the counts: ``503``, ``drop``, ``delay``, ``drop after`` ..."""
        effect = "drop" if self.drop else str(self.status) if self.status is not None else "delay"
        return f"{effect} after" if self.after else effect

    def error_body(self) -> dict[str, Any]:
        """The documented error body for the status; a 429 also carries ``retry_after`` (seconds).

        Codes and texts are the examples of
        https://github.com/apinizer/management-api-docs/blob/main/01-getting-started/error-handling.md
        """
        assert self.status is not None
        documented = _DOCUMENTED_ERRORS.get(self.status)
        if documented is not None:
            error, description = documented
        else:
            try:
                phrase = HTTPStatus(self.status).phrase
            except ValueError:  # a status without a registered phrase, such as 599
                phrase = "Error"
            error = phrase.lower().replace(" ", "_").replace("-", "_")
            description = f"Fault injected by the emulator ({self.status})"
        body: dict[str, Any] = {
            "error": self.error or error,
            "error_description": self.error_description or description,
        }
        if self.status == 429 and self.retry_after_seconds is not None:
            body["retry_after"] = self.retry_after_seconds
        return body

    @property
    def retry_after_seconds(self) -> int | float | None:
        """``retry_after`` as it goes out: whole seconds as an integer."""
        if self.retry_after is None:
            return None
        return int(self.retry_after) if float(self.retry_after).is_integer() else self.retry_after


#: status -> (error, error_description) as the product's documentation shows them; 400, 401 and
#: 404 use the spec's codes.
_DOCUMENTED_ERRORS: dict[int, tuple[str, str]] = {
    400: ("bad_request", "Fault injected by the emulator (400)"),
    401: ("unauthorized_client", "Invalid token"),
    403: ("forbidden", "You do not have permission to perform this action"),
    404: ("not_found", "Fault injected by the emulator (404)"),
    409: ("conflict", "Fault injected by the emulator (409)"),
    429: ("rate_limit_exceeded", "Rate limit exceeded. Please try again later."),
    500: ("internal_error", "An unexpected error occurred. Please try again later."),
}


class FaultInjector:
    def __init__(self, seed: int | None = None) -> None:
        self._lock = threading.Lock()
        self._rules: list[FaultRule] = []
        self._fired: dict[str, int] = {}
        self._random = random.Random(seed)

    @staticmethod
    def parse(body: Any) -> FaultRule:
        try:
            return FaultRule.model_validate(body)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise BadRequestError(f"{where + ': ' if where else ''}{first['msg']}") from exc

    def add(self, rule: FaultRule) -> None:
        with self._lock:
            self._rules.append(rule)

    def clear(self) -> None:
        """No rules, and the counts of faults fired start again from zero."""
        with self._lock:
            self._rules.clear()
            self._fired.clear()

    def seed(self, seed: int) -> None:
        with self._lock:
            self._random.seed(seed)

    def active(self) -> list[dict[str, Any]]:
        with self._lock:
            return [rule.model_dump(exclude_none=True) for rule in self._rules]

    def fired(self) -> dict[str, int]:
        """How many requests each kind of fault struck since the last clear."""
        with self._lock:
            return dict(self._fired)

    def take(self, method: str, path: str) -> FaultRule | None:
        """The rule that fires for this request, its count consumed; None when none fires."""
        with self._lock:
            for rule in self._rules:
                if not rule.matches(method, path):
                    continue
                if rule.fraction is not None and self._random.random() >= rule.fraction:
                    continue
                if rule.count is not None:
                    rule.count -= 1
                    if rule.count == 0:
                        self._rules.remove(rule)
                self._fired[rule.kind] = self._fired.get(rule.kind, 0) + 1
                return rule
            return None
