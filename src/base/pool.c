#include "base/pool.h"

#include <stdlib.h>
#include <string.h>

#define PBD_POOL_ALIGN 64 /* one cache line; also keeps float4 data 16-byte aligned for SIMD */

size_t pbd_PoolBytes(size_t count, size_t size)
{
	size_t bytes = count * size;
	return (bytes + PBD_POOL_ALIGN - 1) & ~(size_t)(PBD_POOL_ALIGN - 1);
}

int pbd_PoolReserve(pbdPool* pool, size_t bytes)
{
	pool->base = NULL;
	pool->capacity = 0;
	pool->used = 0;
	void* block = NULL;
	if (posix_memalign(&block, PBD_POOL_ALIGN, bytes > 0 ? bytes : PBD_POOL_ALIGN) != 0) {
		return 0;
	}
#if defined(PBD_POOL_POISON)
	memset(block, 0xff, bytes);
#endif
	pool->base = (uint8_t*)block;
	pool->capacity = bytes;
	return 1;
}

void pbd_PoolRelease(pbdPool* pool)
{
	free(pool->base);
	pool->base = NULL;
	pool->capacity = 0;
	pool->used = 0;
}

void* pbd_PoolAllocUnset(pbdPool* pool, size_t count, size_t size)
{
	size_t bytes = pbd_PoolBytes(count, size);
	if (pool->used + bytes > pool->capacity) {
		return NULL;
	}
	void* p = pool->base + pool->used;
	pool->used += bytes;
	return p;
}

void* pbd_PoolAlloc(pbdPool* pool, size_t count, size_t size)
{
	void* p = pbd_PoolAllocUnset(pool, count, size);
	if (p != NULL) memset(p, 0, pbd_PoolBytes(count, size));
	return p;
}
