"""Where the generator finds the gateway: flags, then a stack's config file, then ``APINIZER_*``."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from apinizer_pulumi.client._constants import ENV_PASSWORD, ENV_TOKEN, ENV_URL, ENV_USERNAME

_FIELDS = (("url", ENV_URL), ("token", ENV_TOKEN), ("username", ENV_USERNAME), ("password", ENV_PASSWORD))


class ConnectionSettingsError(Exception):
    """Settings that cannot be used, with a message that says what to do instead."""


@dataclasses.dataclass(frozen=True)
class Connection:
    """Resolved settings; ``repr`` never shows the token or the password."""

    url: str | None = None
    token: str | None = dataclasses.field(default=None, repr=False)
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)
    #: Where each value came from, for messages (``--url``, ``Pulumi.dev.yaml``, ``APINIZER_URL``).
    sources: tuple[tuple[str, str], ...] = ()


def stack_settings(project_dir: Path, stack: str) -> dict[str, str]:
    """``apinizer:url``/``token``/``username``/``password`` of ``Pulumi.<stack>.yaml``, plain values only.

    An encrypted value (``secure:``) needs the stack's secrets provider to read, which this command
    does not have: it says so and names the variable to set instead.
    """
    import yaml  # only with --stack: a run without one, and --help, never load it

    path = project_dir / f"Pulumi.{stack}.yaml"
    if not path.is_file():
        raise ConnectionSettingsError(f"--stack {stack}: {path} does not exist")
    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        raise ConnectionSettingsError(f"--stack {stack}: {path} is not valid YAML: {error}") from None
    config = data.get("config") if isinstance(data, dict) else None
    found: dict[str, str] = {}
    for field, env in _FIELDS:
        value = (config or {}).get(f"apinizer:{field}")
        if value is None:
            continue
        if isinstance(value, dict) and "secure" in value:
            raise ConnectionSettingsError(
                f"apinizer:{field} in {path.name} is an encrypted secret, which this command cannot "
                f"decrypt; set {env} (or pass --{field}) instead"
            )
        if not isinstance(value, str | int | float):
            raise ConnectionSettingsError(f"apinizer:{field} in {path.name} must be a string")
        found[field] = str(value)
    return found


def resolve_connection(
    *,
    flags: dict[str, str | None],
    project_dir: Path | None = None,
    stack: str | None = None,
    environ: dict[str, str] | None = None,
) -> Connection:
    """Each setting from the flags, else the stack's config, else the environment.

    Credentials go as a group: the first source that gives any credential gives all of them, so a
    token from one place is never mixed with a password from another.
    """
    env = dict(os.environ if environ is None else environ)
    from_stack = stack_settings(project_dir or Path.cwd(), stack) if stack else {}
    from_env = {field: env[name] for field, name in _FIELDS if env.get(name)}
    sources = [
        ("flags", {k: v for k, v in flags.items() if v}),
        (f"Pulumi.{stack}.yaml", from_stack),
        ("environment", from_env),
    ]
    url = next(((where, values["url"]) for where, values in sources if values.get("url")), None)
    credentials: dict[str, str] = {}
    where_credentials = ""
    for where, values in sources:
        given = {k: v for k, v in values.items() if k != "url"}
        if given:
            credentials, where_credentials = given, where
            break
    if url is None:
        raise ConnectionSettingsError(
            f"no gateway URL: pass --url, use --stack with apinizer:url in its config, or set {ENV_URL}"
        )
    if not credentials:
        raise ConnectionSettingsError(
            f"no credentials: pass --token, use --stack with apinizer:token in its config, or set "
            f"{ENV_TOKEN} (or {ENV_USERNAME} and {ENV_PASSWORD})"
        )
    return Connection(
        url=url[1],
        token=credentials.get("token"),
        username=credentials.get("username"),
        password=credentials.get("password"),
        sources=(("url", url[0]), ("credentials", where_credentials)),
    )
