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
/// As pbd_PoolAlloc, not zeroed: only for arrays that every use writes before it reads (the neighbour lists'
/// entries, the scratch). A fluid's entries are most of its world (260 of 330 MB at the format's 200,000
/// particles), and zeroing them took 50 ms in Node and 0.6 s in a page at every build of such a world. The sanitizer
/// build (PBD_POOL_POISON) fills the block with 0xff bytes first (NaN floats, -1 indices), so a read of an unset
/// array moves a pinned hash or trips a check.
void* pbd_PoolAllocUnset(pbdPool* pool, size_t count, size_t size);

#endif
