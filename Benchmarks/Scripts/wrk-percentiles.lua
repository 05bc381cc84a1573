-- wrk script: prints one line with the requests, the mean and the 10th to
-- 99.9th percentiles of the latency in microseconds, and the maximum, for
-- comparing whole distributions (wrk --latency prints four percentiles).
--   wrk -t1 -c100 -d3s -s Benchmarks/Scripts/wrk-percentiles.lua URL
done = function(summary, latency, requests)
    local line = string.format("requests=%d mean=%.0f", summary.requests, latency.mean)
    for _, percentile in ipairs({ 10, 25, 50, 75, 90, 95, 99, 99.9 }) do
        line = line .. string.format(" p%s=%d", percentile, latency:percentile(percentile))
    end
    io.write(line .. string.format(" max=%d\n", latency.max))
end
