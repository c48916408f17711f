"""The lifecycle of a list owned whole: what one parent object holds (an RLCL's endpoints, credentials or
condition), written by one resource that replaces it whole.

Create replaces the parent's list with the declared one, sent again after a failure that may pass
(a replace is harmless to repeat: ``_create.sent_until_answered``); update replaces it again; delete
removes what the resource declared, and a parent that is gone took its list with it. The API cannot
read these lists, so refresh keeps what was last written. Id: ``{project}/{parent}``.

A kind's module holds what is its own:

* ``replace_fields``: ``("project_name", <the parent's input>)``, which also make the id;
* :meth:`OwnedList.replace`: the client's call that writes the whole list (``created`` tells a create
  from an update, for an API that has one call for each);
* :meth:`OwnedList.remove`: the call that removes the declared list, and :meth:`OwnedList.declares_any`
  when a resource may declare nothing to remove;
* :meth:`OwnedList.parent_gone`: the gateway's answers that say the parent (or its project) is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pulumi.dynamic as dyn

from ._errors import translated
from ._named import ProjectScoped

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError


class OwnedList(ProjectScoped):
    """Replace a parent's list whole on create and update; keep it on refresh; remove it on delete."""

    # --- what a kind supplies ---------------------------------------------------------------

    def replace(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any], *,
                created: bool) -> None:
        """Make the parent's list exactly the one ``props`` declare."""
        raise NotImplementedError

    def remove(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any]) -> None:
        """Remove the list ``props`` declare from the parent."""
        raise NotImplementedError

    def declares_any(self, props: Mapping[str, Any]) -> bool:
        """Whether ``props`` declare anything that delete must remove."""
        return True

    def parent_gone(self, error: APIStatusError) -> bool:
        """Whether the gateway's answer says the parent (or its project) does not exist."""
        raise NotImplementedError

    # --- the lifecycle ----------------------------------------------------------------------

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import sent_until_answered

        # A replace of the whole list: repeating it after a lost answer leaves the same list.
        project, parent = self.identity("", props)
        client = self.client(props)
        sent_until_answered(lambda: self.replace(client, project, parent, props, created=True))
        return dyn.CreateResult(f"{project}/{parent}", self.outputs(props))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        project, parent = self.identity(id_, news)
        self.replace(self.client(news), project, parent, news, created=False)
        return dyn.UpdateResult(self.outputs(news))

    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        # The API cannot read the list: what was last written is what is known.
        return dyn.ReadResult(id_, self.outputs(props))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def delete(self, id_: str, props: dict[str, Any]) -> None:
        if self.declares_any(props):
            self.with_recorded_client(props, lambda client: self._remove(client, id_, props))

    def _remove(self, client: ApinizerClient, id_: str, props: Mapping[str, Any]) -> None:
        from apinizer_pulumi.client import APIStatusError

        project, parent = self.identity(id_, props)
        try:
            self.remove(client, project, parent, props)
        except APIStatusError as error:
            if not self.parent_gone(error):  # the parent is gone, and its list with it
                raise
