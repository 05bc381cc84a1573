// uv-timers: the floor for the timer benchmark, in plain C on libuv.
//
//   uv-timers [--count N] [--spread-ms MS]
//
// Arms N one-shot uv_timer_t (default 1,000,000) whose timeouts are spread
// evenly over MS milliseconds (default 1000), runs the loop until every one
// has fired, then closes them all. The timers live in one array, as a C
// program would keep them. Prints one line of key=value pairs: the seconds
// of each phase (arm, fire: from the end of arming to the last expiry,
// close), their total, how many fired, and the peak RSS (getrusage) in KiB.

#include <uv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static long fired = 0;

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void on_timer(uv_timer_t *timer) {
    (void)timer;
    fired++;
}

int main(int argc, char **argv) {
    long count = 1000000;
    long spread = 1000;
    for (int index = 1; index < argc; index++) {
        if (strcmp(argv[index], "--count") == 0 && index + 1 < argc) {
            count = atol(argv[++index]);
        } else if (strcmp(argv[index], "--spread-ms") == 0 && index + 1 < argc) {
            spread = atol(argv[++index]);
        } else {
            fprintf(stderr, "usage: uv-timers [--count N] [--spread-ms MS]\n");
            return 2;
        }
    }
    if (count < 1 || spread < 0) {
        fprintf(stderr, "uv-timers: --count must be at least 1 and --spread-ms not negative\n");
        return 2;
    }
    uv_loop_t *loop = uv_default_loop();
    uv_update_time(loop);

    double start = now_seconds();
    uv_timer_t *timers = calloc((size_t)count, sizeof *timers);
    if (timers == NULL) {
        fprintf(stderr, "uv-timers: out of memory\n");
        return 1;
    }
    for (long index = 0; index < count; index++) {
        uv_timer_init(loop, &timers[index]);
        uv_timer_start(&timers[index], on_timer, (uint64_t)(index * spread / count), 0);
    }
    double armed = now_seconds();

    uv_run(loop, UV_RUN_DEFAULT);
    double done = now_seconds();

    for (long index = 0; index < count; index++) {
        uv_close((uv_handle_t *)&timers[index], NULL);
    }
    uv_run(loop, UV_RUN_DEFAULT);
    double closed = now_seconds();
    free(timers);

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("impl=c count=%ld arm_s=%.3f fire_s=%.3f close_s=%.3f total_s=%.3f fired=%ld peak_rss_kib=%ld\n",
           count, armed - start, done - armed, closed - done, closed - start, fired, usage.ru_maxrss);
    uv_loop_close(loop);
    return fired == count ? 0 : 1;
}
