#ifndef RXUV_ALLOCATION_COUNTER_H
#define RXUV_ALLOCATION_COUNTER_H

#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, aligned forms)
/// made by the process so far. Linking this target replaces the allocator
/// entry points with counting wrappers around glibc's.
int64_t rxuv_allocation_count(void);

#endif
