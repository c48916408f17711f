"""The lifecycle of per-environment key material: an object of a project that holds, for each
environment it names, a file or a key (a keystore, a crypto key), owned whole by one resource.

* The material comes from a file in the program's folder (its absolute path is the input; the
  provider reads it when it sends it) or from a value (a secret Output). The state keeps its
  sha256, never the bytes: ``check`` computes the digest of each source (:meth:`digest_sources`),
  ``diff`` compares digests (a moved file with the same bytes is no change), and refresh compares
  the digest of what the gateway answers with the recorded one.
* Create is exactly once (``_create.ExactlyOnce``: a lost answer is settled by a look-up whose
  digests must be the declared ones), or, with ``adopt``, takes over an object of the same name by
  writing it whole. Update writes the whole object (the update pages take "the complete object")
  and the gateway deploys it to each environment at once.
* Refresh reads the project's list of the kind once for every resource of the project
  (``_reads.live_key_object``); an object the gateway no longer has returns no id.
* Secret parts of an environment (a password, a private key, base64 content) are unwrapped where
  they come in and wrapped again in every result handed to the engine; a failure names the field
  and the environment, never a value.

A kind's module holds what is its own: :attr:`family` (the client's attribute and the shared
list's key), :attr:`kind_word` (how the gateway's messages name it), the wire field of its list,
its secret and source fields, :meth:`digest_sources`, :meth:`body_item`, :meth:`live_entries`, and
:meth:`extra_fields` (what the object holds beside its environments).
"""

from __future__ import annotations

import base64
import binascii
import errno
import hashlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pulumi.dynamic as dyn

from ._base import CONNECTION, is_unknown, same
from ._connection import unwrap_secret
from ._errors import ApinizerResourceError, refuse_if_changed, translated
from ._files import read_file, unreadable
from ._named import NamedObject

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError

ENVIRONMENTS = "environments"
#: The digests of every environment, by environment name: a top-level property apart from
#: ``environments``, because the engine marks a whole list secret when an item holds a secret (it
#: recurses into objects only), and a diff must still show which digest changed.
DIGESTS = "sha256"
_PEM = b"-----BEGIN"


def names_a_file(field: str) -> bool:
    """Whether an environment's field is a path (``file``, ``private_key_file``...)."""
    return field == "file" or field.endswith("_file")


def digest(content: bytes) -> str:
    """The sha256 of some material, in hex: what the state keeps and diffs show."""
    return hashlib.sha256(content).hexdigest()


def text_bytes(text: str) -> bytes:
    """The bytes a key written as text stands for: PEM as it is, base64 decoded (DER)."""
    if text.lstrip().startswith("-----BEGIN"):
        return text.encode()
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("is neither PEM nor base64") from None


def bytes_as_text(content: bytes) -> str:
    """What the API takes for the bytes of a key file: PEM as it is, DER in base64."""
    if content.lstrip().startswith(_PEM):
        return content.decode("ascii", errors="replace")
    return base64.b64encode(content).decode()


def program_path(path: Any, where: str) -> Any:
    """A ``file`` argument as the inputs hold it: its absolute path, resolved in the program against
    its working directory (the program's folder under ``pulumi``); an Output is left as it is."""
    from ._args import InputValueError

    if not isinstance(path, str | os.PathLike):
        return path
    resolved = Path(path).absolute()
    if not resolved.is_file():
        reason = os.strerror(errno.EISDIR if resolved.is_dir() else errno.ENOENT)
        raise InputValueError(unreadable(where, path, reason))
    return str(resolved)


def checked_file(path: str, expected: str | None, where: str) -> bytes:
    """The file's bytes when they still have the digest ``check`` recorded (the preview's)."""
    content = read_file(path, where)
    refuse_if_changed(content, expected, f"{where} {path!r}", read_by="the preview")
    return content


class PerEnvironmentMaterial(NamedObject):
    """Create (exactly once, or adopt), update, refresh and delete an object with one entry of key
    material per environment."""

    # How an update is sent, not what the object holds: never a change by itself.
    ignored_fields = (CONNECTION, "adopt", "update_referenced_jwks")

    # --- what a kind supplies ---------------------------------------------------------------

    #: The client's attribute (``keystores``), also the shared list's key.
    family: ClassVar[str]
    #: How the gateway's messages name the kind (``Keystore (name: x) is not found!``).
    kind_word: ClassVar[str]
    #: The wire name of the per-environment list, which the gateway's messages quote.
    list_field: ClassVar[str]
    #: The output that holds the gateway's id.
    id_output: ClassVar[str]
    #: The object in messages ("keystore").
    noun: ClassVar[str]
    #: An environment's fields that hold a secret.
    secret_keys: ClassVar[tuple[str, ...]]
    #: An environment's fields that name where the material comes from: diffs compare the digests.
    source_keys: ClassVar[tuple[str, ...]]
    #: Every digest field an environment may have.
    digest_fields: ClassVar[tuple[str, ...]] = ("sha256",)

    def digest_sources(self, entry: dict[str, Any], where: str) -> list[tuple[str, str]]:
        """Fill ``entry``'s digests from its sources; the (field, reason) of each that cannot be read."""
        raise NotImplementedError

    def body_item(self, entry: Mapping[str, Any], where: str) -> dict[str, Any]:
        """The API's item for one environment, its files read (and checked against their digests)."""
        raise NotImplementedError

    def live_entries(self, live: Any) -> list[dict[str, Any]]:
        """What the gateway holds per environment, as the inputs compare it (digests, no material)."""
        raise NotImplementedError

    def extra_fields(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """The body's fields beside name, description and the list (``keyType``)."""
        return {}

    def live_extra(self, live: Any) -> dict[str, Any]:
        """The inputs that the gateway's object gives beside its description and environments."""
        return {}

    # --- secrets --------------------------------------------------------------------------

    def plain(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with every environment's secrets unwrapped (they may come signature-tagged)."""
        out = dict(props)
        entries = unwrap_secret(out.get(ENVIRONMENTS))
        if isinstance(entries, list):
            out[ENVIRONMENTS] = [
                {key: unwrap_secret(value) for key, value in unwrap_secret(entry).items()}
                if isinstance(unwrap_secret(entry), Mapping) else entry for entry in entries]
        return out

    def digest_view(self, entry: Mapping[str, Any]) -> Any:
        """What :data:`DIGESTS` shows of one environment (its file's sha256)."""
        return entry.get("sha256")

    def with_digests(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with :data:`DIGESTS` made from its environments."""
        out = dict(props)
        entries = out.get(ENVIRONMENTS)
        if isinstance(entries, list):
            out[DIGESTS] = {entry["environment_name"]: self.digest_view(entry) for entry in entries
                            if isinstance(entry, Mapping) and isinstance(entry.get("environment_name"), str)
                            and not is_unknown(entry["environment_name"])}
        return out

    def to_engine(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """A result for the engine: the digests shown apart, the secrets marked."""
        return self.secret(self.with_digests(props))

    def secret(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with every environment's secrets marked secret, for what goes to the engine."""
        from pulumi.runtime import rpc

        out = dict(props)
        entries = out.get(ENVIRONMENTS)
        if isinstance(entries, list):
            out[ENVIRONMENTS] = [
                {key: rpc.wrap_rpc_secret(value) if key in self.secret_keys and value is not None
                 and not is_unknown(value) else value for key, value in entry.items()}
                if isinstance(entry, Mapping) else entry for entry in entries]
        return out

    # --- check and diff -------------------------------------------------------------------

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        from pulumi.runtime import rpc

        result = super().check_inputs(self.plain(olds), self.plain(news))
        inputs, failures = dict(result.inputs), list(result.failures)
        entries = inputs.get(ENVIRONMENTS)
        if isinstance(entries, list):
            digested = []
            for index, entry in enumerate(entries):
                if not isinstance(entry, Mapping):
                    digested.append(entry)
                    continue
                entry = dict(entry)
                for key in [name for name in self.source_keys if names_a_file(name)
                            and isinstance(entry.get(name), str) and not is_unknown(entry[name])]:
                    # Given as a dict to the provider, a relative path is the program's folder's.
                    entry[key] = str(Path(entry[key]).absolute())
                if any(is_unknown(entry.get(name)) for name in self.source_keys):
                    for name in self.digest_keys(entry):
                        entry[name] = rpc.UNKNOWN  # known at `up`: a preview shows it as a change
                else:
                    failures.extend(dyn.CheckFailure(f"{ENVIRONMENTS}.{index}.{field}", reason)
                                    for field, reason in self.digest_sources(entry, self.where(index, entry)))
                digested.append(entry)
            inputs[ENVIRONMENTS] = digested
        return dyn.CheckResult(self.to_engine(inputs), failures)

    def digest_keys(self, entry: Mapping[str, Any]) -> list[str]:
        """The digest fields of ``entry`` (one per source it gives)."""
        return ["sha256"]

    @staticmethod
    def where(index: int, entry: Mapping[str, Any]) -> str:
        """``environments[0] (environment 'test')`` for messages."""
        return f"{ENVIRONMENTS}[{index}] (environment {entry.get('environment_name')!r})"

    def compared(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` as diffs compare them: each environment by its digests, not by its sources."""
        out = self.plain(props)
        out.pop(self.id_output, None)
        entries = out.get(ENVIRONMENTS)
        if isinstance(entries, list):
            out[ENVIRONMENTS] = [
                {key: value for key, value in entry.items() if key not in self.source_keys}
                if isinstance(entry, Mapping) else entry for entry in entries]
        return out

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        return super().diff(id_, self.compared(olds), self.compared(news))

    # --- the body ---------------------------------------------------------------------------

    def body(self, props: Mapping[str, Any], name: str) -> dict[str, Any]:
        """The create and update body: every environment's material read, files checked."""
        items = []
        for index, entry in enumerate(props.get(ENVIRONMENTS) or []):
            try:
                items.append(self.body_item(entry, self.where(index, entry)))
            except ValueError as error:
                raise ApinizerResourceError(str(error)) from None
        body = {"name": name, "description": props.get("description"), **self.extra_fields(props),
                self.list_field: items}
        return {key: value for key, value in body.items() if value is not None}

    def naming_environments(self, error: BadRequestError, props: Mapping[str, Any]) -> str | None:
        """The gateway's refusal of one environment's item (``keyStoreEnvironmentList[0].file ...``)
        with the environment named as the inputs name it; None when it names no item."""
        text = error.error_description or ""
        entries = props.get(ENVIRONMENTS) or []
        found = re.search(re.escape(self.list_field) + r"\[(\d+)\]", text)
        if found is None or int(found.group(1)) >= len(entries):
            return None
        index = int(found.group(1))
        return f"{self.where(index, entries[index])}: the gateway refused it ({error.status_code} " \
               f"{error.error}: {text})"

    def written(self, props: Mapping[str, Any], write: Callable[[], object]) -> None:
        """Run a create or update; a refusal of one environment's item names that environment."""
        from apinizer_pulumi.client import BadRequestError

        try:
            write()
        except BadRequestError as error:
            message = self.naming_environments(error, props)
            if message is None:
                raise
            raise ApinizerResourceError(message) from None

    # --- the lifecycle --------------------------------------------------------------------

    def objects(self, client: ApinizerClient) -> Any:
        """The client's operations of this kind (``client.keystores``)."""
        return getattr(client, self.family)

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import ExactlyOnce, confirmed
        from ._reads import key_objects_writing

        props = self.plain(props)
        project, name = self.identity("", props)
        client = self.client(props)
        body = self.body(props, name)
        who = self.subject(props)
        objects = self.objects(client)

        def taken(error: BadRequestError) -> bool:
            return "already exist" in (error.error_description or "")

        create = ExactlyOnce[Any](
            send=lambda: self.written(props, lambda: objects.create(project, body)),
            look_up=lambda: objects.find(project, name),
            made_by=lambda live: self.as_declared(live, props),
            already_exists=taken,
            noun=self.noun,
            namesake=f"a {self.noun} with this name",
        )
        self.create_once(create, taken, props, who,
                         lambda: self.written(props, lambda: self.send_update(objects, project, body, props)),
                         writing=key_objects_writing(client, self.family, project), forced=False,
                         adopted_gets=" (it then gets every declared environment and field)")
        object_id = confirmed(who, "reading its id", lambda: self.live_id(client, project, name), None)
        outs = self.outputs(props, **{self.id_output: object_id})
        return dyn.CreateResult(f"{project}/{name}", self.to_engine(outs))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        from ._reads import key_objects_writing

        olds, news = self.plain(olds), self.plain(news)
        project, name = self.identity(id_, news)
        client = self.client(news)
        body = self.body(news, name)
        objects = self.objects(client)
        with key_objects_writing(client, self.family, project):
            try:
                self.written(news, lambda: self.send_update(objects, project, body, news))
            except ApinizerResourceError as error:
                raise ApinizerResourceError(f"{self.subject(news, id_)}: {error.message}") from None
        object_id = olds.get(self.id_output) or self.live_id(client, project, name)
        return dyn.UpdateResult(self.to_engine(self.outputs(news, **{self.id_output: object_id})))

    @staticmethod
    def send_update(objects: Any, project: str, body: object, props: Mapping[str, Any]) -> object:
        """``PUT`` the whole object (``body``, or a certificate's form); with ``update_referenced_jwks``
        (a scope), the JWKs made from it follow."""
        scope = props.get("update_referenced_jwks")
        return objects.update(project, body, update_referenced_jwks=scope is not None, update_scope=scope)

    def live_id(self, client: ApinizerClient, project: str, name: str) -> str | None:
        from ._reads import live_key_object

        live = live_key_object(client, self.family, self.kind_word, project, name)
        return None if live is None else live.id

    def as_declared(self, live: Any, props: Mapping[str, Any]) -> bool:
        """Whether a live object holds what ``props`` declare (the passwords cannot be read)."""
        return same(self.observed(props, live), self.compared(props))

    def observed(self, props: Mapping[str, Any], live: Any) -> dict[str, Any]:
        """``props`` (compared shape) with what the gateway holds: its description, each live
        environment's digests over the recorded entry (an environment the gateway added appears,
        one it dropped goes), and the kind's own fields."""
        recorded = self.compared(props)
        by_name = {entry.get("environment_name"): entry for entry in recorded.get(ENVIRONMENTS) or []
                   if isinstance(entry, Mapping)}
        entries = []
        for item in self.live_entries(live):
            before = by_name.get(item["environment_name"], {})
            # A digest the gateway no longer answers (a half of a key pair removed) goes too.
            entries.append({**{key: value for key, value in before.items() if key not in self.digest_fields},
                            **item})
        order = {name: index for index, name in enumerate(by_name)}
        entries.sort(key=lambda entry: order.get(entry["environment_name"], len(order)))
        out = {**recorded, ENVIRONMENTS: entries, **self.live_extra(live)}
        out["description"] = live.description
        if out["description"] is None:
            out.pop("description")
        return out

    @translated(lambda self, id_, props: self.subject(self.plain(props), id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_key_object

        props = self.plain(props)
        project, name = self.identity(id_, props)
        live = self.read_recorded(
            props, lambda client: live_key_object(client, self.family, self.kind_word, project, name))
        if live is None:
            return dyn.ReadResult(None, {})  # the gateway said it is gone: dropped from the state
        seen = self.observed(props, live)
        # The sources (paths, values) stay as recorded where the environment's digests did not move.
        recorded = {entry.get("environment_name"): entry for entry in props.get(ENVIRONMENTS) or []
                    if isinstance(entry, Mapping)}
        entries = []
        for entry in seen[ENVIRONMENTS]:
            before = recorded.get(entry["environment_name"], {})
            moved = any(not same(before.get(key), entry.get(key)) for key in self.digest_fields)
            entries.append(entry if moved else {**before, **entry})
        inputs = {**self.recorded_inputs(id_, props), **seen, ENVIRONMENTS: entries}
        if "description" not in seen:
            inputs.pop("description", None)
        inputs.pop(self.id_output, None)
        inputs = self.with_digests(inputs)
        outs = self.outputs(inputs, **{self.id_output: live.id})
        drifted = self.drifted(props, outs)
        return dyn.ReadResult(id_, self.to_engine(outs), self.to_engine(inputs) if drifted else None)

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import key_objects_writing

        with key_objects_writing(client, self.family, project):
            self.objects(client).delete(project, name)

    def gone(self, error: APIStatusError) -> bool:
        from apinizer_pulumi.client import NotFoundError
        from apinizer_pulumi.client._keys import key_object_not_found

        from ._errors import container_gone

        if isinstance(error, NotFoundError) and container_gone(error):
            return True
        return key_object_not_found(error, self.kind_word)


def secret_environments(entries: Any, secret_keys: Sequence[str]) -> Any:
    """A program's ``environments`` argument as properties: each entry's secret fields marked
    secret, and each ``*file`` path made absolute (``program_path``)."""
    import pulumi

    from ._args import to_props

    props = to_props(entries)
    if not isinstance(props, list):
        return props
    out = []
    for index, entry in enumerate(props):
        if isinstance(entry, dict):
            entry = dict(entry)
            for key in list(entry):
                if names_a_file(key):
                    entry[key] = program_path(entry[key], f"{ENVIRONMENTS}[{index}].{key}")
                elif key in secret_keys and entry[key] is not None:
                    entry[key] = pulumi.Output.secret(entry[key])
        out.append(entry)
    return out
