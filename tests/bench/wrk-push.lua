-- wrk script of the push bench: every request is a GET push to one of BENCH_PUSH_TOKENS push monitors
-- in turn (tokens pushbench<34-digit index>, made by push.bench.ts), so no token nears its per-token
-- limit. tests/bench/wrk.ts appends wrk-figures.lua, whose done() prints the figures.
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
end

local n = 0
local count = tonumber(os.getenv("BENCH_PUSH_TOKENS") or "10000")

function request()
  n = n + 1
  local i = (id * 7919 + n) % count
  return wrk.format("GET", string.format("/api/v1/push/pushbench%034d?msg=ok", i))
end
