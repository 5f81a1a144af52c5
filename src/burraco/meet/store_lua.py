"""The Lua scripts of :class:`burraco.meet.store.RedisPool`: each change of a pool is one
script, so Redis runs it whole and alone, and no other process sees it half done.

Every script gets the same keys, in this order (:data:`KEYS`): ``entries`` (hash: entry id
→ the entry's JSON), ``who`` (hash: account → its entry's id, ``match:ID`` while its
match is being seated, or ``invite:ID`` while an open invitation holds it), ``matches``
(hash: match id → the match's JSON and the raw entries it took), ``state`` (hash: match id →
``pending TOKEN DELIVERY`` or ``seated TABLE``), ``leases`` (sorted set: pending match id by
lease deadline), ``seated`` (hash: account → its seated match), ``done`` (sorted set: seated
match id by the time it was seated), ``invites`` (hash: invitation id, its inviter → the
invitation's JSON) and ``expiries`` (sorted set: invitation id by the time it expires).
A match's JSON is only ever decoded here, never re-encoded: its numbers stay exact.
"""

from __future__ import annotations

KEYS = ("entries", "who", "matches", "state", "leases", "seated", "done", "invites",
        "expiries")

_INVITES = """
local function drop_invite(id)
  local raw = redis.call('hget', KEYS[8], id)
  if raw then
    local inv = cjson.decode(raw)
    for _, a in ipairs({inv.inviter, inv.partner}) do
      if redis.call('hget', KEYS[2], a) == 'invite:' .. id then redis.call('hdel', KEYS[2], a) end
    end
  end
  redis.call('hdel', KEYS[8], id)
  redis.call('zrem', KEYS[9], id)
  return raw
end
-- Why an account may not join or be invited at a time: {account, where, the entry or
-- invitation that holds it}, or false.  An expired invitation holds nobody: it is dropped.
local function busy(account, now)
  local at = redis.call('hget', KEYS[2], account)
  if not at then return false end
  if string.sub(at, 1, 7) == 'invite:' then
    local id = string.sub(at, 8)
    local raw = redis.call('hget', KEYS[8], id)
    local due = redis.call('zscore', KEYS[9], id)
    if raw and due and tonumber(due) > tonumber(now) then return {account, at, raw} end
    drop_invite(id)
    if redis.call('hget', KEYS[2], account) == at then redis.call('hdel', KEYS[2], account) end
    return false
  end
  local held = false
  if string.sub(at, 1, 6) ~= 'match:' then held = redis.call('hget', KEYS[1], at) end
  return {account, at, held}
end
"""

_DISSOLVE = """
local function dissolve(id, leaver)
  local body = redis.call('hget', KEYS[3], id)
  local removed = false
  if body then
    for _, e in ipairs(cjson.decode(body).entries) do
      local mine = false
      for _, a in ipairs(e.accounts) do
        if a == leaver then mine = true end
      end
      if mine then
        for _, a in ipairs(e.accounts) do redis.call('hdel', KEYS[2], a) end
        removed = e.raw
      else
        redis.call('hset', KEYS[1], e.id, e.raw)
        for _, a in ipairs(e.accounts) do redis.call('hset', KEYS[2], a, e.id) end
      end
    end
  end
  redis.call('hdel', KEYS[3], id)
  redis.call('hdel', KEYS[4], id)
  redis.call('zrem', KEYS[5], id)
  return removed
end
local function holder(id)
  local state = redis.call('hget', KEYS[4], id)
  if not state then return nil end
  return string.match(state, '^pending (%S+) %d+$')
end
"""

JOIN = _INVITES + """
-- ARGV: now, entry id, entry JSON, its accounts...
for i = 4, #ARGV do
  local found = busy(ARGV[i], ARGV[1])
  if found then return found end
end
for i = 4, #ARGV do
  redis.call('hset', KEYS[2], ARGV[i], ARGV[2])
  redis.call('hdel', KEYS[6], ARGV[i])
end
redis.call('hset', KEYS[1], ARGV[2], ARGV[3])
return 1
"""

INVITE = _INVITES + """
-- ARGV: now, invitation id, its JSON, when it expires, its two accounts.
for i = 5, 6 do
  local found = busy(ARGV[i], ARGV[1])
  if found then return found end
end
for i = 5, 6 do redis.call('hset', KEYS[2], ARGV[i], 'invite:' .. ARGV[2]) end
redis.call('hset', KEYS[8], ARGV[2], ARGV[3])
redis.call('zadd', KEYS[9], ARGV[4], ARGV[2])
return 1
"""

WITHDRAW = _INVITES + """
-- ARGV: account.  Drops the invitation that holds it; returns its JSON (nil: none did).
local at = redis.call('hget', KEYS[2], ARGV[1])
if not at or string.sub(at, 1, 7) ~= 'invite:' then return false end
local raw = drop_invite(string.sub(at, 8))
if redis.call('hget', KEYS[2], ARGV[1]) == at then redis.call('hdel', KEYS[2], ARGV[1]) end
return raw
"""

ACCEPT = _INVITES + """
-- ARGV: now, invitation id, the invitation's JSON as read, entry id, entry JSON, accounts.
-- The invitation becomes the entry only if it is still kept as read, is open, and holds
-- every account; returns 1, or 0 (nothing changed but an expired invitation dropped).
if redis.call('hget', KEYS[8], ARGV[2]) ~= ARGV[3] then return 0 end
local due = redis.call('zscore', KEYS[9], ARGV[2])
if not due or tonumber(due) <= tonumber(ARGV[1]) then
  drop_invite(ARGV[2])
  return 0
end
for i = 6, #ARGV do
  if redis.call('hget', KEYS[2], ARGV[i]) ~= 'invite:' .. ARGV[2] then return 0 end
end
redis.call('hdel', KEYS[8], ARGV[2])
redis.call('zrem', KEYS[9], ARGV[2])
for i = 6, #ARGV do
  redis.call('hset', KEYS[2], ARGV[i], ARGV[4])
  redis.call('hdel', KEYS[6], ARGV[i])
end
redis.call('hset', KEYS[1], ARGV[4], ARGV[5])
return 1
"""

LEAVE = _DISSOLVE + """
-- ARGV: account.  Returns the JSON of the entry taken out (nil: it was in no pool; an
-- invitation that holds it is WITHDRAW's).
local at = redis.call('hget', KEYS[2], ARGV[1])
if not at or string.sub(at, 1, 7) == 'invite:' then return false end
if string.sub(at, 1, 6) == 'match:' then return dissolve(string.sub(at, 7), ARGV[1]) end
local raw = redis.call('hget', KEYS[1], at)
if raw then
  for _, m in ipairs(cjson.decode(raw).party) do redis.call('hdel', KEYS[2], m.account) end
  redis.call('hdel', KEYS[1], at)
else
  redis.call('hdel', KEYS[2], ARGV[1])
end
return raw
"""

TAKE = """
-- ARGV: token, deadline, then per match: id, JSON, entry count, and per entry: id, the
-- JSON it was paired as, account count, accounts.  A match is taken only if every one of
-- its entries is still in the pool exactly as paired; returns the ids taken.
local token, deadline = ARGV[1], ARGV[2]
local i = 3
local taken = {}
while i <= #ARGV do
  local id, body, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  i = i + 3
  local first = i
  local ok = redis.call('hexists', KEYS[3], id) == 0
  for _ = 1, n do
    if redis.call('hget', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then ok = false end
    i = i + 3 + tonumber(ARGV[i + 2])
  end
  if ok then
    i = first
    for _ = 1, n do
      local count = tonumber(ARGV[i + 2])
      redis.call('hdel', KEYS[1], ARGV[i])
      for a = 1, count do redis.call('hset', KEYS[2], ARGV[i + 2 + a], 'match:' .. id) end
      i = i + 3 + count
    end
    redis.call('hset', KEYS[3], id, body)
    redis.call('hset', KEYS[4], id, 'pending ' .. token .. ' 1')
    redis.call('zadd', KEYS[5], deadline, id)
    taken[#taken + 1] = id
  end
end
return taken
"""

RECLAIM = _DISSOLVE + """
-- ARGV: now, token, deadline, most deliveries.  Every pending match whose lease ran out
-- goes to the caller (returned as id, JSON, delivery), or, delivered the most times
-- already, is dissolved: its entries go back to the pool as they were.
local out = {}
for _, id in ipairs(redis.call('zrangebyscore', KEYS[5], '-inf', ARGV[1])) do
  local state = redis.call('hget', KEYS[4], id)
  local n = state and tonumber(string.match(state, ' (%d+)$'))
  if n and n < tonumber(ARGV[4]) then
    redis.call('hset', KEYS[4], id, 'pending ' .. ARGV[2] .. ' ' .. (n + 1))
    redis.call('zadd', KEYS[5], ARGV[3], id)
    out[#out + 1] = id
    out[#out + 1] = redis.call('hget', KEYS[3], id)
    out[#out + 1] = n + 1
  else
    dissolve(id, false)
  end
end
return out
"""

ACK = _DISSOLVE + """
-- ARGV: match id, token, table, now.  Seats the match if the caller still holds it.
if holder(ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('hset', KEYS[4], ARGV[1], 'seated ' .. ARGV[3])
redis.call('zrem', KEYS[5], ARGV[1])
for _, e in ipairs(cjson.decode(redis.call('hget', KEYS[3], ARGV[1])).entries) do
  for _, a in ipairs(e.accounts) do
    if redis.call('hget', KEYS[2], a) == 'match:' .. ARGV[1] then redis.call('hdel', KEYS[2], a) end
    redis.call('hset', KEYS[6], a, ARGV[1])
  end
end
redis.call('zadd', KEYS[7], ARGV[4], ARGV[1])
return 1
"""

GIVE_BACK = _DISSOLVE + """
-- ARGV: match id, token.  The holder gives the match up: its entries go back as they were.
if holder(ARGV[1]) ~= ARGV[2] then return 0 end
dissolve(ARGV[1], false)
return 1
"""

PRUNE = _INVITES + """
-- ARGV: a time, now.  Forgets the matches seated before the time, and the invitations
-- expired by now.
for _, id in ipairs(redis.call('zrangebyscore', KEYS[9], '-inf', ARGV[2])) do drop_invite(id) end
local old = redis.call('zrangebyscore', KEYS[7], '-inf', ARGV[1])
for _, id in ipairs(old) do
  local body = redis.call('hget', KEYS[3], id)
  if body then
    for _, e in ipairs(cjson.decode(body).entries) do
      for _, a in ipairs(e.accounts) do
        if redis.call('hget', KEYS[6], a) == id then redis.call('hdel', KEYS[6], a) end
      end
    end
  end
  redis.call('hdel', KEYS[3], id)
  redis.call('hdel', KEYS[4], id)
  redis.call('zrem', KEYS[7], id)
end
return #old
"""
