/* freestanding/malloc.c -- the threaded wasm's allocator (build/minipbd_threads.wasm only; the
   emcc build keeps Emscripten's dlmalloc).

   Several instances (the page's, the runner's, the helpers') share one linear memory, so the
   allocator's state lives in that memory and every call takes one spin lock (a worker may wait,
   the page's main thread may not: a spin works on both, and the lock is held for a list walk).
   First fit over an address-ordered free list with coalescing: the engine allocates a few large
   blocks when a world is made (its pool) and small records, so simplicity wins over speed.
   Memory grows with memory.grow up to the module's fixed maximum; JS refreshes its views by
   comparing the buffer's length (engine/memory.js). */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define HEADER 16u     /* a block's header: its size and a tag; payloads stay 16-byte aligned */
#define MIN_BLOCK 32u  /* header + room for the free-list link */
#define PAGE 65536u
#define GROW_MIN (16u * PAGE) /* grow by 1 MiB at least: fewer memory.grow calls, fewer view rebuilds */
#define TAG_USED 0x55534544u
#define TAG_FREE 0x46524545u

typedef struct Block {
	size_t size;        /* whole block, header included, a multiple of 16 */
	uint32_t tag;       /* TAG_USED or TAG_FREE: free() of a foreign pointer is caught */
	uint32_t pad;
	struct Block* next; /* free blocks only: the next free block at a higher address */
} Block;

_Static_assert(sizeof(size_t) == 4, "wasm32");

extern unsigned char __heap_base;

static atomic_int g_lock;
static Block* g_free; /* address order */
static uintptr_t g_top; /* end of the memory handed to the list so far */

static void Lock(void)
{
	int expected = 0;
	while (!atomic_compare_exchange_weak_explicit(&g_lock, &expected, 1, memory_order_acquire, memory_order_relaxed)) {
		expected = 0;
	}
}

static void Unlock(void) { atomic_store_explicit(&g_lock, 0, memory_order_release); }

/* Puts [b, b + b->size) on the free list, merging it with its neighbours. */
static void Insert(Block* b)
{
	b->tag = TAG_FREE;
	Block* prev = NULL;
	Block* cur = g_free;
	while (cur != NULL && cur < b) {
		prev = cur;
		cur = cur->next;
	}
	b->next = cur;
	if (cur != NULL && (uintptr_t)b + b->size == (uintptr_t)cur) {
		b->size += cur->size;
		b->next = cur->next;
	}
	if (prev != NULL && (uintptr_t)prev + prev->size == (uintptr_t)b) {
		prev->size += b->size;
		prev->next = b->next;
	} else if (prev != NULL) {
		prev->next = b;
	} else {
		g_free = b;
	}
}

/* Adds at least `bytes` of fresh memory to the list; 0 when the maximum is reached. */
static int Grow(size_t bytes)
{
	if (g_top == 0) {
		g_top = ((uintptr_t)&__heap_base + 15u) & ~(uintptr_t)15u;
		const uintptr_t end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
		if (end > g_top + MIN_BLOCK) {
			Block* b = (Block*)g_top;
			b->size = end - g_top;
			g_top = end;
			Insert(b);
			return 1;
		}
	}
	if (bytes < GROW_MIN) bytes = GROW_MIN;
	const size_t pages = (bytes + PAGE - 1) / PAGE;
	const uintptr_t end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
	if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
	/* nobody else grows this memory, so the new pages start at the old end */
	Block* b = (Block*)(g_top < end ? g_top : end);
	b->size = end + pages * PAGE - (uintptr_t)b;
	g_top = end + pages * PAGE;
	Insert(b);
	return 1;
}

/* A used block of `size` bytes (header included) whose payload is `align`-aligned, or NULL. */
static Block* Take(size_t size, size_t align)
{
	Block* prev = NULL;
	for (Block* b = g_free; b != NULL; prev = b, b = b->next) {
		uintptr_t start = (uintptr_t)b;
		uintptr_t payload = (start + HEADER + align - 1) & ~(uintptr_t)(align - 1);
		/* a gap before the block must itself be a block */
		while (payload - HEADER != start && payload - HEADER - start < MIN_BLOCK) payload += align;
		const uintptr_t at = payload - HEADER;
		if (at + size > start + b->size) continue;
		Block* next = b->next;
		const size_t tail = start + b->size - (at + size);
		/* unlink b, then give back what is left on either side */
		if (prev != NULL) prev->next = next;
		else g_free = next;
		Block* used = (Block*)at;
		const size_t whole = b->size;
		if (at != start) {
			b->size = at - start;
			Insert(b);
		}
		used->size = tail >= MIN_BLOCK ? size : (start + whole) - at;
		if (tail >= MIN_BLOCK) {
			Block* rest = (Block*)(at + size);
			rest->size = tail;
			Insert(rest);
		}
		used->tag = TAG_USED;
		return used;
	}
	return NULL;
}

static void* Allocate(size_t bytes, size_t align)
{
	if (bytes > 0x7fff0000u) return NULL;
	if (align < 16) align = 16;
	size_t size = (bytes + HEADER + 15u) & ~(size_t)15u;
	if (size < MIN_BLOCK) size = MIN_BLOCK;
	Lock();
	Block* b = Take(size, align);
	while (b == NULL && Grow(size + align + MIN_BLOCK)) b = Take(size, align);
	Unlock();
	return b != NULL ? (unsigned char*)b + HEADER : NULL;
}

void* malloc(size_t bytes) { return Allocate(bytes, 16); }

void free(void* p)
{
	if (p == NULL) return;
	Block* b = (Block*)((unsigned char*)p - HEADER);
	if (b->tag != TAG_USED) __builtin_trap(); /* a double free or a foreign pointer */
	Lock();
	Insert(b);
	Unlock();
}

void* calloc(size_t n, size_t size)
{
	if (size != 0 && n > 0x7fff0000u / size) return NULL;
	void* p = malloc(n * size);
	if (p != NULL) __builtin_memset(p, 0, n * size);
	return p;
}

int posix_memalign(void** out, size_t align, size_t bytes)
{
	if (align == 0 || (align & (align - 1)) != 0 || align % sizeof(void*) != 0) return 22; /* EINVAL */
	void* p = Allocate(bytes, align);
	if (p == NULL) return 12; /* ENOMEM */
	*out = p;
	return 0;
}
