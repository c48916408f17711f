"""A create whose answer may be lost, made exactly once: the rule every kind that creates follows.

A create is the one write that is not harmless to repeat, and the gateway's answer (``{success}``)
carries nothing to recognise the new object by. The rule (docs/faults.md):

* The outcome of a create is **unknown** when it got no answer after the request left, or an
  answer that may have come after the gateway carried it out: 408, 429, 499, any 5xx, any other
  4xx whose body is not the gateway's own error (a proxy in front answered), or a 2xx that is not
  the documented ``{success: true}``. A request refused before it left (``APIConnectionError.sent``
  false) is not unknown: the gateway never saw it.
* After an unknown outcome the object is **looked up** before anything is sent again. Found and
  as this create makes it: that create made it, and it is this resource's. Not found: the create
  did not take effect, and it is sent again. Found but different: someone else's, and the
  gateway's own "already exists" answer to the repeat says so.
* A repeat answered "already exists" after an unknown attempt is judged by a look-up as well (the
  first create may still have been on its way when the look-up ran). A kind the API cannot read
  has no look-up: there, "already exists" after an unknown attempt is taken as this create's.
* Look-ups that fail (unknown-class failures, a 500 included) are tried again after a pause that
  doubles (:data:`BACKOFF`), up to :data:`LOOKUP_ATTEMPTS` in a row; creates are sent at most
  :data:`CREATE_ATTEMPTS` times (:data:`BLIND_CREATE_ATTEMPTS` for a kind without a look-up), each
  resend after a pause as well.
* Once the create is confirmed, nothing that follows fails the step (:func:`after_create`):
  a failed step would leave on the gateway an object that the stack does not know. And what
  follows is recorded only as far as the gateway confirmed it (:func:`confirmed`): a write that
  failed leaves its part of the outputs as the gateway holds it, so that the engine's next diff
  shows the part as a change and the next ``pulumi up`` sends it.

A kind supplies three things: how to send its create, how to look its object up (the live object
or None), and how to judge that a live object is what its create makes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

import pulumi

from ._errors import ApinizerResourceError, describe

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerError, BadRequestError

T = TypeVar("T")
R = TypeVar("R")

#: Sends of one create whose outcome stayed unknown.
CREATE_ATTEMPTS = 4
#: The same for a kind the API cannot look up: there giving up may leave an object that the stack
#: does not know (and that the next run's create then calls someone else's), while every further
#: send that gets an answer settles it. At 30% failing requests, four unknown sends in a row happen
#: to about one create in 120 (benchmarks/fault_run.py saw it), eight to one in 15,000.
BLIND_CREATE_ATTEMPTS = 8
#: Look-ups in a row that may fail (each with the client's own retries, where it makes them).
LOOKUP_ATTEMPTS = 5
#: 4xx statuses that a gateway or a proxy in front of it sends when it may have carried the request
#: out: request timeout, too early, too many requests, client closed request (nginx).
UNKNOWN_4XX = frozenset({408, 425, 429, 499})


@dataclass(frozen=True)
class Backoff:
    """Pauses of ``first * factor**n`` seconds, capped at ``cap``: 0.25 s, 0.5 s, 1 s, 2 s, 2 s ..."""

    first: float = 0.25
    factor: float = 2.0
    cap: float = 2.0

    def delay(self, pause: int) -> float:
        """Seconds of pause number ``pause`` (0 for the first)."""
        return float(min(self.first * self.factor ** pause, self.cap))


BACKOFF = Backoff()


def outcome_unknown(error: ApinizerError) -> bool:
    """Whether a failed request may still have been carried out by the gateway."""
    from apinizer_pulumi.client import APIConnectionError, APIResponseValidationError, APIStatusError

    if isinstance(error, APIConnectionError):
        return error.sent
    if isinstance(error, APIResponseValidationError):
        return True  # a 2xx that is not the answer: a proxy's page, or an answer cut short
    if isinstance(error, APIStatusError):
        return (
            error.status_code >= 500
            or error.status_code in UNKNOWN_4XX
            # Not the gateway's {error, error_description}: a proxy in front answered, and no one
            # can say whether the gateway got the request.
            or error.error == "unknown"
        )
    return False


def read_retried(read: Callable[[], R], pause: Callable[[], None] | None = None) -> R:
    """``read()``, tried again after a failure that may pass (:func:`outcome_unknown`: a 5xx, a
    connection dropped after the request left, an answer that is not one), up to
    :data:`LOOKUP_ATTEMPTS` in a row with ``pause()`` between them (by default the pauses of
    :data:`BACKOFF`). Any other failure, and the last one, is raised as it is: a read that failed
    says nothing about the object, and is never taken for "gone".

    The client retries 429, 502, 503, 504 and dropped connections of a read by itself; this covers
    a 500, which it never repeats, and a client that ran out of its own attempts.
    """
    from apinizer_pulumi.client import ApinizerError

    pauses = iter(range(LOOKUP_ATTEMPTS))
    failed = 0
    while True:
        try:
            return read()
        except ApinizerError as error:
            failed += 1
            if not outcome_unknown(error) or failed >= LOOKUP_ATTEMPTS:
                raise
        if pause is not None:
            pause()
        else:
            time.sleep(BACKOFF.delay(next(pauses)))


def sent_until_answered(write: Callable[[], R]) -> R:
    """A create that is harmless to repeat (a replace of a whole list), sent again after a failure
    that may pass, as :func:`read_retried` reads. Once the request left, a failure may come after
    the gateway carried it out (an answer lost, then the client's own repeat refused with a 500):
    failing the step then would leave on the gateway what the stack does not know.
    """
    return read_retried(write)


@dataclass
class ExactlyOnce(Generic[T]):
    """One create under the rule above; :meth:`run` carries it out.

    ``send`` sends the create; ``look_up`` returns the live object or None (None as a whole when
    the API cannot read this kind); ``made_by`` says whether a live object is what ``send`` makes;
    ``already_exists`` recognises the gateway's answer to a create of a taken identity; ``noun``
    names the object in messages ("endpoint", "RLCL") and ``namesake`` one of the same identity
    ("an endpoint with this name and method").
    """

    send: Callable[[], None]
    look_up: Callable[[], T | None] | None
    made_by: Callable[[T], bool]
    already_exists: Callable[[BadRequestError], bool]
    noun: str
    namesake: str
    backoff: Backoff = BACKOFF
    sleep: Callable[[float], None] = time.sleep
    _pauses: int = field(default=0, init=False)

    @staticmethod
    def blind(send: Callable[[], None], already_exists: Callable[[BadRequestError], bool], noun: str,
              namesake: str) -> ExactlyOnce[None]:
        """The create of a kind the API cannot read (an IP group, an RLCL): with no look-up, "already
        exists" after an unknown attempt is taken as this create's."""
        return ExactlyOnce[None](send=send, look_up=None, made_by=lambda _: False,
                                 already_exists=already_exists, noun=noun, namesake=namesake)

    def _pause(self) -> None:
        self.sleep(self.backoff.delay(self._pauses))
        self._pauses += 1

    def _find(self, unknown: ApinizerError) -> T | None:
        """The look-up after an unknown outcome, tried again after failures that may pass."""
        from apinizer_pulumi.client import ApinizerError

        assert self.look_up is not None
        try:
            return read_retried(self.look_up, self._pause)
        except ApinizerError as error:
            raise ApinizerResourceError(
                f"the gateway never confirmed the create ({describe(unknown)}), and looking it up "
                f"failed too ({describe(error)}). Run `pulumi up` again; if it then says the "
                f"{self.noun} already exists, that is the one this create made: set adopt=True "
                "to take it over"
            ) from None

    def run(self) -> None:
        """Create the object once, also when answers are lost on the way.

        Raises the gateway's ``BadRequestError`` when the object existed before this create, and
        :class:`ApinizerResourceError` when the gateway kept failing it or its outcome stayed
        unknown. Every unknown send is followed by a look-up (where the kind has one), so giving
        up never leaves an object behind unless the look-ups failed too.
        """
        from apinizer_pulumi.client import ApinizerError, BadRequestError

        unknown: ApinizerError | None = None
        sends = 0
        while True:
            if unknown is not None:
                if self.look_up is not None:
                    live = self._find(unknown)
                    if live is not None and self.made_by(live):
                        return
                    if sends >= CREATE_ATTEMPTS:
                        raise self._gave_up(unknown, sends, found=live is not None)
                    # Not there: the create did not take effect. There but different: someone
                    # else's, which the repeat's own "already exists" answer reports below.
                elif sends >= BLIND_CREATE_ATTEMPTS:
                    raise ApinizerResourceError(
                        f"the gateway never confirmed the create in {sends} attempts ({describe(unknown)}), "
                        f"and the API cannot look the {self.noun} up. Run `pulumi up` again; if it then "
                        f"says the {self.noun} already exists, that is the one this create made: set "
                        "adopt=True to take it over"
                    )
                self._pause()
            try:
                self.send()
                return
            except ApinizerError as error:
                if outcome_unknown(error):
                    unknown, sends = error, sends + 1
                    continue
                if unknown is not None and isinstance(error, BadRequestError) and self.already_exists(error):
                    if self.look_up is None:
                        return  # nothing to tell it apart by: the earlier attempt made it
                    live = self._find(unknown)
                    if live is not None and self.made_by(live):
                        return  # the earlier attempt, still on its way when we looked, made it
                raise

    def _gave_up(self, unknown: ApinizerError, sends: int, *, found: bool) -> ApinizerResourceError:
        if not found:
            return ApinizerResourceError(
                f"the gateway failed the create {sends} times ({describe(unknown)}); "
                "it is not on the gateway: run `pulumi up` again"
            )
        return ApinizerResourceError(
            f"{self.namesake} exists on the gateway and differs from this declaration; "
            "set adopt=True to take it over"
        )


@contextlib.contextmanager
def after_create(who: str, step: str,
                 then: str = "the next `pulumi up` or `pulumi refresh` completes it") -> Iterator[None]:
    """Run a step that follows a confirmed create: its failure is a warning, never the step's.

    ``then`` tells what makes up for the failure (for a read-back, a refresh does).
    """
    from apinizer_pulumi.client import ApinizerError

    try:
        yield
    except (ApinizerError, ApinizerResourceError) as error:
        reason = describe(error) if isinstance(error, ApinizerError) else error.message
        pulumi.log.warn(f"{who}: created, but {step} failed ({reason}); {then}")


def confirmed(who: str, step: str, write: Callable[[], T], before: T) -> T:
    """The outputs' value of one part of a new resource, as far as the gateway confirmed it.

    ``write`` carries out ``step`` after a confirmed create and returns what the gateway then holds
    for that part; ``before`` is what it holds without it (a list that ``write`` fills as each of its
    requests is answered records the ones that were). A failure is a warning (:func:`after_create`)
    and ``before`` is recorded: declared inputs differ from it, so the next ``pulumi up`` sends the
    rest, where outputs that repeated the inputs would have shown no change at all.
    """
    result = before
    with after_create(who, step, "it is recorded as not done, and the next `pulumi up` does it"):
        result = write()
    return result
