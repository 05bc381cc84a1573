// LoadMeasure: what the load generators (netload, tlsload) measure with, in
// one place: the clock, their own CPU, a server's CPU and memory from /proc,
// the checked messages they send, and a latency histogram.
#ifndef LOAD_MEASURE_H
#define LOAD_MEASURE_H

#include <stdint.h>

/// CLOCK_MONOTONIC, in nanoseconds.
uint64_t measure_now_ns(void);

/// This process's user and system CPU time, in seconds.
double measure_self_cpu_seconds(void);

/// The CPU time of every thread of `pid` (the sum of
/// /proc/PID/task/*/schedstat), in nanoseconds; -1 if unreadable.
int64_t measure_process_cpu_ns(int pid);

/// A `Vm...:` line of /proc/PID/status, in KiB; -1 if unreadable.
long measure_process_status_kib(int pid, const char *key);

/// The `size` bytes of message `sequence` on connection `index`: a pattern
/// of both, with the two numbers in the first 16 bytes when they fit, so an
/// echo that comes back from another connection or out of order differs.
void measure_fill_message(unsigned char *message, int size, int index, uint64_t sequence);

/// Latencies counted in `count` buckets of `bucket_ns` each; slower ones
/// land in the last bucket.
typedef struct {
    uint32_t *buckets;
    int count;
    uint64_t bucket_ns;
} latency_histogram;

/// Counts one latency.
void latency_add(latency_histogram *histogram, uint64_t nanoseconds);

/// The latency below which `fraction` of the `total` counted lie, in µs
/// (the upper edge of its bucket).
double latency_percentile_us(const latency_histogram *histogram, uint64_t total, double fraction);

#endif
