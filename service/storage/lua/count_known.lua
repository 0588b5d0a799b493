-- Count one request against an account token's rate-limit window, but only
-- when the token is known: a made-up token must not get a fresh allowance
-- (the caller then counts the request against the client's address). A seat
-- token's window is kept with its match (count_seat.lua): for one, this
-- script counts nothing and names the match.
--
-- KEYS[1] token index (token:{<sha256>}), KEYS[2] the token's window counter,
-- KEYS[3] the account token lookup (pat:{<sha256>}): all three keys carry the
-- same hash tag, so one cluster slot; ARGV[1] the counter's TTL in seconds.
-- Returns the count after this request for a live account token, the match
-- id of a seat token (a string; the seat may since have been revoked:
-- count_seat.lua decides), or -1 for an unknown token.

if redis.call('EXISTS', KEYS[3]) == 1 then
  local count = redis.call('INCR', KEYS[2])
  if count == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[1])) end
  return count
end
local match = redis.call('GET', KEYS[1])
if match then return match end
return -1
