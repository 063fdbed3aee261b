-- Rate-limit counters are short-lived and rebuild themselves: an unlogged table skips the WAL, so the
-- counter written on every request does not wait for a disk flush. A crash empties it (clients get a
-- fresh window), which is the right trade for counters.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
