"""HTTP handlers of keystores, and their routes (:func:`key_family_routes.material_routes`):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-keystores.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-keystore.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-keystore.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-keystore.md
"""

from __future__ import annotations

from apinizer_pulumi.models import KeystoreList, KeystoreResponse, KeystoreSpec

from . import keystores
from .key_family_routes import MaterialFamily, material_routes
from .web import Route

KEYSTORES = "/apiops/projects/{projectName}/keystores/"

ROUTES: list[Route] = material_routes(
    MaterialFamily(
        "keystore", KEYSTORES, "keystoreName", keystores, KeystoreSpec, KeystoreList, KeystoreResponse
    )
)
