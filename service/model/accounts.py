"""What an account and its personal access tokens are, as values every layer shares.

The scopes a personal access token may carry (docs/accounts.md has the table
of which route needs which), the token's prefix, and the account kinds.
"""

# The token of a person or bot account: ``tab_pat_`` + 43 URL-safe characters.
# Seat tokens start ``tab_`` only (service/model/tokens.py), so the two never
# collide and a secret scanner can tell them apart.
PAT_PREFIX = "tab_pat_"

SCOPES = ("match:read", "match:play", "match:create", "account:read", "account:write")
ACCOUNT_KINDS = ("human", "bot")
ACCOUNT_STATUSES = ("active", "closed")

# What a name may be typed as: ASCII letters, digits, "_" and "-", or their
# full-width forms (U+FF10-FF19, U+FF21-FF3A, U+FF41-FF5A, U+FF3F, U+FF0D),
# which NFKC folds into ASCII; 2 to 24 of them. Anything else (another
# script's look-alike, a ligature) is refused. The schema documents it.
NAME_INPUT_PATTERN = r"^[A-Za-z0-9_\-\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFF3F\uFF0D]{2,24}$"

# How many of the last finished matches the public profile lists (``recent``).
RECENT = 10
