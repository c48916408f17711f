"""The exactly-once rule of ``resources/_create.py`` on its own: which answers are unknown, and the pauses.

The rule is driven here by plain callables standing for the gateway, with an injected ``sleep``
that records the pauses instead of waiting; the provider tests drive it through the emulator.
"""

from __future__ import annotations

import httpx
import pytest

from apinizer_pulumi.client import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    BadRequestError,
    make_status_error,
)
from apinizer_pulumi.resources._create import BACKOFF, LOOKUP_ATTEMPTS, Backoff, ExactlyOnce, outcome_unknown
from apinizer_pulumi.resources._errors import ApinizerResourceError


def status_error(status: int, error: str = "bad_request", description: str = "nope") -> APIStatusError:
    """The client's own error for an answer with this status and (gateway's, or another's) body."""
    if error == "unknown":
        response = httpx.Response(status, text=description, headers={"content-type": "text/html"})
    else:
        response = httpx.Response(status, json={"error": error, "error_description": description})
    return make_status_error(response, "POST", "/x/")


def test_backoff_doubles_up_to_its_cap() -> None:
    assert [BACKOFF.delay(n) for n in range(6)] == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert Backoff(first=1, factor=3, cap=5).delay(2) == 5


@pytest.mark.parametrize(
    ("error", "unknown"),
    [
        (APIConnectionError("POST", "/x/", "reset", sent=True), True),
        (APIConnectionError("POST", "/x/", "refused", sent=False), False),
        (APIResponseValidationError("POST", "/x/", 200, "the gateway answered success: false"), True),
        (status_error(500, "internal_server_error"), True),
        (status_error(408, "request_timeout"), True),
        (status_error(499, "client_closed_request"), True),
        (status_error(429, "too_many_requests"), True),
        (status_error(403, "unknown", "<html>Forbidden</html>"), True),  # not the gateway's body
        (status_error(403, "access_denied"), False),
        (status_error(400), False),
    ],
)
def test_which_failures_leave_the_outcome_unknown(error: Exception, unknown: bool) -> None:
    assert outcome_unknown(error) is unknown  # type: ignore[arg-type]


def test_failed_look_ups_pause_longer_each_time_and_a_500_is_tried_again() -> None:
    pauses: list[float] = []
    sends: list[int] = []
    look_ups = iter([status_error(500, "internal_server_error")] * 3 + ["made"])

    def send() -> None:
        sends.append(1)
        raise status_error(500, "internal_server_error")

    def look_up() -> str | None:
        answer = next(look_ups)
        if isinstance(answer, Exception):
            raise answer
        return answer

    ExactlyOnce(send=send, look_up=look_up, made_by=lambda live: live == "made",
                already_exists=lambda error: True, noun="thing", namesake="a thing",
                sleep=pauses.append).run()

    assert sends == [1]
    assert pauses == [0.25, 0.5, 1.0]


@pytest.mark.parametrize(
    ("look_up_error", "pauses_made"),
    [
        (status_error(500, "internal_server_error"), LOOKUP_ATTEMPTS - 1),  # tried again, up to the bound
        (status_error(403, "access_denied"), 0),  # refused for good: not tried again
    ],
    ids=["a 500 each time", "a 403"],
)
def test_look_ups_that_keep_failing_give_up(look_up_error: APIStatusError, pauses_made: int) -> None:
    pauses: list[float] = []

    def send() -> None:
        raise status_error(502, "bad_gateway")

    def look_up() -> str | None:
        raise look_up_error

    with pytest.raises(ApinizerResourceError, match=r"never confirmed the create .* looking it up failed"):
        ExactlyOnce(send=send, look_up=look_up, made_by=lambda live: True,
                    already_exists=lambda error: True, noun="thing", namesake="a thing",
                    sleep=pauses.append).run()
    assert len(pauses) == pauses_made


def test_without_a_look_up_already_exists_after_an_unknown_send_is_this_creates() -> None:
    answers: list[Exception | None] = [status_error(503, "service_unavailable"), status_error(400)]
    pauses: list[float] = []

    def send() -> None:
        answer = answers.pop(0)
        if answer is not None:
            raise answer

    ExactlyOnce[None](send=send, look_up=None, made_by=lambda live: False,
                      already_exists=lambda error: isinstance(error, BadRequestError), noun="thing",
                      namesake="a thing", sleep=pauses.append).run()
    assert answers == [] and pauses == [0.25]


def test_without_a_look_up_already_exists_on_the_first_answer_is_someone_elses() -> None:
    def send() -> None:
        raise status_error(400)

    with pytest.raises(BadRequestError):
        ExactlyOnce[None](send=send, look_up=None, made_by=lambda live: False,
                          already_exists=lambda error: True, noun="thing", namesake="a thing",
                          sleep=lambda seconds: None).run()
