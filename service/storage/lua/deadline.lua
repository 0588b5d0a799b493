-- Set (or clear) a match's entry in the deadline index, unless a newer
-- version of the match already wrote it: writers race (a commit, the
-- sweeper that read an older document), and the newest version's due time
-- must win, so no match ever falls out of the index while it has a deadline.
--
-- KEYS[1] the shard's sorted set (match id -> due time, epoch ms)
-- KEYS[2] the shard's hash (match id -> version that wrote the entry)
-- ARGV[1] match id, ARGV[2] version, ARGV[3] due time in ms ('' = no deadline)
-- Returns 1 when written, 0 when a newer version's entry was kept.

local seen = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
if tonumber(ARGV[2]) < seen then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
