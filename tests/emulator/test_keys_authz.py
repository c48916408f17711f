"""Who may call the keys and secrets operations: ROLE_API_SECURITY for every one ("required for all keys
and secrets operations"; the spec names certificates among its objects), ROLE_DEPLOY_UNDEPLOY_PROXIES
as well for the writes, which deploy. No fixture user but the administrator has ROLE_API_SECURITY, so
every other one gets 403 ``forbidden``, and a bad token 401, before anything is read; nothing changes.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/index.md
"""

from __future__ import annotations

import re

import pytest

from apinizer_emulator import certificate_routes, crypto_key_routes, jwk_routes, keystore_routes

from .conftest import ANALYST_TOKEN, GUEST_TOKEN, Api, assert_error

KEY_ROUTES = [
    *jwk_routes.ROUTES,
    *certificate_routes.ROUTES,
    *crypto_key_routes.ROUTES,
    *keystore_routes.ROUTES,
]
PARAMS = {
    "projectName": "Demo",
    "jwkName": "x",
    "certificateName": "x",
    "keyName": "x",
    "keystoreName": "x",
    "environmentName": "test",
}
CASES = [
    (method, re.sub(r"{(\w+)}", lambda m: PARAMS[m.group(1)], template))
    for method, template, *_ in KEY_ROUTES
]


@pytest.mark.parametrize(("method", "path"), CASES)
def test_only_a_user_with_the_security_role_passes(api: Api, dev_api: Api, method: str, path: str) -> None:
    for token in (dev_api.token, ANALYST_TOKEN, GUEST_TOKEN):
        response = api.request(method, path, {"name": "x"}, token=token)
        assert_error(
            response, 403, "forbidden", "Access is denied! The user of this token lacks ROLE_API_SECURITY."
        )
    assert_error(
        api.request(method, path, {"name": "x"}, token="nope"), 401, "unauthorized_client", "Invalid token"
    )
    # The administrator passes the role check: what comes back is the operation's own answer.
    assert api.request(method, path, {"name": "x"}).status_code in (200, 400)
    state = api.state()["projects"]
    assert all(not p.get(kind) for p in state for kind in ("jwks", "certificates", "cryptoKeys", "keystores"))
