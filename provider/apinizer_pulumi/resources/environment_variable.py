"""``EnvironmentVariable``: a project's environment variable with its value per environment, and its provider.

Create, update and delete deploy (or undeploy) the variable to every environment at once, as the
API does. Refresh reads the project's variable list, one request shared by every variable of the
project; secret values come back masked, so their drift cannot be seen
(docs/resources/environment-variable.md).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md

The provider's module path and class name
(``apinizer_pulumi.resources.environment_variable.EnvironmentVariableProvider``) are recorded by
reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props
from ._base import CONNECTION, ApinizerProvider, inputs_of, lazy_model
from ._connection import ConnectionArgs
from ._errors import translated
from ._named import NamedObject
from ._undeployed import UNDEPLOYED, deployed, redeploy_diff, undeployed_outputs

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient, APIStatusError
    from apinizer_pulumi.models import EnvironmentVariable as LiveVariable
    from apinizer_pulumi.models import EnvironmentVariableSpec

    from ._environment_variable_inputs import EnvironmentVariableInputs

# The documented answers: "Environment variable (name: X) already exists!" (create) and
# "Environment variable (name: X) was not found!" (get, update, delete).
_ALREADY_EXISTS = re.compile(r"\bEnvironment variable\b.*\balready exists\b", re.IGNORECASE | re.DOTALL)
_NOT_FOUND = re.compile(r"\bEnvironment variable\b.*\bwas not found\b", re.IGNORECASE | re.DOTALL)
#: The outputs that hold values, stored as secrets when ``secret`` is not plainly false.
VALUE_OUTPUTS = ("global_value", "environment_values")


def _inputs(props: Mapping[str, Any]) -> EnvironmentVariableInputs:
    from ._environment_variable_inputs import EnvironmentVariableInputs

    return EnvironmentVariableInputs.model_validate(
        {key: value for key, value in inputs_of(props).items() if key != CONNECTION and value is not None})


def _matches(live: LiveVariable, declared: EnvironmentVariableInputs) -> bool:
    """Whether the live variable is what this declaration makes (masked values count as equal)."""
    spec = declared.spec()
    if (live.description or None) != (spec.description or None) or live.global_ != spec.global_:
        return False
    if spec.global_:
        return live.global_visible == spec.global_visible and (
            live.global_value is None or live.global_value == spec.global_value)
    wanted = {item.environment_name: item for item in spec.environment_value_list or []}
    found = {item.environment_name: item for item in live.environment_value_list or []}
    if set(wanted) != set(found):
        return False
    return all(
        found[env].visible == item.visible and found[env].value in (None, item.value)
        for env, item in wanted.items()
    )


def _live_inputs(live: LiveVariable, recorded: Mapping[str, Any], inputs: dict[str, Any]) -> dict[str, Any]:
    """The inputs as the gateway shows them, from the recorded ``inputs`` without what the gateway
    shows; a masked value is taken from the state (it cannot be seen)."""
    if live.description:
        inputs["description"] = live.description
    if live.global_:
        masked = live.global_value is None
        inputs["global_value"] = recorded.get("global_value") if masked else live.global_value
        if inputs["global_value"] is None:
            inputs["global_value"] = ""
        inputs["secret"] = not live.global_visible
        return inputs
    old = recorded.get("environment_values") or {}
    values: dict[str, Any] = {}
    for item in live.environment_value_list or []:
        value = item.value if item.value is not None else old.get(item.environment_name)
        values[item.environment_name] = value if value is not None else ""
    inputs["environment_values"] = values
    visible = {item.visible for item in live.environment_value_list or []}
    # Mixed visibility is no declaration's: shown as drift either way.
    inputs["secret"] = (not visible.pop()) if len(visible) == 1 else None
    return inputs


def _environments_of(spec: EnvironmentVariableSpec) -> list[str]:
    """The environments a write of ``spec`` deploys to, as :data:`UNDEPLOYED` names them."""
    if spec.global_:
        return ["every environment"]
    return sorted({item.environment_name for item in spec.environment_value_list or []})


class EnvironmentVariableProvider(NamedObject):
    """Create (and deploy), update in place, refresh from the project's list, delete (and undeploy)."""

    kind = "EnvironmentVariable"
    inputs_model = lazy_model(
        "apinizer_pulumi.resources._environment_variable_inputs", "EnvironmentVariableInputs")

    def _deployed(self, props: Mapping[str, Any], operation: str, send: Any) -> list[str]:
        """Run a write and return the environments whose deployment failed (``_undeployed``)."""
        return deployed(self.subject(props), operation, send)

    @staticmethod
    def _recorded(props: Mapping[str, Any], undeployed: list[str]) -> dict[str, Any]:
        """The outputs of a write whose deployment failed in ``undeployed`` (recorded only if any)."""
        return ApinizerProvider.outputs(props, **undeployed_outputs(undeployed))

    def diff(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.DiffResult:
        """The declared changes; and a change when the last write's deployment failed somewhere."""
        return redeploy_diff(super().diff(id_, olds, news), olds)

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        from ._create import ExactlyOnce
        from ._reads import live_environment_variable, variables_writing

        project, name = self.identity("", props)
        who = self.subject(props)
        client = self.client(props)
        declared = _inputs(props)
        spec = declared.spec()

        # Until a create is answered, its deployment is unknown: a create confirmed by the look-up after
        # a lost answer lost the deployment's result with it, and the API shows no deployments of a
        # variable. So it is recorded as not done, and the next `pulumi up` deploys it again.
        undeployed: list[str] | None = None

        def send() -> None:
            nonlocal undeployed
            with variables_writing(client, project):
                undeployed = self._deployed(
                    props, "created", lambda: client.environment_variables.create(project, spec))

        create = ExactlyOnce[Any](
            send=send,
            look_up=lambda: live_environment_variable(client, project, name),
            made_by=lambda live: _matches(live, declared),
            already_exists=lambda error: bool(_ALREADY_EXISTS.search(error.error_description)),
            noun="environment variable",
            namesake="an environment variable with this name",
        )
        def take_over() -> None:
            nonlocal undeployed
            undeployed = self._write(client, project, name, declared, props)

        self.create_once(create, _ALREADY_EXISTS, props, who, take_over)
        if undeployed is None:
            undeployed = _environments_of(spec)
            pulumi.log.warn(f"{who}: created, but the answer that reports its deployment was "
                            "lost; the next `pulumi up` deploys it again")
        return dyn.CreateResult(f"{project}/{name}", self._recorded(props, undeployed))

    def _write(self, client: ApinizerClient, project: str, name: str, declared: EnvironmentVariableInputs,
               props: Mapping[str, Any]) -> list[str]:
        from ._reads import variables_writing

        with variables_writing(client, project):
            return self._deployed(props, "updated", lambda: client.environment_variables.update(
                project, declared.spec(), current_name=name))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        project, name = self.identity(id_, news)
        undeployed = self._write(self.client(news), project, name, _inputs(news), news)
        return dyn.UpdateResult(self._recorded(news, undeployed))

    @translated(lambda self, id_, props: self.subject(props, id_))
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        from ._reads import live_environment_variable

        project, name = self.identity(id_, props)
        live = self.read_recorded(
            props, lambda client: live_environment_variable(client, project, name))
        if live is None:
            return dyn.ReadResult(None, {})
        inputs = _live_inputs(live, props, self.recorded_inputs(
            id_, props, ("description", *VALUE_OUTPUTS, "secret", UNDEPLOYED)))
        # The API shows no deployments of a variable: a failure the last write recorded stays.
        outs = self._recorded({**inputs, CONNECTION: props.get(CONNECTION)}, props.get(UNDEPLOYED) or [])
        return self.refreshed(id_, props, outs, inputs)

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        from ._reads import variables_writing

        with variables_writing(client, project):
            self._deployed({"project_name": project, "name": name}, "deleted",
                           lambda: client.environment_variables.delete(project, name))

    @staticmethod
    def gone(error: APIStatusError) -> bool:
        from apinizer_pulumi.client import NotFoundError

        from ._errors import container_gone

        if isinstance(error, NotFoundError):
            return container_gone(error)
        return error.status_code == 400 and bool(_NOT_FOUND.search(error.error_description or ""))


class EnvironmentVariable(dyn.Resource, module="apinizer", name="EnvironmentVariable"):
    """An environment variable of a project: one value for every environment, or one per environment.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new variable is
    made first); everything else changes in place, in one update of the whole variable. Create,
    update and delete deploy (or undeploy) it to every environment at once, as the API does.

    With ``secret=True`` the values are sent as not visible (the gateway masks them) and are
    stored as secrets in the state; a value given as a secret (``config.require_secret``) is stored
    as a secret whatever ``secret`` says, but the gateway shows it unless ``secret=True``.
    Refresh reads the project's list (one request for all its variables) and shows drift of the
    description, the environments, the visibility and every visible value; a masked value cannot
    be read, so its drift is not seen.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the variable."""
    name: pulumi.Output[str]
    """The variable's name, unique within the project."""
    description: pulumi.Output[str | None]
    """The variable's description."""
    global_value: pulumi.Output[str | None]
    """The value for every environment (a secret output when ``secret`` is true)."""
    environment_values: pulumi.Output[dict[str, str] | None]
    """The value of each environment by its name (a secret output when ``secret`` is true)."""
    secret: pulumi.Output[bool]
    """Whether the values are secret (not visible on the gateway)."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a variable that already exists."""
    undeployed_environments: pulumi.Output[list[str] | None]
    """The environments where the last write's deployment failed (None when it passed everywhere):
    the next ``pulumi up`` deploys the variable again."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        global_value: pulumi.Input[str] | None = None,
        environment_values: pulumi.Input[Mapping[str, pulumi.Input[str]]] | None = None,
        description: pulumi.Input[str] | None = None,
        secret: bool = False,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an environment variable. Give ``global_value`` or ``environment_values``.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the variable.
        :param name: The variable's name, unique within the project; a change replaces it.
        :param global_value: One value for every environment.
        :param environment_values: One value per environment, by environment name, e.g.
            ``{"test": "https://api.test.example", "production": "https://api.example"}``.
        :param description: Free text.
        :param secret: Send the values as not visible (masked by the gateway) and store them as
            secrets in the state (default false).
        :param adopt: Take over a variable of the same name that already exists (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        if environment_values is not None:
            # One Output for the whole map: secret as a whole when any value is a secret, so that a
            # secret given for one environment never sits in the state in clear beside the others.
            environment_values = pulumi.Output.from_input(environment_values)
        if secret:
            global_value = pulumi.Output.secret(global_value) if global_value is not None else None
            environment_values = (pulumi.Output.secret(environment_values)
                                  if environment_values is not None else None)
        props = resource_props(project_name=project_name, name=name, description=description,
                               global_value=global_value, environment_values=environment_values,
                               secret=secret, adopt=adopt, undeployed_environments=None)
        props[CONNECTION] = connection_props(connection)
        options = resource_options(opts)
        if secret:
            options = pulumi.ResourceOptions.merge(
                options, pulumi.ResourceOptions(additional_secret_outputs=list(VALUE_OUTPUTS)))
        super().__init__(EnvironmentVariableProvider(), resource_name, props, options)
