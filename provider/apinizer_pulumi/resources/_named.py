"""What the kinds named by (project, name) share: their identity, their subject, and a create that
either makes the object exactly once or, with ``adopt``, takes over the one that exists.

Used by ``IpGroup`` and ``EnvironmentVariable``; the lifecycle is the one ``Rlcl`` follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ._errors import MANAGED_ELSEWHERE, TAKE_OVER, ApinizerResourceError

if TYPE_CHECKING:
    from ._create import ExactlyOnce

T = TypeVar("T")


def identity(id_: str, props: Mapping[str, Any], *, name_key: str = "name") -> tuple[str, str]:
    """(project, name) from the props (the name under ``name_key``), or else from an id
    ``{project}/{name}``."""
    if props.get("project_name") and props.get(name_key):
        return str(props["project_name"]), str(props[name_key])
    project, name = id_.split("/", 1)
    return project, name


def subject(kind: str, props: Mapping[str, Any], id_: str = "", *, name_key: str = "name") -> str:
    """``apinizer:<kind> <name> in <project>`` for messages."""
    try:
        project, name = identity(id_, props, name_key=name_key)
    except ValueError:
        return f"apinizer:{kind}"
    return f"apinizer:{kind} {name} in {project}"


def create_or_adopt(
    create: ExactlyOnce[T],
    already_exists: re.Pattern[str],
    props: Mapping[str, Any],
    who: str,
    take_over: Callable[[], None],
) -> bool:
    """Run ``create``; when the name is taken, ``take_over`` it if ``props`` say ``adopt``, else fail
    saying so. True when the object was taken over (the caller then claims it, see ``_replace``)."""
    from apinizer_pulumi.client import BadRequestError

    from .endpoint import FORCED

    try:
        create.run()
    except ApinizerResourceError as error:
        raise ApinizerResourceError(f"{who}: {error.message}") from None
    except BadRequestError as error:
        if not already_exists.search(error.error_description):
            raise
        if not props.get("adopt"):
            raise ApinizerResourceError(
                f"{who}: already exists on the gateway ({error.status_code} {error.error}: "
                f"{error.error_description}); {TAKE_OVER}{FORCED}{MANAGED_ELSEWHERE}"
            ) from None
        take_over()
        return True
    return False
