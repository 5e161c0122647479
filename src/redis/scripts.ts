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

/**
 * Lua: `validUtf8(raw)`: a text with no byte above 127 (a plain search for
 * each, fast) is; else each run of a byte above 127 and the continuation
 * bytes after it must be one well-formed sequence (a lead byte is never a
 * continuation byte, so in UTF-8 the runs are its sequences). Linear.
 */
const VALID_UTF8 = String.raw`
local function validUtf8(raw)
  local high = false
  for byte = 128, 255 do
    if string.find(raw, string.char(byte), 1, true) then high = true break end
  end
  if not high then return true end
  for sequence in string.gmatch(raw, '[\128-\255][\128-\191]*') do
    local first, second = string.byte(sequence, 1, 2)
    local length = string.len(sequence)
    if first < 194 or first > 244 then return false end
    if first < 224 then
      if length ~= 2 then return false end
    elseif first < 240 then
      if length ~= 3 or (first == 224 and second < 160) or (first == 237 and second > 159) then
        return false
      end
    elseif length ~= 4 or (first == 240 and second < 144) or (first == 244 and second > 143) then
      return false
    end
  end
  return true
end
`;

/**
 * No ARGV. Returns the value or nil; `{ 2, 1 }` for a value that is no
 * UTF-8 (round 30: bytes another client wrote, which a client read as
 * U+FFFD silently; the list scripts refuse them since round 29).
 */
export const GET = `${VALID_UTF8}
local raw = redis.call('GET', KEYS[1])
if raw and not validUtf8(raw) then return { 2, 1 } end
return raw
`;

/** ARGV: value, ttlMs. Returns 1. */
export const SET = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/**
 * ARGV: value, ttlMs. Returns the value stored afterwards (the existing one
 * wins); `{ 2, 1 }` for an existing value that is no UTF-8 (as GET).
 */
export const SET_IF_ABSENT = `${VALID_UTF8}
local existing = redis.call('GET', KEYS[1])
if existing then
  if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  if not validUtf8(existing) then return { 2, 1 } end
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

import { MAX_LIST_BYTES } from '../store/string-list';

/**
 * Lua: `listText()`, the JSON text of the list at KEYS[1] (false when
 * missing), or, when it is refused, nil and the reply that says why (round
 * 29): `{ 1, 1 }` for a text over MAX_LIST_BYTES (read by length alone:
 * STRLEN is constant time, and a 10 MB list read, decoded and re-encoded
 * held the server about a second per add), `{ 2, 1 }` for bytes that are no
 * UTF-8 (another client's: a client reads them as U+FFFD while this script
 * compares the bytes, so an item read as present was added again).
 * `encodeList(list, first)`: the items from `first` on as a JSON array,
 * written as `JSON.stringify` writes it (cjson's `\/` for `/` and
 * `\u007f` for DEL undone: a DEL is written between pieces encoded apart), and
 * its length, so both stores measure the same text against the bound.
 * `validUtf8` is VALID_UTF8's.
 */
const LIST_TEXT = String.raw`${VALID_UTF8}
local MAX_LIST_BYTES = ${MAX_LIST_BYTES}
local function listText()
  if redis.call('STRLEN', KEYS[1]) > MAX_LIST_BYTES then return nil, { 1, 1 } end
  local raw = redis.call('GET', KEYS[1])
  if raw and not validUtf8(raw) then return nil, { 2, 1 } end
  return raw
end
local function encodeItem(item)
  if not string.find(item, '/', 1, true) and not string.find(item, '\127', 1, true) then
    return cjson.encode(item)
  end
  if not string.find(item, '\127', 1, true) then
    return (string.gsub(cjson.encode(item), '\\/', '/'))
  end
  local pieces = {}
  for piece in string.gmatch(item .. '\127', '([^\127]*)\127') do
    local encoded = string.gsub(cjson.encode(piece), '\\/', '/')
    pieces[#pieces + 1] = string.sub(encoded, 2, -2)
  end
  return '"' .. table.concat(pieces, '\127') .. '"'
end
local function encodeList(list, first)
  local parts = {}
  for i = first, #list do parts[#parts + 1] = encodeItem(list[i]) end
  local encoded = '[' .. table.concat(parts, ',') .. ']'
  return encoded, string.len(encoded)
end
`;

/**
 * Lua: `stringsAt(raw)`, the strings of the JSON array `raw` (false or not
 * an array: none), read as `stringsOfList` reads them in JavaScript (round
 * 28). cjson takes more than JSON: numbers such as `nan`, `inf`, `0x10`,
 * `+1`, `01`, `1.` or `-.5`, raw control characters in strings, and a NUL
 * ends its text. A list holding one read as `[]` in JavaScript (`get`, the
 * pins) but kept its items here, so the next add or push wrote them back
 * as valid JSON: a hash or name tag that read as gone was approved again.
 * Such a value, and one cjson refuses (a lone surrogate escape, more than
 * 1,000 levels of nesting: checked here too, not left to the server's
 * cjson), holds no items on either store. Linear: plain searches for each
 * control character and a backslash (most lists have neither); numbers
 * and nesting are read, strings taken out, only in a list that holds
 * something besides strings.
 */
const STRINGS_AT = String.raw`
local function stringsAt(raw)
  if not raw then return {} end
  for byte = 0, 31 do
    if byte ~= 9 and byte ~= 10 and byte ~= 13 and string.find(raw, string.char(byte), 1, true) then
      return {}
    end
  end
  local plain = raw
  if string.find(plain, '\\', 1, true) then
    plain = string.gsub(plain, '\\\\', '')
    plain = string.gsub(plain, '\\u[dD][89aAbB]%x%x\\u[dD][c-fC-F]%x%x', 'p')
    if string.find(plain, '\\u[dD][89a-fA-F]%x%x') then return {} end
    plain = string.gsub(plain, '\\.', 'e')
  end
  if string.find(plain, '\t', 1, true) or string.find(plain, '\n', 1, true) or string.find(plain, '\r', 1, true) then
    for text in string.gmatch(plain, '"([^"]*)"') do
      if string.find(text, '[\t\n\r]') then return {} end
    end
  end
  local ok, value = pcall(cjson.decode, raw)
  if not ok or type(value) ~= 'table' then return {} end
  local list = {}
  local others = false
  for _, item in ipairs(value) do
    if type(item) == 'string' then list[#list + 1] = item else others = true end
  end
  if not others then return list end
  plain = string.gsub(plain, '"[^"]*"', '')
  local depth = 0
  for bracket in string.gmatch(plain, '[%[%]{}]') do
    if bracket == '[' or bracket == '{' then
      depth = depth + 1
      if depth > 1000 then return {} end
    else
      depth = depth - 1
    end
  end
  for token in string.gmatch(plain, '[^%s%[%]{}:,]+') do
    if token ~= 'true' and token ~= 'false' and token ~= 'null' then
      local number = string.gsub(token, '[eE][%+%-]?%d+$', '', 1)
      number = string.gsub(number, '%.%d+$', '', 1)
      if not (string.find(number, '^%-?0$') or string.find(number, '^%-?[1-9]%d*$')) then
        return {}
      end
    end
  end
  return list
end
`;

/**
 * ARGV: item, maxItems, ttlMs. Adds the item to the JSON array of strings at
 * the key (`Store.addToList`). Returns nil when the key is missing (nothing
 * written); else the array stored afterwards, as JSON: unchanged when it
 * holds the item or has maxItems items, else with the item appended (and the
 * key's expiry set to ttlMs). A value that is no JSON array counts as []
 * (see STRINGS_AT). A list `listText` refuses, or an added one whose text
 * would be over MAX_LIST_BYTES (`{ 1, 0 }`), is answered with its refusal
 * and nothing is written.
 */
export const ADD_TO_LIST = `${LIST_TEXT}${STRINGS_AT}
local raw, refused = listText()
if refused then return refused end
if not raw then return false end
local list = stringsAt(raw)
local present = false
for _, item in ipairs(list) do
  if item == ARGV[1] then present = true break end
end
local added = not present and #list < tonumber(ARGV[2])
if added then list[#list + 1] = ARGV[1] end
local encoded, size = encodeList(list, 1)
if added and size > MAX_LIST_BYTES then return { 1, 0 } end
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
 * no JSON array counts as [] (its non-strings dropped; see STRINGS_AT), an
 * item present moves to the end, the oldest go past maxItems. Stores the
 * array for ttlMs and returns it as JSON. Refusals as for ADD_TO_LIST.
 */
export const PUSH_TO_LIST = `${LIST_TEXT}${STRINGS_AT}
local raw, refused = listText()
if refused then return refused end
local list = {}
for _, item in ipairs(stringsAt(raw)) do
  if item ~= ARGV[1] then list[#list + 1] = item end
end
list[#list + 1] = ARGV[1]
local first = #list - tonumber(ARGV[2]) + 1
if first < 1 then first = 1 end
local encoded, size = encodeList(list, first)
if size > MAX_LIST_BYTES then return { 1, 0 } end
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
