#define _GNU_SOURCE
#include "LoadMeasure.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

uint64_t measure_now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

double measure_self_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

int64_t measure_process_cpu_ns(int pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = opendir(path);
    if (tasks == NULL) return -1;
    int64_t total = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char file[300];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", pid, entry->d_name);
        FILE *stat = fopen(file, "r");
        if (stat == NULL) continue;
        long long running = 0;
        if (fscanf(stat, "%lld", &running) == 1) total += running;
        fclose(stat);
    }
    closedir(tasks);
    return total;
}

long measure_process_status_kib(int pid, const char *key) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *status = fopen(path, "r");
    if (status == NULL) return -1;
    long value = -1;
    size_t length = strlen(key);
    while (fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, key, length) == 0 && line[length] == ':') {
            value = atol(line + length + 1);
            break;
        }
    }
    fclose(status);
    return value;
}

void measure_fill_message(unsigned char *message, int size, int index, uint64_t sequence) {
    for (int offset = 0; offset < size; offset++) {
        message[offset] = (unsigned char)(offset * 31 + index * 7 + sequence * 13);
    }
    if (size >= 16) {
        memcpy(message, &sequence, 8);
        uint64_t wide_index = (uint64_t)index;
        memcpy(message + 8, &wide_index, 8);
    }
}

void latency_add(latency_histogram *histogram, uint64_t nanoseconds) {
    uint64_t bucket = nanoseconds / histogram->bucket_ns;
    histogram->buckets[bucket < (uint64_t)histogram->count ? bucket : (uint64_t)histogram->count - 1]++;
}

double latency_percentile_us(const latency_histogram *histogram, uint64_t total, double fraction) {
    if (total == 0) return 0;
    uint64_t rank = (uint64_t)((double)total * fraction);
    if (rank >= total) rank = total - 1;
    uint64_t seen = 0;
    for (int bucket = 0; bucket < histogram->count; bucket++) {
        seen += histogram->buckets[bucket];
        if (seen > rank) return (double)(bucket + 1) * (double)histogram->bucket_ns / 1000.0;
    }
    return (double)histogram->count * (double)histogram->bucket_ns / 1000.0;
}
