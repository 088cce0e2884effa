/* base/tasks.c -- the team (tasks.h): one claim word shared out by atomics, a futex to park
   the helpers between steps, spinning inside a step (Box2D v3's workers spin on the solver's
   stage counters for the same reason: a step has hundreds of short stages, and waking a
   sleeping thread costs more than most of them).

   The claim word packs the loop's sequence number, its block count and the next unclaimed
   block: claiming is one compare-and-swap that fails as soon as the loop is no longer the
   one the claimer saw, so a helper that slept through a loop cannot take a block of the
   next one with the old loop's function. A loop's function, data and sizes are read only
   after a successful claim, and cannot change until its blocks are all done. */
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && !defined(__wasm__)
#define _GNU_SOURCE /* syscall(): the futex */
#endif
#include "base/tasks.h"
#include "world/core.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#if defined(__wasm__)
#if defined(__wasm_atomics__)
#define PBD_THREADS 1 /* the threaded wasm build (build/minipbd_threads.wasm) */
#else
#define PBD_THREADS 0 /* the single-thread wasm: a team of one, nothing to wait for */
#endif
#else
#define PBD_THREADS 1
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#else
#include <sched.h>
#endif
#endif

#define SEQ_BITS 24
#define COUNT_BITS 20
#define MAX_BLOCKS ((1 << COUNT_BITS) - 1)
#define SEQ_MASK ((1 << SEQ_BITS) - 1)

enum { TEAM_IDLE = 0, TEAM_ACTIVE = 1, TEAM_STOP = 2 };

struct pbdTeam {
	int32_t maxThreads;
	_Alignas(64) atomic_int state;       ///< TEAM_*: a step (or slice) holds the team, or the helpers are to leave
	_Alignas(64) atomic_int wake;        ///< futex word of the parked helpers: moves at every Begin and at Stop
	_Alignas(64) atomic_int owner;       ///< 1 while a world holds the team
	atomic_int participants;             ///< threads of the step holding the team (helpers of a higher index sit out)
	_Alignas(64) _Atomic uint64_t claim; ///< seq << 40 | blocks << 20 | next block
	_Alignas(64) atomic_int seq32;       ///< the current loop's seq: futex word of helpers that stopped spinning
	atomic_int sleepers;                 ///< helpers waiting on seq32 (the publisher wakes them only then)
	atomic_int parked;                   ///< helpers waiting on wake (the publisher wakes them only then)
	_Alignas(64) atomic_int done;        ///< blocks of the current loop finished
	/* The current loop, written by participant 0 before it publishes the claim word. */
	_Alignas(64) pbdBlockFn* fn;
	void* data;
	int32_t count, block;
	uint32_t seq; ///< participant 0's own copy
};

/* ---------------------------------------------------------------- waiting */

/* Sleeps while *word == expected (or until woken, or spuriously): the caller re-checks. */
static void Wait32(atomic_int* word, int expected)
{
#if defined(__wasm__) && PBD_THREADS
	/* memory.atomic.wait32: allowed on every thread that runs a helper (workers; Node's main
	   thread). 1 ms at most, so a lost wake-up costs a millisecond, not a hang. */
	__builtin_wasm_memory_atomic_wait32((int*)word, expected, 1000000);
#elif defined(__wasm__)
	(void)word, (void)expected;
#elif defined(__linux__)
	struct timespec timeout = { 0, 1000000 };
	syscall(SYS_futex, (int*)word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
#else
	(void)word, (void)expected;
	sched_yield();
#endif
}

static void WakeAll(atomic_int* word)
{
#if defined(__wasm__) && PBD_THREADS
	__builtin_wasm_memory_atomic_notify((int*)word, 0xffffffffu);
#elif defined(__wasm__)
	(void)word;
#elif defined(__linux__)
	syscall(SYS_futex, (int*)word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
#else
	(void)word;
#endif
}

static inline void Pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Spins before a helper parks between loops: long enough to cover the serial gaps of a step
   (a contact search), short enough not to burn a core through a long one. */
#if defined(__wasm__)
#define SPINS 20000
#else
#define SPINS 4000
#endif

/* ---------------------------------------------------------------- the team */

int32_t pbd_Team_Bytes(int32_t maxThreads)
{
	if (maxThreads < 1 || maxThreads > PBD_MAX_THREADS) return 0;
	return (int32_t)((sizeof(pbdTeam) + 63) & ~(size_t)63);
}

pbdTeam* pbd_Team_Init(void* memory, int32_t maxThreads)
{
	if (memory == NULL || ((uintptr_t)memory & 63) != 0 || pbd_Team_Bytes(maxThreads) == 0) return NULL;
	if (!PBD_THREADS && maxThreads > 1) return NULL; /* this build has no threads to offer */
	pbdTeam* team = memory;
	memset(team, 0, sizeof *team);
	team->maxThreads = maxThreads;
	atomic_init(&team->state, TEAM_IDLE);
	atomic_init(&team->wake, 0);
	atomic_init(&team->owner, 0);
	atomic_init(&team->participants, 1);
	atomic_init(&team->claim, 0);
	atomic_init(&team->seq32, 0);
	atomic_init(&team->sleepers, 0);
	atomic_init(&team->parked, 0);
	atomic_init(&team->done, 0);
	return team;
}

int32_t pbd_Team_MaxThreads(const pbdTeam* team) { return team != NULL ? team->maxThreads : 1; }

static inline uint64_t ClaimWord(uint32_t seq, int32_t blocks, int32_t next)
{
	return ((uint64_t)seq << (2 * COUNT_BITS)) | ((uint64_t)blocks << COUNT_BITS) | (uint64_t)next;
}

/* The next block of loop `seq`, or -1 when it has none left or is no longer the current loop. */
static int32_t Claim(pbdTeam* team, uint32_t seq)
{
	uint64_t c = atomic_load_explicit(&team->claim, memory_order_acquire);
	for (;;) {
		if ((uint32_t)(c >> (2 * COUNT_BITS)) != seq) return -1;
		const int32_t blocks = (int32_t)((c >> COUNT_BITS) & MAX_BLOCKS);
		const int32_t next = (int32_t)(c & MAX_BLOCKS);
		if (next >= blocks) return -1;
		if (atomic_compare_exchange_weak_explicit(&team->claim, &c, c + 1, memory_order_acq_rel, memory_order_acquire)) {
			return next;
		}
	}
}

/* Runs blocks of loop `seq` until none is left. */
static void RunBlocks(pbdTeam* team, uint32_t seq)
{
	for (;;) {
		const int32_t b = Claim(team, seq);
		if (b < 0) return;
		const int32_t begin = b * team->block;
		const int32_t end = team->count - begin < team->block ? team->count : begin + team->block;
		team->fn(team->data, begin, end);
		atomic_fetch_add_explicit(&team->done, 1, memory_order_release);
	}
}

/* Publishes loop seq with `blocks` blocks (fn, data, count, block already written). */
static void Publish(pbdTeam* team, int32_t blocks)
{
	team->seq = (team->seq + 1) & SEQ_MASK;
	atomic_store_explicit(&team->done, 0, memory_order_relaxed);
	atomic_store(&team->claim, ClaimWord(team->seq, blocks, 0)); /* seq_cst: see pbd_Team_Work */
	/* seq_cst against the helper's sleepers++ then seq32 check: one of the two sees the other */
	atomic_store(&team->seq32, (int)team->seq);
	if (atomic_load(&team->sleepers) > 0) WakeAll(&team->seq32);
	if (blocks > 1 && atomic_load(&team->parked) > 0) {
		atomic_fetch_add(&team->wake, 1);
		WakeAll(&team->wake);
	}
}

/* A helper inside a step: take blocks of every loop published, spin between loops, park on
   seq32 after SPINS idle turns, leave when the step ends. */
static uint32_t RunActive(pbdTeam* team)
{
	uint32_t last = (uint32_t)-1;
	int spins = 0;
	while (atomic_load_explicit(&team->state, memory_order_acquire) == TEAM_ACTIVE) {
		const uint64_t c = atomic_load_explicit(&team->claim, memory_order_acquire);
		const uint32_t seq = (uint32_t)(c >> (2 * COUNT_BITS));
		if (seq != last) {
			RunBlocks(team, seq);
			last = seq;
			spins = 0;
			continue;
		}
		Pause();
		if (++spins < SPINS) continue;
		spins = 0;
		atomic_fetch_add(&team->sleepers, 1);
		if ((uint32_t)atomic_load(&team->seq32) == last && atomic_load(&team->state) == TEAM_ACTIVE) {
			Wait32(&team->seq32, (int)last);
		}
		atomic_fetch_sub(&team->sleepers, 1);
	}
	return last;
}

void pbd_Team_Work(pbdTeam* team, int32_t index)
{
	if (team == NULL || index < 1 || index >= team->maxThreads) return;
	uint32_t last = (uint32_t)-1; /* the loop last seen: a new one (not the one a step ended with) wakes us */
	for (;;) {
		const int wake = atomic_load(&team->wake);
		const int state = atomic_load(&team->state);
		if (state == TEAM_STOP) return;
		atomic_fetch_add(&team->parked, 1);
		/* seq_cst: Publish stores the claim word, then reads parked; here parked is raised, then
		   the claim word read: one of the two sees the other */
		const uint64_t c = atomic_load(&team->claim);
		const uint32_t seq = (uint32_t)(c >> (2 * COUNT_BITS));
		const int work = state == TEAM_ACTIVE && seq != last && ((c >> COUNT_BITS) & MAX_BLOCKS) > 1 &&
						 index < atomic_load_explicit(&team->participants, memory_order_relaxed);
		if (!work) Wait32(&team->wake, wake);
		atomic_fetch_sub(&team->parked, 1);
		if (work) last = RunActive(team);
	}
}

void pbd_Team_Stop(pbdTeam* team)
{
	if (team == NULL) return;
	atomic_store(&team->state, TEAM_STOP);
	atomic_fetch_add(&team->wake, 1);
	WakeAll(&team->wake);
	team->fn = NULL;
	Publish(team, 0);
	WakeAll(&team->seq32);
}

int pbd_Team_Begin(pbdWorld* w)
{
	pbdTeam* team = w->team;
	w->teamActive = 0;
	if (team == NULL || w->threads <= 1) return 0;
	int expected = 0;
	if (!atomic_compare_exchange_strong(&team->owner, &expected, 1)) return 0; /* another world steps on it */
	if (atomic_load(&team->state) != TEAM_IDLE) {                            /* stopped */
		atomic_store(&team->owner, 0);
		return 0;
	}
	/* The helpers are not woken here but by the first loop of more than one block (Publish):
	   a small world's loops are one block each, and waking threads to spin beside the one
	   that works would cost it more than they bring. */
	atomic_store_explicit(&team->participants, w->threads, memory_order_relaxed);
	atomic_store(&team->state, TEAM_ACTIVE);
	w->teamActive = 1;
	return 1;
}

void pbd_Team_End(pbdWorld* w)
{
	pbdTeam* team = w->team;
	if (!w->teamActive) return;
	atomic_store(&team->state, TEAM_IDLE);
	Publish(team, 0); /* wakes the helpers parked on seq32, which then see the team idle */
	atomic_store(&team->owner, 0);
	w->teamActive = 0;
}

void pbd_Parallel_For(pbdWorld* w, int32_t count, int32_t block, pbdBlockFn* fn, void* data)
{
	if (count <= 0) return;
	if (block < 1) block = 1;
	/* the block size follows the count alone, never the thread count */
	if ((count - 1) / block + 1 > MAX_BLOCKS) block = (count - 1) / MAX_BLOCKS + 1;
	const int32_t blocks = (count - 1) / block + 1;
	if (!w->teamActive || blocks == 1) {
		for (int32_t begin = 0; begin < count; begin += block) fn(data, begin, count - begin < block ? count : begin + block);
		return;
	}
	pbdTeam* team = w->team;
	team->fn = fn;
	team->data = data;
	team->count = count;
	team->block = block;
	Publish(team, blocks);
	RunBlocks(team, team->seq);
	int spins = 0;
	while (atomic_load_explicit(&team->done, memory_order_acquire) < blocks) {
		Pause();
		/* a helper holding a block was descheduled (more threads than cores): let it run */
		if (++spins >= SPINS) {
			spins = 0;
			const int seen = atomic_load(&team->done);
			if (seen < blocks) Wait32(&team->done, seen);
		}
	}
}
