"""The one exception the providers raise, and the translation of client errors into it.

The SDK's dynamic provider server answers a failed call with ``traceback.format_exc()``, so
what ``pulumi up`` shows ends with ``<type>: <str(exc)>``. Gateway errors are therefore
re-raised as :class:`ApinizerResourceError` without a chained cause (no "During handling of
the above exception" block, no httpx frames), whose text is one line such as
``apinizer:Endpoint GET /api/users in Payments/PetStore: 400 bad_request: Endpoint can only be
added to REST API Proxies!``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerError, NotFoundError

P = ParamSpec("P")
R = TypeVar("R")


class ApinizerResourceError(Exception):
    """A failed operation on a gateway resource; ``str()`` is the whole user-facing message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


# The traceback's last line names the type as "<module>.<qualname>": name it where users import it.
ApinizerResourceError.__module__ = "apinizer_pulumi"


def describe(error: ApinizerError) -> str:
    """``400 bad_request: <description>`` for status errors, the client's text otherwise."""
    from apinizer_pulumi.client import APIStatusError

    if isinstance(error, APIStatusError):
        text = f"{error.status_code} {error.error}"
        return f"{text}: {error.error_description}" if error.error_description else text
    return str(error)


def translated(subject: Callable[..., str]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a provider method so client errors leave it as one clean line.

    ``subject`` receives the method's arguments and names the resource, for example
    ``apinizer:Endpoint GET /pets in Demo/PetStore``.
    """

    def decorate(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except ApinizerResourceError as error:
                message = error.message
            except Exception as error:
                # Looked up here, not imported with this module: see the resource modules.
                from apinizer_pulumi.client import ApinizerError

                if not isinstance(error, ApinizerError):
                    raise
                message = f"{subject(*args, **kwargs)}: {describe(error)}"
            raise ApinizerResourceError(message) from None

        return wrapper

    return decorate


# The gateway's own answers about a missing container: "ApiProxy (name: X) was not found!",
# "API Proxy with name (X) is not found in project!", "RLCL (name: X) was not found in project!".
_CONTAINER_NOT_FOUND = re.compile(r"\b(api\s*proxy|project|rlcl)\b.*\bnot found\b", re.IGNORECASE | re.DOTALL)


def container_gone(error: NotFoundError) -> bool:
    """True when a 404 is the gateway saying the proxy, project or RLCL does not exist.

    Any other 404 (a URL with a wrong path, a reverse proxy's page) is an error: taken for
    "gone", it would drop resources from the state on refresh and let destroy pass untouched.
    """
    return bool(_CONTAINER_NOT_FOUND.search(error.error_description or ""))
