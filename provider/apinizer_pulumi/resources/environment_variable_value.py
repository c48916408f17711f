"""``EnvironmentVariableValue``: one environment's value of a project's environment variable, and its
provider.

The management API writes a variable whole: an update replaces its whole ``environmentValueList``.
So that each environment's stack can own its own value on one management API (docs/stacks.md), every
write here merges: it reads the variable afresh, replaces (adds, or on delete removes) this
environment's entry, and writes back every other entry as read. A value the gateway masks (not
visible) cannot be written back, so a write that would have to is refused, naming the environment,
and nothing is lost. The variable is created with the first value and deleted with the last.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/update-environment-variable.md

A create that finds its environment's entry already there refuses, as every kind's create of an
object that exists does, unless ``adopt`` takes it over: the entry is someone's (the console's,
another stack's), and a silent merge would have two stacks overwrite each other, and the first
destroy delete what the other declares. The one exception is this create's own earlier attempt
(:class:`_Attempts`).

The provider's module path and class name
(``apinizer_pulumi.resources.environment_variable_value.EnvironmentVariableValueProvider``) are
recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from . import api_proxy_deployment
from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, ApinizerProvider, inputs_of, is_unknown, lazy_model
from ._connection import ConnectionArgs
from ._errors import MANAGED_ELSEWHERE, TAKE_OVER, ApinizerResourceError, translated

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient
    from apinizer_pulumi.models import EnvironmentValue

KEYS = ("project_name", "variable_name", "environment_name")


def identity(id_: str, props: Mapping[str, Any]) -> tuple[str, str, str]:
    """(project, variable, environment) from the state, or from the id when the state lacks them."""
    return api_proxy_deployment.identity(id_, props, KEYS)


def subject(props: Mapping[str, Any], id_: str = "") -> str:
    """``apinizer:EnvironmentVariableValue BACKEND_URL in Demo for test`` for messages."""
    try:
        project, variable, environment = identity(id_, props)
    except ValueError:
        return "apinizer:EnvironmentVariableValue"
    return f"apinizer:EnvironmentVariableValue {variable} in {project} for {environment}"


#: One lock per variable (gateway, project, name): merges of one variable in this process take turns.
_MERGES: dict[tuple[str, str, str], threading.Lock] = {}
_MERGES_LOCK = threading.Lock()


def _merging(client: ApinizerClient, project: str, name: str) -> threading.Lock:
    """The lock of a variable's merges. The engine runs the steps of one operation side by side, and two
    merges that read the variable at once would each write back the other's entry as it was before:
    the later write undoes the earlier one."""
    with _MERGES_LOCK:
        return _MERGES.setdefault((str(client.base_url), project, name.casefold()), threading.Lock())


@dataclass
class _Attempts:
    """What the attempts of one merge know of each other.

    A create whose write may have been carried out with its answer lost (``sent``) tries again from
    a fresh read, and may find its environment's entry: that attempt's, when the entry is what this
    declaration writes (the same visibility, and the same value, or a masked one), as the look-ups
    after a lost create answer judge (``_create``); anyone else's otherwise. An entry that was there
    before anything was sent is someone else's, even with the declared value.
    """

    creating: bool
    sent: bool = False


def _written_by(entry: EnvironmentValue, props: Mapping[str, Any]) -> bool:
    """Whether ``entry`` is what a write of ``props`` makes (a masked value counts as equal)."""
    return entry.visible != bool(props.get("secret")) and entry.value in (None, str(props["value"]))


def _already_exists(props: Mapping[str, Any], id_: str) -> ApinizerResourceError:
    from .endpoint import FORCED

    _, name, environment = identity(id_, props)
    return ApinizerResourceError(
        f"{subject(props, id_)}: already exists on the gateway (variable {name} has a value for "
        f"{environment}); {TAKE_OVER} (it then gets the declared value){FORCED}{MANAGED_ELSEWHERE}")


class EnvironmentVariableValueProvider(ApinizerProvider):
    """Merge one environment's value into a variable; refresh from the project's list; remove it on delete."""

    kind = "EnvironmentVariableValue"
    inputs_model = lazy_model("apinizer_pulumi.resources._environment_variable_inputs",
                              "EnvironmentVariableValueInputs")
    replace_fields = KEYS
    ignored_fields = (CONNECTION, "adopt")

    def _merge(self, client: ApinizerClient, props: Mapping[str, Any], id_: str = "", *,
               remove: bool = False, creating: bool = False) -> bool:
        """Merge this environment's value in (or out), exactly once under lost answers; return
        whether the variable's deployment reached this environment (:meth:`_deployed`).

        Each attempt starts from a fresh read, so an attempt after one whose answer was lost finds
        what that one did (the variable created, the entry merged) and writes the same list again, or
        nothing: repeating a merge is safe where repeating a create or a blind write would not be.
        A create (``creating``) takes over an entry of its environment only with ``adopt``, or when
        its own earlier attempt wrote it (:class:`_Attempts`).
        """
        from ._create import sent_until_answered

        project, name, _ = identity(id_, props)
        attempts = _Attempts(creating=creating)
        with _merging(client, project, name):
            return sent_until_answered(lambda: self._merge_once(client, props, id_, attempts, remove=remove))

    @staticmethod
    def _deployed(props: Mapping[str, Any], id_: str, write: Callable[[], object]) -> bool:
        """Run a write of the variable; return whether its deployment reached this value's environment.

        The write stands whatever its deployment did. A deployment that failed in another environment
        is that environment's (its own stack's) business, and only a warning here; one that failed in
        this environment is recorded (``deployed: false``), so that the next ``pulumi up`` writes the
        value again.
        """
        from apinizer_pulumi.client import DeploymentFailedError

        environment = identity(id_, props)[2]
        try:
            write()
        except DeploymentFailedError as error:
            failed = {env for env, _ in error.failures} or {"every environment"}
            here = bool(failed & {environment, "every environment"})
            where = "; ".join(f"{env}: {message or 'no message'}" for env, message in error.failures)
            then = "; the next `pulumi up` deploys it again" if here else ""
            pulumi.log.warn(f"{subject(props, id_)}: written, but the variable's deployment failed in "
                            f"{where or 'every environment'}{then}")
            return not here
        return True

    def _merge_once(self, client: ApinizerClient, props: Mapping[str, Any], id_: str, attempts: _Attempts,
                    *, remove: bool) -> bool:
        from apinizer_pulumi.models import EnvironmentValue, EnvironmentVariableSpec

        from ._reads import environment_variable_now, variables_writing

        project, name, environment = identity(id_, props)
        with variables_writing(client, project):
            # Afresh: a merge must not start from a shared, older read.
            live = environment_variable_now(client, project, name)
            if live is not None and live.global_:
                raise ApinizerResourceError(
                    f"{subject(props, id_)}: the variable has one global value for every environment, so it "
                    "has no per-environment values to merge into; declare it with EnvironmentVariable "
                    "environment_values in one stack instead (docs/stacks.md)")
            entries = (live.environment_value_list if live is not None else None) or []
            mine = next((item for item in entries if item.environment_name == environment), None)
            if attempts.creating and mine is not None and not props.get("adopt") \
                    and not (attempts.sent and _written_by(mine, props)):
                raise _already_exists(props, id_)
            others = [item for item in entries if item.environment_name != environment]
            masked = sorted(item.environment_name for item in others if item.value is None)
            if masked:
                raise ApinizerResourceError(
                    f"{subject(props, id_)}: the value of {', '.join(masked)} is secret, and the management "
                    "API shows it to no one, so writing the variable (which the API writes whole) would "
                    "erase it; nothing was changed. Secret values per environment are owned whole: one "
                    "EnvironmentVariable in one stack (docs/stacks.md)")
            if not remove:
                others.append(EnvironmentValue(environment_name=environment, value=str(props["value"]),
                                               visible=not props.get("secret")))
            if live is None and remove:
                return True
            attempts.sent = True  # from here on, a failure may come after the gateway wrote
            if live is None:
                first = EnvironmentVariableSpec(name=name, global_=False, environment_value_list=others)
                return self._deployed(props, id_, lambda: client.environment_variables.create(project, first))
            if not others:
                return self._deployed(props, id_, lambda: client.environment_variables.delete(project, name))
            return self._deployed(props, id_, lambda: client.environment_variables.update(
                project, EnvironmentVariableSpec(name=name, description=live.description, global_=False,
                                                 environment_value_list=others),
                current_name=name))

    def check_inputs(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        """The inputs; and, at preview, an environment the project does not have, listing the ones
        it has (the deployments' one read of the list per process: docs/stacks.md)."""
        from ._environments import environment_failures, preview_client

        result = super().check_inputs(olds, news)
        project, environment = (result.inputs.get(key) for key in ("project_name", "environment_name"))
        if result.failures or not isinstance(project, str) or is_unknown(project) or is_unknown(environment):
            return result
        client = preview_client(getattr(self, "_stack_config", None), result.inputs)
        if client is None:
            return result
        return dyn.CheckResult(result.inputs,
                               environment_failures(client, project, {"environment_name": environment}))

    @translated(lambda self, props: subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        deployed = self._merge(self.client(props), props, creating=True)
        self.created(props)
        return dyn.CreateResult("/".join(identity("", props)), self.outputs(props, deployed=deployed))

    @translated(lambda self, id_, olds, news: subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        deployed = self._merge(self.client(news), news, id_)
        return dyn.UpdateResult(self.outputs(news, deployed=deployed))

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        """The declared changes; and a change when the last write's deployment failed in this
        environment, even with the inputs unchanged: the update writes and deploys the value again."""
        result = super().diff(id_, olds, news)
        if not result.changes and olds.get("deployed") is False:
            return dyn.DiffResult(changes=True, replaces=[], stables=[], delete_before_replace=False)
        return result

    @translated(lambda self, id_, props: subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_environment_variable

        project, name, environment = identity(id_, props)
        live = self.read_recorded(props, lambda client: live_environment_variable(client, project, name))
        entry = next((item for item in (live.environment_value_list if live is not None else None) or []
                      if item.environment_name == environment), None)
        if live is None or live.global_ or entry is None:
            return dyn.ReadResult(None, {})  # this environment's value is gone
        inputs = {key: value for key, value in inputs_of(props).items() if key != "deployed"}
        inputs.update(zip(KEYS, (project, name, environment), strict=True))
        # A masked value cannot be read: the recorded one stands.
        inputs.update(value=entry.value if entry.value is not None else props.get("value"),
                      secret=not entry.visible)
        # The API shows no deployments of a variable: what the last write's answer said stands.
        deployed = {"deployed": props["deployed"]} if "deployed" in props else {}
        return self.refreshed(id_, props, self.outputs(inputs, **deployed), inputs)

    @translated(lambda self, id_, props: subject(props, id_))
    def delete(self, id_: str, props: dict[str, Any]) -> None:
        if self.held_by_new(props):
            return
        self.with_recorded_client(props, lambda client: self._merge(client, props, id_, remove=True))


class EnvironmentVariableValue(dyn.Resource, module="apinizer", name="EnvironmentVariableValue"):
    """One environment's value of a project's environment variable, owned by one stack.

    Id: ``{project}/{variable}/{environment}``. For one management API shared by the stacks of several
    environments (docs/stacks.md): each stack declares its own environment's value, and every write
    merges it into the variable, leaving the other environments' values as they are. The variable is
    created with the first value and deleted with the last. A write refuses, changing nothing, when
    another environment's value is secret (the API masks it and writes the variable whole). A create
    that finds its environment's value already there refuses, unless ``adopt``. Refresh reads the
    project's list; a secret value's drift cannot be seen.
    """

    project_name: pulumi.Output[str]
    """The project that holds the variable."""
    variable_name: pulumi.Output[str]
    """The variable's name."""
    environment_name: pulumi.Output[str]
    """The environment whose value this is."""
    value: pulumi.Output[str]
    """The value in that environment (a secret output when ``secret`` is true)."""
    secret: pulumi.Output[bool]
    """Whether the value is secret (not visible on the gateway)."""
    deployed: pulumi.Output[bool]
    """Whether the last write's deployment reached this environment; when false, the next
    ``pulumi up`` writes the value again."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a value of this environment that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        variable_name: pulumi.Input[str],
        environment_name: pulumi.Input[str],
        value: pulumi.Input[str],
        secret: bool = False,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare one environment's value of an environment variable.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the variable.
        :param variable_name: The variable, created with its first value.
        :param environment_name: The environment, e.g. ``production``.
        :param value: The value there.
        :param secret: Send the value as not visible (masked by the gateway) and store it as a secret.
        :param adopt: Take over this environment's value of the variable when it already exists
            (default false); it then gets the declared value.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, variable_name=variable_name,
                               environment_name=environment_name,
                               value=pulumi.Output.secret(value) if secret else value, secret=secret,
                               adopt=adopt, deployed=None)
        props[CONNECTION] = connection_props(connection)
        options = resource_options(opts)
        if secret:
            options = pulumi.ResourceOptions.merge(
                options, pulumi.ResourceOptions(additional_secret_outputs=["value"]))
        super().__init__(EnvironmentVariableValueProvider(), resource_name, props, options)
