-- Commit one change of a match atomically (compare-and-set on its revision).
-- Every key of the match is passed in KEYS and carries the match id as a hash
-- tag, so the script runs on one Redis Cluster slot. The one key it may touch
-- outside that slot is its deadline index shard (ARGV, below): on a cluster,
-- a shard of the same node (service/storage/deadline_index.py), which the
-- script's allow-cross-slot-keys flag allows; it is read first, so a shard on
-- another node (a slot map out of date) fails the script before any write.
--
-- KEYS[1] match hash (fields rev, doc, state, tok:<sha256>)
-- KEYS[2] event stream (entry id 0-<seq>; fields v, e)
-- KEYS[3] action list (JSON {seat, action}, for replays)
-- KEYS[4] idempotency record (ignored when ARGV idem value is empty)
-- KEYS[5] live channel (match:{<id>}:live): the new last seq is published
--         there when the commit adds events (the event streams' wake-up)
-- KEYS[6] archive record (match:{<id>}:record)
-- KEYS[7] the set of the match's idempotency record keys (match:{<id>}:idems)
-- KEYS[8] (optional) a seat token's rate-limit window counter, kept with its
--         match (ratelimit:requests:s:{<id>}:<sha256>:<window>): a move
--         planned on what this process cached, without a read first
--         (service/play/moves.py). The request is counted here, before the
--         revision is compared; its ARGV are the last three (below).
-- ARGV: the deadline entry: its shard's sorted set and version hash, the
--         match id, the version and the due time in ms ('' = clear the
--         entry), written when the commit is, unless a newer version wrote
--         it (deadline.lua's rule); '' x 5 for none,
--       expected rev ('' = the match must not exist yet),
--       n_set, field, value, ...,
--       n_del, field, ...,
--       n_events, seq, version, event_json, ...,
--       action_json ('' = none),
--       idem_value ('' = none), idem_ttl_s,
--       publish ('SPUBLISH', 'PUBLISH' or '' = none),
--       expire_s (the match is finished: every key above expires after this
--       many seconds, FINISHED_MATCH_TTL_S; '' or 0 = keep),
--       record (the archive record's bytes: a commit that stores a finished
--       match writes it; '' = none), record_ttl_s (ARCHIVE_TTL_S, 0 = for ever),
--       with KEYS[8]: the token's field (tok:<sha256>), the counter's TTL in
--       seconds and the window's limit (0: the rate limit is off, the seat
--       is checked and nothing counted; KEYS[8] is then the match hash)
-- Returns {'OK', rev}, {'CONFLICT', current_rev}, {'DUP', stored_idem_value}
-- (its TTL refreshed)
-- or {'SEQ', last_stream_id} (events out of order: a bug, nothing written).
-- With KEYS[8], each of these has the window's count third (0: not
-- counted), a CONFLICT has the match's doc, state and the token's seat
-- after it (the fresh match: planning again needs no read), and two more
-- replies are possible, both before anything is written: {'NOSEAT'} (the
-- token holds no live seat of this match: nothing counted) and
-- {'LIMIT', '', count} (over the limit).

local i = 1
local function arg()
  local v = ARGV[i]
  i = i + 1
  return v
end

local dl_set, dl_versions, dl_member, dl_version, dl_due = arg(), arg(), arg(), arg(), arg()
local dl_seen
if dl_set ~= '' then
  dl_seen = tonumber(redis.call('HGET', dl_versions, dl_member) or '-1')
end

local count, tok_field
if KEYS[8] then
  local n = #ARGV
  tok_field = ARGV[n - 2]
  if redis.call('HEXISTS', KEYS[1], tok_field) == 0 then return {'NOSEAT'} end
  count = 0  -- the seat checked; with no limit (0), nothing to count
  if tonumber(ARGV[n]) > 0 then
    count = redis.call('INCR', KEYS[8])
    if count == 1 then redis.call('EXPIRE', KEYS[8], tonumber(ARGV[n - 1])) end
    if count > tonumber(ARGV[n]) then return {'LIMIT', '', count} end
  end
end

local expected = arg()
local current = redis.call('HGET', KEYS[1], 'rev')
if (expected == '' and current) or (expected ~= '' and current ~= expected) then
  if count then
    local fresh = redis.call('HMGET', KEYS[1], 'doc', 'state', tok_field)
    return {'CONFLICT', current or '', count, fresh[1], fresh[2], fresh[3]}
  end
  return {'CONFLICT', current or ''}
end

local n_set = tonumber(arg())
local set_args = {}
for _ = 1, n_set do
  set_args[#set_args + 1] = arg()
  set_args[#set_args + 1] = arg()
end
local n_del = tonumber(arg())
local del_args = {}
for _ = 1, n_del do del_args[#del_args + 1] = arg() end
local n_events = tonumber(arg())
local events = {}
for _ = 1, n_events do events[#events + 1] = {arg(), arg(), arg()} end
local action = arg()
local idem_value = arg()
local idem_ttl = arg()
local publish = arg() or ''
local expire_s = tonumber(arg() or '') or 0
local record = arg() or ''
local record_ttl = tonumber(arg() or '') or 0

if idem_value ~= '' then
  local prev = redis.call('GET', KEYS[4])
  if prev then
    -- A replay refreshes the record: a write, so a WAIT after this script
    -- confirms the replicas have the original commit too (REDIS_WAIT_REPLICAS).
    redis.call('EXPIRE', KEYS[4], tonumber(idem_ttl))
    return {'DUP', prev, count}
  end
end

-- Redis does not roll a script back when a command fails, so check before
-- writing anything that the new events extend the stream (XADD would refuse
-- a non-increasing id halfway through).
if n_events > 0 then
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
  if last and tonumber(string.match(last[1], '%-(%d+)$')) >= tonumber(events[1][1]) then
    return {'SEQ', last[1]}
  end
end

local rev = tostring((tonumber(current) or 0) + 1)
redis.call('HSET', KEYS[1], 'rev', rev, unpack(set_args))
if n_del > 0 then redis.call('HDEL', KEYS[1], unpack(del_args)) end
for _, ev in ipairs(events) do
  redis.call('XADD', KEYS[2], '0-' .. ev[1], 'v', ev[2], 'e', ev[3])
end
if action ~= '' then redis.call('RPUSH', KEYS[3], action) end
if idem_value ~= '' then
  local ttl = tonumber(idem_ttl)
  if expire_s > 0 and expire_s < ttl then ttl = expire_s end
  redis.call('SET', KEYS[4], idem_value, 'EX', ttl)
  if KEYS[7] then redis.call('SADD', KEYS[7], KEYS[4]) end
end
-- The record, in the same script: no finished match without its record.
if record ~= '' then
  if record_ttl > 0 then
    redis.call('SET', KEYS[6], record, 'EX', record_ttl)
  else
    redis.call('SET', KEYS[6], record)
  end
end
-- Last, so the keys this commit created expire too. Later writes (a rematch
-- claim) keep the TTL and renew it: a finished match is kept for expire_s
-- after its last change.
if expire_s > 0 then
  for k = 1, 3 do redis.call('EXPIRE', KEYS[k], expire_s) end
  if KEYS[7] then
    -- The idempotency records go with the other hot keys (sooner when
    -- their own TTL is shorter).
    for _, key in ipairs(redis.call('SMEMBERS', KEYS[7])) do
      local left = redis.call('TTL', key)
      if left == -1 or left > expire_s then redis.call('EXPIRE', key, expire_s) end
    end
    redis.call('EXPIRE', KEYS[7], expire_s)
  end
end
if dl_set ~= '' and tonumber(dl_version) >= dl_seen then
  if dl_due == '' then
    redis.call('ZREM', dl_set, dl_member)
    redis.call('HDEL', dl_versions, dl_member)
  else
    redis.call('ZADD', dl_set, dl_due, dl_member)
    redis.call('HSET', dl_versions, dl_member, dl_version)
  end
end
if n_events > 0 and publish ~= '' and KEYS[5] then
  redis.call(publish, KEYS[5], events[n_events][1])
end
return {'OK', rev, count}
