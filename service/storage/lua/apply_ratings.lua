-- Apply one rated match's new ratings to its pool, exactly once.
--
-- Every key carries the pool's hash tag (ratings:{<pool>}:...), so one slot.
-- KEYS[1] ratings hash (aid -> JSON), KEYS[2] applied set (match ids),
-- KEYS[3..8] boards: all, all:established, human, human:established, bot,
-- bot:established (zsets aid -> conservative rating); KEYS[9..] each
-- account's history list, in the order of the accounts in ARGV.
-- ARGV[1] match id, ARGV[2] n accounts, then 6 per account: aid, the rating
-- JSON read before computing ("" for none), the new rating JSON, the new
-- conservative rating, kind (human|bot), established (1|0), the history
-- entry JSON (7 in all: see the offsets below).
-- Returns 1 applied now, 0 applied before (nothing written), -1 a rating
-- changed since it was read (nothing written: read again and retry).
-- Every check comes before the first write: a refused call writes nothing.

if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  local base = 3 + i * 7
  local current = redis.call('HGET', KEYS[1], ARGV[base])
  if current == false then current = '' end
  if current ~= ARGV[base + 1] then return -1 end
end
for i = 0, n - 1 do
  local base = 3 + i * 7
  local aid, score, kind, established = ARGV[base], ARGV[base + 3], ARGV[base + 4], ARGV[base + 5]
  redis.call('HSET', KEYS[1], aid, ARGV[base + 2])
  local own = 5
  if kind == 'bot' then own = 7 end
  redis.call('ZADD', KEYS[3], score, aid)
  redis.call('ZADD', KEYS[own], score, aid)
  if established == '1' then
    redis.call('ZADD', KEYS[4], score, aid)
    redis.call('ZADD', KEYS[own + 1], score, aid)
  else
    redis.call('ZREM', KEYS[4], aid)
    redis.call('ZREM', KEYS[own + 1], aid)
  end
  redis.call('RPUSH', KEYS[9 + i], ARGV[base + 6])
end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
