-- Count one request against a seat token's rate-limit window, kept with its
-- match: the counter carries the match's hash tag, so on a cluster the match
-- route's first read and its count are one script on one node.
--
-- KEYS[1] the match hash (match:{<id>}), KEYS[2] the token's window counter
-- (ratelimit:requests:s:{<id>}:<sha256>:<window>); ARGV[1] the token's field
-- in the match hash (tok:<sha256>), ARGV[2] the counter's TTL in seconds,
-- ARGV[3..] fields of the match hash to read in the same script (none: a
-- count alone).
-- Returns {count after this request, or -1 when the token is no live seat
-- of this match (nothing counted), {values of ARGV[3..]}}.

local count = -1
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  count = redis.call('INCR', KEYS[2])
  if count == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2])) end
end
if #ARGV > 2 then
  return {count, redis.call('HMGET', KEYS[1], unpack(ARGV, 3))}
end
return {count, {}}
