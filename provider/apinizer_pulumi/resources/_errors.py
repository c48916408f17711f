"""The one exception the providers raise, and the translation of client errors into it.

The SDK's dynamic provider server (``python -m pulumi.dynamic``) answers a failed call with
``traceback.format_exc()``, and the Pulumi CLI shows that text whole as the resource's error:
a Python traceback through the server's and our frames, ending with ``<type>: <str(exc)>``.
Gateway errors are therefore re-raised as :class:`ApinizerResourceError` without a chained
cause (no "During handling of the above exception" block, no httpx frames), whose text is one
line such as ``apinizer:Endpoint GET /api/users in Payments/PetStore: 400 bad_request: Endpoint
can only be added to REST API Proxies!``; and :func:`quiet_provider_server`, called when the
server configures a provider, has the server answer with that line alone. Any other exception
(a bug) keeps its full traceback.
"""

from __future__ import annotations

import functools
import re
import sys
import traceback
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from .._provider_server import in_provider_server

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


#: The advice of a create that finds its object on the gateway already. The object is someone's: the
#: console's, an earlier program's, or another stack's of this program (another environment's stack, on
#: one management API: docs/stacks.md), and only the user knows which.
TAKE_OVER = "set adopt=True to take it over"
MANAGED_ELSEWHERE = ("; or, if another stack manages it (another environment's stack of this program, "
                     "say), do not declare it here but refer to it by its name, with a function or a "
                     "StackReference (docs/stacks.md)")


def refuse_if_changed(content: bytes, expected: object, what: str, read_by: str = "the program") -> None:
    """Refuse to send ``content`` (a file's, read now) when ``expected``, the sha256 recorded when
    ``read_by`` read it, is not its own: the file changed in between, and the plan showed the old one."""
    import hashlib

    if isinstance(expected, str) and hashlib.sha256(content).hexdigest() != expected:
        raise ApinizerResourceError(f"{what} changed after {read_by} read it (its sha256 is no longer "
                                    f"{expected}); nothing was sent: run `pulumi up` again")


# The traceback's last line names the type as "<module>.<qualname>": name it where users import it.
ApinizerResourceError.__module__ = "apinizer_pulumi"




class _ServerTraceback:
    """The ``traceback`` module as the provider server sees it: our errors formatted as their one line."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> object:
        return getattr(self._module, name)

    def format_exc(self, limit: int | None = None, chain: bool = True) -> str:
        error = sys.exc_info()[1]
        if isinstance(error, ApinizerResourceError):
            return error.message
        text: str = self._module.format_exc(limit, chain)
        return text


def quiet_provider_server() -> None:
    """Have the SDK's dynamic provider server answer an :class:`ApinizerResourceError` with its message only.

    The server formats every failure with the ``traceback`` module of its own namespace; there, and
    nowhere else, that name is swapped for a stand-in that formats our errors as their one line, so
    the CLI shows ``error: apinizer:Endpoint ... : 401 unauthorized_client: Invalid token`` instead of
    a traceback. Outside that server (a program, a test calling a provider directly) this does nothing,
    and if a later SDK formats its errors another way, the traceback comes back ending with the same line.
    """
    if not in_provider_server():
        return
    server = sys.modules["__main__"]
    if getattr(server, "traceback", None) is traceback:
        server.traceback = _ServerTraceback(traceback)  # type: ignore[attr-defined]


def describe(error: ApinizerError) -> str:
    """``400 bad_request: <description>`` for status errors, the client's text otherwise."""
    from apinizer_pulumi.client import APIStatusError

    if isinstance(error, APIStatusError):
        text = f"{error.status_code} {error.error}"
        return f"{text}: {error.error_description}" if error.error_description else text
    return str(error)


#: What a refused login means in a refresh or a destroy, and the command that works (docs/secrets.md).
#: Without the program, the engine configures the provider with the stack config recorded at the last
#: `up`, so a token rotated in the config since reaches only the operations that run the program.
_RUN_PROGRAM = ("; a `pulumi {0}` that does not run the program uses the credentials of the stack config "
                "recorded at the last `up`: after a rotation (`pulumi config set --secret apinizer:token "
                "...`), run `pulumi {0} --run-program`, which uses the current config")
RUN_PROGRAM_HINT = {"read": _RUN_PROGRAM.format("refresh"), "delete": _RUN_PROGRAM.format("destroy")}


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
                from apinizer_pulumi.client import ApinizerError, AuthenticationError

                if not isinstance(error, ApinizerError):
                    raise
                message = f"{subject(*args, **kwargs)}: {describe(error)}"
                if isinstance(error, AuthenticationError):
                    message += RUN_PROGRAM_HINT.get(method.__name__, "")
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
