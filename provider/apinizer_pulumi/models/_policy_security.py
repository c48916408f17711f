"""Security policies: authentication, JWT/OAuth2/OIDC, mTLS, encryption and signing, JOSE,
SAML and WS-Security (filled in by the policy-security work)."""
