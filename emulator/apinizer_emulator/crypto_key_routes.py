"""HTTP handlers of crypto keys, and their routes (:func:`key_family_routes.material_routes`):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-keys.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-key.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-key.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-key.md
"""

from __future__ import annotations

from apinizer_pulumi.models import CryptoKeyList, CryptoKeyResponse, CryptoKeySpec

from . import crypto_keys
from .key_family_routes import MaterialFamily, material_routes
from .web import Route

KEYS = "/apiops/projects/{projectName}/keys/"

ROUTES: list[Route] = material_routes(
    MaterialFamily(
        "crypto key", KEYS, "keyName", crypto_keys, CryptoKeySpec, CryptoKeyList, CryptoKeyResponse
    )
)
