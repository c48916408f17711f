"""The composition root: the emulator's families, in order, and what holds them together.

Each family is ``<family>.py`` (its tables as ``SCHEMA`` and ``DATA_TABLES``, its state and rules)
and ``<family>_routes.py`` (its HTTP handlers, as ``ROUTES``). Families share only the modules
below them (:mod:`deployments`, :mod:`rules`, :mod:`web`, :mod:`auth`, :mod:`store` and the
like), never each other's (``pyproject.toml``'s import contracts check it); this module is the
one place that knows them all. :data:`FAMILIES` lists their tables (parents first: a reset
empties them children first), :data:`ROUTES` their routes, and :class:`Backend` loads the
fixture into them and shows their state.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import (
    api_proxies,
    api_proxy_groups,
    auth,
    certificates,
    connections,
    credentials,
    crypto_keys,
    endpoints,
    environment_variables,
    geolocation,
    ip_groups,
    jwks,
    keystores,
    policies,
    projects,
    reports,
    rlcls,
    secrets_at_rest,
)
from .fixtures import Fixture, FixtureError
from .store import Family, Store, register

if TYPE_CHECKING:
    from .web import Route


def family(module: ModuleType, **migrations: Any) -> Family:
    """A family module's tables: its ``SCHEMA`` and ``DATA_TABLES`` (and migrations, when it has them)."""
    return Family(module.__name__.rsplit(".", 1)[-1], module.SCHEMA, module.DATA_TABLES, **migrations)


#: Every family's tables, parents before the families that refer to them.
FAMILIES: tuple[Family, ...] = (
    family(auth),
    family(projects),
    family(api_proxies),
    family(endpoints),
    family(rlcls),
    family(reports),
    # A file from before policies were stored whole is brought up to date before the schema runs.
    family(policies, before_schema=(policies.migrate,)),
    family(credentials),
    family(ip_groups),
    family(environment_variables),
    family(api_proxy_groups),
    family(connections),
    family(geolocation),
    # A JWK is made from a certificate's, a key's or a keystore's material: it comes after them.
    family(certificates),
    family(crypto_keys),
    family(keystores),
    family(jwks),
    # Rows from before secrets were stored hashed (variables, proxies' API keys, policies).
    Family("secrets_at_rest", after_schema=(secrets_at_rest.migrate,)),
)
register(*FAMILIES)


def _route_groups() -> list[tuple[list[Route], bool]]:
    """Every family's routes, in the order of the OpenAPI document's paths, each group with whether
    its pages answer 400 for an object that the path names and that does not exist even when they
    read no body (projects, environments, API proxies and their report, RLCLs, IP groups,
    environment variables, credentials, groups, connections, geolocation and the keys and secrets).
    The endpoint list, the policies' pages and the organization report do not.

    Imported here, when the app is built, not with this module: the CLI's token commands use the
    families' state without the emulator's server libraries (the ``emulator`` extra)."""
    from . import (
        api_proxy_group_routes,
        api_proxy_routes,
        auth_routes,
        certificate_routes,
        connection_routes,
        credential_routes,
        crypto_key_routes,
        endpoint_routes,
        environment_variable_routes,
        geolocation_routes,
        ip_group_routes,
        jwk_routes,
        keystore_routes,
        policy_routes,
        project_routes,
        report_routes,
        rlcl_routes,
    )

    return [
        (auth_routes.TOKEN_ROUTES, False),
        (report_routes.ORGANIZATION_ROUTES, False),
        (endpoint_routes.ROUTES, False),
        (rlcl_routes.ROUTES, True),
        (auth_routes.TEST_ROUTES, False),
        (project_routes.PROJECT_ROUTES, True),
        (report_routes.API_PROXY_ROUTES, True),
        (project_routes.ENVIRONMENT_ROUTES, True),
        (api_proxy_routes.ROUTES, True),
        (ip_group_routes.ROUTES, True),
        (environment_variable_routes.ROUTES, True),
        (credential_routes.ROUTES, True),
        (policy_routes.ROUTES, False),
        (api_proxy_group_routes.ROUTES, True),
        (connection_routes.ROUTES, True),
        (geolocation_routes.ROUTES, True),
        (jwk_routes.ROUTES, True),
        (certificate_routes.ROUTES, True),
        (crypto_key_routes.ROUTES, True),
        (keystore_routes.ROUTES, True),
    ]


def routes() -> list[Route]:
    """Every route of the API, family by family, in the order of the OpenAPI document's paths. Of the
    templates a path fits, the one with the fewest parameters is matched (``app.EmulatorApp.route_of``),
    whatever the order here."""
    return [route for group, _ in _route_groups() for route in group]


def missing_object_paths() -> frozenset[str]:
    """The path templates whose pages answer 400 for a missing object even without a body (the
    OpenAPI document lists a 400 for them)."""
    return frozenset(path for group, answers_400 in _route_groups() if answers_400 for _, path, *_ in group)


def key_state(db: sqlite3.Connection, project: str) -> dict[str, Any]:
    """A project's keys and secrets for ``/_emulator/state``: never a private key, a JWK's private
    members, a password or a keystore's file."""
    return {
        "jwks": jwks.state(db, project),
        "certificates": certificates.state(db, project),
        "cryptoKeys": crypto_keys.state(db, project),
        "keystores": keystores.state(db, project),
    }


#: The fixture's objects, family by family, each after what it refers to. Deployments come once
#: the proxies have their endpoints (a deployment's fingerprint covers them) and before policies.
_FIXTURE_LOADERS: tuple[Callable[[sqlite3.Connection, Fixture], None], ...] = (
    projects.load_fixture,
    api_proxies.load_fixture,
    endpoints.load_fixture,
    rlcls.load_fixture,
    reports.load_fixture,
    api_proxies.load_deployments,
    policies.load_fixture,
)


class Backend:
    """The emulator's state: a store with every family, the fixture it starts from, the clock,
    and the tokens. Thread-safe: every operation is one store transaction."""

    def __init__(self, store: Store, fixture: Fixture, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.fixture = fixture
        self._clock = clock
        self._offset = 0.0
        # Hashing is deliberately slow: the fixture's passwords are hashed at the first reset, once per
        # backend, and not at all for a database that is already initialized (a token command).
        self._fixture_password_hashes: dict[str, str] | None = None
        self.tokens = auth.Tokens(store, self.now)
        with store.read() as db:
            initialized = db.execute("SELECT 1 FROM meta WHERE key = 'initialized'").fetchone() is not None
        if not initialized:
            self.reset()

    # -- clock ---------------------------------------------------------------------------------

    def now(self) -> float:
        return self._clock() + self._offset

    def advance_clock(self, seconds: float) -> float:
        """Move the emulator's clock forward (token expiry tests); returns the new time."""
        self._offset += seconds
        return self.now()

    # -- tokens (the CLI's token commands and tests) ---------------------------------------------

    def create_personal_token(
        self, username: str, name: str, expires_at: float | None
    ) -> tuple[str, auth.TokenInfo]:
        return self.tokens.create_personal_token(username, name, expires_at)

    def list_tokens(self, *, include_access: bool = False) -> list[auth.TokenInfo]:
        return self.tokens.list_tokens(include_access=include_access)

    def revoke_token(
        self, *, token_id: int | None = None, username: str | None = None, name: str | None = None
    ) -> list[auth.TokenInfo]:
        return self.tokens.revoke_token(token_id=token_id, username=username, name=name)

    # -- fixtures --------------------------------------------------------------------------------

    def _password_hashes(self) -> dict[str, str]:
        if self._fixture_password_hashes is None:
            self._fixture_password_hashes = {
                user.username: auth.hash_password(user.password) for user in self.fixture.users
            }
        return self._fixture_password_hashes

    def reset(self) -> None:
        """Back to the fixture: every stored object is replaced by what the fixture declares."""
        hashes = self._password_hashes()  # before the write: nothing waits on the hashing
        try:
            with self.store.write() as db:
                for table in self.store.data_tables:
                    db.execute(f"DELETE FROM {table}")
                self._offset = 0.0
                self.tokens.load_fixture(db, self.fixture, hashes, self.now())
                for load in _FIXTURE_LOADERS:
                    load(db, self.fixture)
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('initialized', '1')")
        except sqlite3.IntegrityError as exc:  # the fixture declares something twice
            raise FixtureError(f"the fixture declares an object twice ({exc})") from exc

    # -- inspection ------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything stored except secrets (no password, token or their hashes), in one snapshot."""
        with self.store.read() as db:
            people = auth.state(db)
            found = []
            for project in db.execute("SELECT name FROM projects ORDER BY seq").fetchall():
                name = project["name"]
                proxies = api_proxies.state(db, name)
                for proxy in proxies:
                    proxy["endpoints"] = endpoints.state(db, proxy["id"])
                    proxy["policies"] = policies.proxy_state(db, proxy["id"])
                found.append(
                    {
                        "name": name,
                        "apiProxies": proxies,
                        "rlcls": rlcls.state(db, name),
                        "ipGroups": ip_groups.state(db, name),
                        "environmentVariables": environment_variables.state(db, name),
                        # Secrets null, as a list answers them.
                        "connections": connections.state(db, name),
                        # JWKs, certificates, keys and keystores, their key material masked.
                        **key_state(db, name),
                    }
                )
            data_models = reports.data_models(db)
            # Credentials with their access, never a password or its hash.
            access = credentials.state(db)
            # The MMDB file's hash and metadata, not its bytes.
            located = geolocation.state(db)
        return {
            "now": self.now(),
            "users": people["users"],
            "tokens": people["tokens"],
            "projects": found,
            "dataModelList": data_models,
            "credentials": access,
            "geolocation": located,
        }
