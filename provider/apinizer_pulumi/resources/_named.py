"""The lifecycle of a named object: one object that a project holds under a name it alone has (an IP
group, an RLCL, a proxy group, a credential, an environment variable), made exactly once or, with
``adopt``, taken over.

* :func:`identity` and :func:`subject` read (project, name) from the props, or else from the id
  ``{project}/{name}``; :class:`ProjectScoped` gives a provider both from its ``replace_fields``.
* :func:`create_or_adopt` runs a create under the exactly-once rule (``_create.ExactlyOnce``) and,
  when the name is taken, takes the object over if the resource says ``adopt``, or fails saying how
  to (the same message for every kind).
* :class:`NamedObject` deletes: the object is left to a create of the same operation that took it
  over (``_replace``, by :class:`HandedOver`, which ``Endpoint``, ``Policy`` and the deployments use
  as well), and one already gone is taken as deleted.

A kind's module holds what is its own: its create (the spec it sends, how to look it up after a lost
answer, what taking it over writes) through :meth:`NamedObject.create_once`, its update and read
(:meth:`ProjectScoped.recorded_inputs`; :class:`WrittenOnly` where the API cannot read it back), and
for delete :meth:`NamedObject.remove` and :meth:`NamedObject.gone`. Used by ``IpGroup``, ``Rlcl``,
``ApiProxyGroup``, ``Credential``, ``EnvironmentVariable``, ``Connection``, ``Jwk``, ``Certificate``
and the key material (``_key_material``); ``ApiProxy`` and ``Policy`` use :func:`create_or_adopt` for
the create of a name that adopt found free.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import pulumi.dynamic as dyn

from ._base import CONNECTION, ApinizerProvider, inputs_of
from ._errors import MANAGED_ELSEWHERE, TAKE_OVER, ApinizerResourceError, translated

if TYPE_CHECKING:
    import re

    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError

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


def already_exist(error: BadRequestError) -> bool:
    """The answer of the proxy and policy pages to a create of a taken name (``... already exist ...``)."""
    return "already exist" in (error.error_description or "")


def create_or_adopt(
    create: ExactlyOnce[T],
    already_exists: re.Pattern[str] | Callable[[BadRequestError], bool],
    props: Mapping[str, Any],
    who: str,
    take_over: Callable[[], object] | None,
    *,
    forced: bool = True,
    adopted_gets: str = "",
) -> bool:
    """Run ``create``; when the name is taken, ``take_over`` it if ``props`` say ``adopt``, else fail
    saying so. True when the object was taken over (the caller then claims it, see ``_replace``).

    :param already_exists: The gateway's answer to a create of a taken name: a pattern of its
        description, or a test of the error.
    :param take_over: What adopting writes; None where adopt was settled before the create (the
        name was looked up and found free), so that a taken name fails whatever ``adopt`` says.
    :param forced: Whether the message names ``pulumi up --replace``, which meets a taken name most often.
    :param adopted_gets: What the message says taking over writes, e.g. `` (it then gets every
        declared field)``.
    """
    from apinizer_pulumi.client import BadRequestError

    from .endpoint import FORCED

    taken = already_exists if callable(already_exists) \
        else lambda error: bool(already_exists.search(error.error_description or ""))
    try:
        create.run()
    except ApinizerResourceError as error:
        raise ApinizerResourceError(f"{who}: {error.message}") from None
    except BadRequestError as error:
        if not taken(error):
            raise
        if take_over is None or not props.get("adopt"):
            raise ApinizerResourceError(
                f"{who}: already exists on the gateway ({error.status_code} {error.error}: "
                f"{error.error_description}); {TAKE_OVER}{adopted_gets}{FORCED if forced else ''}"
                f"{MANAGED_ELSEWHERE}"
            ) from None
        take_over()
        return True
    return False


class HandedOver(ApinizerProvider):
    """A delete that leaves the object to a create of this operation that made or took over the same
    one (a forced replace, see ``_replace``), and otherwise runs :meth:`delete_from` with the
    connection the state recorded. A kind supplies ``subject`` and ``delete_from``."""

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        """The resource named in messages."""
        raise NotImplementedError

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        """Delete the object of ``props`` (or of the id); one already gone is no failure."""
        raise NotImplementedError

    @translated(lambda self, id_, props: self.subject(props, id_))
    def delete(self, id_: str, props: dict[str, Any]) -> None:
        if self.held_by_new(props):
            return  # replaced in place: the object is the new resource's now
        self.with_recorded_client(props, lambda client: self.delete_from(client, id_, props))


class ProjectScoped(ApinizerProvider):
    """A provider whose resource is named by (project, name): ``replace_fields`` are those two inputs,
    and its id is ``{project}/{name}``."""

    def identity(self, id_: str, props: Mapping[str, Any]) -> tuple[str, str]:
        """(project, name) of ``props``, or of the id."""
        return identity(id_, props, name_key=self.replace_fields[1])

    def subject(self, props: Mapping[str, Any], id_: str = "") -> str:
        """``apinizer:<kind> <name> in <project>`` for messages."""
        return subject(self.kind, props, id_, name_key=self.replace_fields[1])

    def recorded_inputs(self, id_: str, props: Mapping[str, Any],
                        computed: Collection[str] = ()) -> dict[str, Any]:
        """What a refresh starts its inputs from: the recorded props without the ``computed``
        outputs, the identifiers taken from the id where there are none (a read from the id alone)."""
        project, name = self.identity(id_, props)
        inputs = {key: value for key, value in inputs_of(props).items() if key not in computed}
        inputs.setdefault("project_name", project)
        inputs.setdefault(self.replace_fields[1], name)
        return inputs


class NamedObject(ProjectScoped, HandedOver):
    """Create a named object exactly once or take it over (:meth:`create_once`); delete it: left to a
    create of this operation that took it over, gone already is done. Named by ``project_name`` and
    ``name`` unless the kind says otherwise; ``connection`` and ``adopt`` are never a change."""

    replace_fields: ClassVar[tuple[str, ...]] = ("project_name", "name")
    ignored_fields: ClassVar[tuple[str, ...]] = (CONNECTION, "adopt")

    def create_once(self, create: ExactlyOnce[Any],
                    already_exists: re.Pattern[str] | Callable[[BadRequestError], bool],
                    props: Mapping[str, Any], who: str, take_over: Callable[[], object], *,
                    writing: contextlib.AbstractContextManager[object] | None = None, forced: bool = True,
                    adopted_gets: str = "") -> bool:
        """:func:`create_or_adopt` inside ``writing`` (the context of the kind's shared reads); an
        object taken over is claimed (``created``). True when it was taken over."""
        with writing if writing is not None else contextlib.nullcontext():
            adopted = create_or_adopt(create, already_exists, props, who, take_over, forced=forced,
                                      adopted_gets=adopted_gets)
        if adopted:
            self.created(props)
        return adopted

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        """Delete the object (a kind supplies the call, in the context its shared reads need)."""
        raise NotImplementedError

    def gone(self, error: APIStatusError) -> bool:
        """Whether the gateway's answer to a delete says the object (or its project) does not exist."""
        raise NotImplementedError

    def delete_from(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import APIStatusError

        try:
            self.remove(client, *self.identity(id_, props))
        except APIStatusError as error:
            # Gone already (deleted outside Pulumi, or a repeated delete whose answer was lost).
            if not self.gone(error):
                raise


class WrittenOnly(NamedObject):
    """A named object the API cannot read back (an IP group, an RLCL): refresh keeps what was last
    written, and drift made outside Pulumi is not seen."""

    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        return dyn.ReadResult(id_, self.outputs(props))
