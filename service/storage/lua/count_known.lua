-- Count one request against a bearer token's rate-limit window, but only
-- when the token is known: a made-up token must not get a fresh allowance
-- (the caller then counts the request against the client's address).
--
-- KEYS[1] token index (token:{<sha256>}), KEYS[2] the token's window counter,
-- KEYS[3] the account token lookup (pat:{<sha256>}): the token is known when
-- it is a live seat token or a live account token (all three keys carry the
-- same hash tag, so one cluster slot); ARGV[1] the counter's TTL in seconds.
-- Returns the count after this request, or -1 for an unknown token.

if redis.call('EXISTS', KEYS[1], KEYS[3]) == 0 then return -1 end
local count = redis.call('INCR', KEYS[2])
if count == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[1])) end
return count
