"""The checks of a name and of a token that need no model: pure functions, no pydantic.

The models' validators run them, and so do the client's paths that build no model (a delete's
body, a token that came with its answer), so that those paths never import pydantic.
"""

from __future__ import annotations

import unicodedata

#: A token answer's lifetime, in seconds, when it gives none (RFC 6749 leaves ``expires_in`` optional):
#: what the token model and the client's model-free reading of a plain answer both assume.
DEFAULT_TOKEN_LIFETIME = 3600

#: Unicode categories no name may hold: they are invisible or reorder or break what is shown, so a
#: name holding one reads as another in a console, a diff or a log (``/pets\u202e`` shows
#: reversed, ``/pets\u200b`` as ``/pets``). Cc: C0 and C1 controls (NEL U+0085, CSI U+009B);
#: Cf: format characters (bidi controls U+202E and U+2066, U+200B, U+FEFF); Zl and Zp: the line
#: and paragraph separators U+2028 and U+2029.
_REFUSED_CATEGORIES = {
    "Cc": "control characters",
    "Cf": "invisible format or bidirectional control characters",
    "Zl": "line separators",
    "Zp": "paragraph separators",
}


def name_problem(value: str, what: str = "name") -> str | None:
    """Why ``value`` cannot be a name (the first refused character, by code point), or None."""
    for position, char in enumerate(value):
        kind = _REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            label = unicodedata.name(char, "")
            shown = f"U+{ord(char):04X}" + (f" {label}" if label else "")
            return f"{what} must not contain {kind}: {shown} at position {position}"
    return None


def token_problem(token: str, what: str = "token") -> str | None:
    """Why ``token`` cannot go into an ``Authorization`` header, or None; never showing the token.

    A bearer token is printable ASCII without spaces (RFC 6750's b64token is narrower still). A
    CR, LF, NUL, space, control or non-ASCII character would be refused by the HTTP library on the
    way out, and its refusal, token and all, quoted in httpcore's DEBUG log.
    """
    for position, char in enumerate(token):
        if not "\x21" <= char <= "\x7e":
            return (
                f"{what} holds U+{ord(char):04X} at position {position}, which an HTTP header cannot "
                "carry: a token is printable ASCII without spaces (its value is not shown)"
            )
    return None
