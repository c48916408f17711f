"""``client.credentials`` against the live emulator: every operation through the real client, and the
gateway's errors as the client's exceptions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apinizer_pulumi.client import ApinizerClient, BadRequestError, NotFoundError, PermissionDeniedError
from apinizer_pulumi.models import AccessType, CredentialAccess, CredentialSpec

SECRET = "Client-Test-Pa55"


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


def spec(**changes: object) -> CredentialSpec:
    return CredentialSpec.model_validate(
        {"email": "c@example.com", "full_name": "Client", "username": "client", "password": SECRET, **changes}
    )


def test_a_credential_through_every_operation(client: ApinizerClient) -> None:
    created = client.credentials.create("Demo", spec(ip_list=["10.1.0.0/16"]))
    assert created.ok and created.deployment_result is not None
    assert [r.environment_name for r in created.deployment_result.per_environment()] == ["test", "production"]

    [live] = client.credentials.list("Demo")
    assert (live.username, live.ip_list, live.password) == ("client", ["10.1.0.0/16"], None)

    client.credentials.update("Demo", spec(enabled=False, description="off"))
    found = client.credentials.find("Demo", "client")
    assert found is not None and (found.enabled, found.description) == (False, "off")

    client.credentials.change_password("Demo", "client", "Another-Pa55")
    assert client.credentials.find("Demo", "client") == found  # only the password changed

    client.credentials.grant_access(
        "Demo",
        "client",
        [CredentialAccess(name="PetStore", type="API_PROXY"), {"name": "Orders", "type": "API_PROXY"}],
    )
    assert [(a.name, a.type) for a in client.credentials.access("Demo", "client")] == [
        ("PetStore", AccessType.API_PROXY),
        ("Orders", AccessType.API_PROXY),
    ]
    client.credentials.revoke_access("Demo", "client", [{"name": "Orders", "type": "API_PROXY"}])
    assert [a.name for a in client.credentials.access("Demo", "client")] == ["PetStore"]

    deleted = client.credentials.delete("Demo", "client")
    assert (
        deleted.deployment_result is not None
        and deleted.deployment_result.message == "Undeployment completed successfully"
    )
    assert client.credentials.list("Demo") == [] and client.credentials.find("Demo", "client") is None


def test_the_gateway_errors_as_exceptions(client: ApinizerClient, emulator_url: str) -> None:
    client.credentials.create("Demo", spec())
    with pytest.raises(BadRequestError) as taken:
        client.credentials.create("Demo", spec())
    assert taken.value.error_description == "There is already a credential has this name!"
    with pytest.raises(BadRequestError) as missing:
        client.credentials.change_password("Demo", "ghost", "x")
    assert missing.value.error_description == "Credential (username: ghost) was not found!"
    with pytest.raises(BadRequestError) as granted:
        client.credentials.grant_access("Demo", "client", [{"name": "Nowhere", "type": "API_PROXY"}])
    assert "API Proxy (name:Nowhere) is not found" in granted.value.error_description
    with pytest.raises(NotFoundError):
        client.credentials.list("Nowhere")
    with ApinizerClient(emulator_url, token="dev-developer-token") as developer:
        assert [c.username for c in developer.credentials.list("Demo")] == ["client"]
        with pytest.raises(PermissionDeniedError):  # every write deploys: ROLE_DEPLOY_UNDEPLOY_PROXIES
            developer.credentials.delete("Demo", "client")
    assert SECRET not in repr(client.credentials.find("Demo", "client"))
