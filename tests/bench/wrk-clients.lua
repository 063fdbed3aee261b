-- wrk script of the throughput bench. Every request comes from another client (its own X-Forwarded-For,
-- which the product trusts from 127.0.0.1, as the harness's nextClient does), so the rate limiter does
-- its full work per request yet refuses none; and it walks WRK_PAGES pages of 100 (default 50: offset
-- 0..4900) as the other benches do. tests/bench/wrk.ts appends wrk-figures.lua, whose done() prints the figures.
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

local n = 0
local base
local pages = tonumber(os.getenv("WRK_PAGES") or "50")

function init(args)
  base = wrk.path
end

function request()
  n = n + 1
  -- 198.18.0.0/15, the benchmarking range: one /16 per thread, 65,536 clients each before they repeat.
  local client = string.format("198.%d.%d.%d", 18 + (id % 2), math.floor(n / 256) % 256, n % 256)
  wrk.headers["X-Forwarded-For"] = client
  return wrk.format(nil, string.format("%s&offset=%d", base, (n % pages) * 100))
end
