/* pool.h -- the world's memory: one block reserved at creation, carved by a bump
   allocator. Nothing is freed piecemeal and nothing is allocated after creation, so
   the step never allocates and wasm memory never grows during a step (seed 001 sec.
   5.2: "preallocated memory pool"). */
#ifndef PBD_POOL_H
#define PBD_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct pbdPool {
	uint8_t* base;
	size_t capacity;
	size_t used;
} pbdPool;

/// Bytes needed for `count` items of `size` each, rounded up to the pool alignment.
size_t pbd_PoolBytes(size_t count, size_t size);
int pbd_PoolReserve(pbdPool* pool, size_t bytes);
void pbd_PoolRelease(pbdPool* pool);
/// Zeroed, 64-byte aligned; NULL when the reservation is exhausted (a sizing bug).
void* pbd_PoolAlloc(pbdPool* pool, size_t count, size_t size);

#endif
