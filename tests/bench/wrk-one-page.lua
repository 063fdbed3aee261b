-- wrk script of the split-deployment throughput bench (throughput-split.bench.ts): the one page the
-- URL names, every request from another client (its own X-Forwarded-For, trusted from 127.0.0.1), so
-- the rate limiter does its full work per request yet refuses none. wrk-figures.lua is appended.
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

local n = 0

function request()
  n = n + 1
  -- 198.18.0.0/15, the benchmarking range: one /16 per thread, 65,536 clients each before they repeat.
  wrk.headers["X-Forwarded-For"] = string.format("198.%d.%d.%d", 18 + (id % 2), math.floor(n / 256) % 256, n % 256)
  return wrk.format(nil, wrk.path)
end
