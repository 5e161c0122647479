/**
 * The Lua scripts behind every `redisStore` operation. Each runs atomically on
 * the server, touches exactly one key (cluster-safe) and leaves that key with
 * an expiry: a key found without one (written by something else) gets the
 * operation's TTL, so nothing this store touches lives forever.
 *
 * KEYS[1] is always the prefixed key; TTLs are whole milliseconds.
 */

/**
 * ARGV: amount, ttlMs. Returns the new value, never below 0: a decrement past
 * 0 leaves 0 (its expiry kept) and a decrement of a missing key leaves it
 * missing, in the same atomic step (a refund repaired by a second call raced
 * with other refunds: one was lost or applied twice).
 */
export const INCR_BY = `
if tonumber(ARGV[1]) <= 0 and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if value < 0 then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('SET', KEYS[1], '0', 'PX', ttl) else redis.call('SET', KEYS[1], '0') end
  value = 0
end
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value
`;

/** ARGV: amount, cap, ttlMs. Returns { applied (0/1), value, resetInMs }. */
export const INCR_BY_CAPPED = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if current + amount > tonumber(ARGV[2]) then
  if ttl < 0 then ttl = 0 end
  return { 0, current, ttl }
end
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return { 1, value, ttl }
`;

/** No ARGV. Returns the value or nil. */
export const GET = `
return redis.call('GET', KEYS[1])
`;

/** ARGV: value, ttlMs. Returns 1. */
export const SET = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** ARGV: value, ttlMs. Returns the value stored afterwards (the existing one wins). */
export const SET_IF_ABSENT = `
local existing = redis.call('GET', KEYS[1])
if existing then
  if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return existing
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
`;

/** ARGV: value, ttlMs. Returns 1 when the key held the value (its expiry is then reset), else 0. */
export const TOUCH = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/**
 * ARGV: item, maxItems, ttlMs. Adds the item to the JSON array of strings at
 * the key (`Store.addToList`). Returns nil when the key is missing (nothing
 * written); else the array stored afterwards, as JSON: unchanged when it
 * holds the item or has maxItems items, else with the item appended (and the
 * key's expiry set to ttlMs). A value that is no JSON array counts as [].
 */
export const ADD_TO_LIST = `
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local list = {}
local ok, value = pcall(cjson.decode, raw)
if ok and type(value) == 'table' then
  for _, item in ipairs(value) do
    if type(item) == 'string' then list[#list + 1] = item end
  end
end
local present = false
for _, item in ipairs(list) do
  if item == ARGV[1] then present = true break end
end
local added = not present and #list < tonumber(ARGV[2])
if added then list[#list + 1] = ARGV[1] end
local parts = {}
for i, item in ipairs(list) do parts[i] = cjson.encode(item) end
local encoded = '[' .. table.concat(parts, ',') .. ']'
if added then
  redis.call('SET', KEYS[1], encoded, 'PX', ARGV[3])
elseif redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return encoded
`;

/**
 * ARGV: item, maxItems, ttlMs. Puts the item last in the JSON array of
 * strings at the key (`Store.pushToList`): a missing key or a value that is
 * no JSON array counts as [] (its non-strings dropped), an item present
 * moves to the end, the oldest go past maxItems. Stores the array for ttlMs
 * and returns it as JSON.
 */
export const PUSH_TO_LIST = `
local raw = redis.call('GET', KEYS[1])
local list = {}
if raw then
  local ok, value = pcall(cjson.decode, raw)
  if ok and type(value) == 'table' then
    for _, item in ipairs(value) do
      if type(item) == 'string' and item ~= ARGV[1] then list[#list + 1] = item end
    end
  end
end
list[#list + 1] = ARGV[1]
local first = #list - tonumber(ARGV[2]) + 1
if first < 1 then first = 1 end
local parts = {}
for i = first, #list do parts[#parts + 1] = cjson.encode(list[i]) end
local encoded = '[' .. table.concat(parts, ',') .. ']'
redis.call('SET', KEYS[1], encoded, 'PX', ARGV[3])
return encoded
`;

/** No ARGV. Returns 1. */
export const DELETE = `
redis.call('DEL', KEYS[1])
return 1
`;

/**
 * ARGV: none. Returns the server's `INFO memory` section, from which the
 * store reads `maxmemory` and `maxmemory_policy` (CONFIG is not allowed in
 * scripts; INFO is, and goes through the same client call as every other
 * operation). KEYS[1] only routes it to the node of the store's keys.
 */
export const MEMORY_INFO = `
return redis.call('INFO', 'memory')
`;
