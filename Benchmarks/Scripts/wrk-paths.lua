-- wrk script: every request a new target (/plaintext?n=1, ?n=2, ...), on
-- the same connection and Host, so that no request line repeats the last.
-- For Benchmarks/Scripts/httpcallgrind.sh (WRK_SCRIPT=this file).
local n = 0
request = function()
    n = n + 1
    return wrk.format("GET", "/plaintext?n=" .. n)
end
