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
