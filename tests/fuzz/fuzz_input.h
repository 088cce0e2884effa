/* fuzz_input.h -- how tests/fuzz/fuzz_api.c reads its input: the opcodes of the calls it
   makes and the decoding of the fuzzer's bytes into arguments. Shared with the corpus
   generator (make_corpus.c), which writes bytes in exactly this encoding.

   An input is a sequence of operations: one opcode byte (taken modulo FUZZ_OP_COUNT), then
   that operation's arguments. Every read past the end yields 0, so any byte string is a
   valid program. Arguments are chosen so that a mutation of one byte moves between a
   valid value, a boundary and a hostile one:

     float     selector byte s: s < FUZZ_SPECIAL_COUNT picks a special value (NaN, infinities,
               the largest float, a denormal, 1e5 and just past it, ...); s < 0xd0 is a small
               number (next byte, signed, / 8: -16..15.875 in steps of 1/8); otherwise the next
               4 bytes are the raw bits.
     index     selector byte s: s < 0xc0 is a valid index (next byte modulo the count, 0 when
               the count is 0), otherwise -1, the count, the count + 1, INT_MIN, INT_MAX, or
               4 raw bytes.
     capacity  selector byte s: s < 0xe0 is the next 2 bytes modulo (limit + 1) (0 means the
               default); otherwise -1, limit + 1, INT_MIN, a huge value, 1.
*/
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum FuzzOp {
	FUZZ_OP_CREATE_WORLD = 0, ///< slot, flags, 8 capacities
	FUZZ_OP_DESTROY_WORLD,    ///< world
	FUZZ_OP_ADD_CHAIN,        ///< world, flags, field mask, start[3], end[3], segments, mass
	FUZZ_OP_ADD_CLOTH,        ///< world, flags, field mask, origin[3], axisU[3], axisV[3], nu, nv, mass
	FUZZ_OP_ADD_ATTACHMENT,   ///< world, particle, target[3], stiffness
	FUZZ_OP_MOVE_ATTACHMENT,  ///< world, attachment, target[3]
	FUZZ_OP_REMOVE_ATTACHMENT,///< world, attachment
	FUZZ_OP_ADD_COLLIDER,     ///< world, flags, field mask (2 bytes), type, fields
	FUZZ_OP_SET_COLLIDER_XF,  ///< world, collider, position[3], rotation[4]
	FUZZ_OP_SET_COLLIDER_MAT, ///< world, collider, 3 floats
	FUZZ_OP_SET_POSITION,     ///< world, particle, 3 floats
	FUZZ_OP_SET_VELOCITY,     ///< world, particle, 3 floats
	FUZZ_OP_SET_MASS,         ///< world, particle, float
	FUZZ_OP_SET_INV_MASS,     ///< world, particle, float
	FUZZ_OP_SET_PARAM,        ///< world, param index, mode, [float | fraction byte]
	FUZZ_OP_SET_STIFFNESS,    ///< world, object, kind, float
	FUZZ_OP_STEP,             ///< world, count byte (1 + b % 4 steps)
	FUZZ_OP_FIND_PAIRS,       ///< world
	FUZZ_OP_UPDATE_NORMALS,   ///< world
	FUZZ_OP_UPDATE_ERRORS,    ///< world
	FUZZ_OP_GET_STATS,        ///< world, null byte
	FUZZ_OP_RAY_PICK,         ///< world, origin[3], direction[3], radius
	FUZZ_OP_RAY_COLLIDERS,    ///< world, origin[3], direction[3], null byte
	FUZZ_OP_COLLIDER_DISTANCE,///< world, collider, point[3]
	FUZZ_OP_QUERY,            ///< world, which, index, float: the read-only calls
	FUZZ_OP_SELECT,           ///< slot: the world the next calls address by default
	FUZZ_OP_ADD_BODY,         ///< world, flags, field mask (2 bytes), fields, [mesh, mutations] (fuzz_bodies.c)
	FUZZ_OP_UPDATE_SKIN,      ///< world
	FUZZ_OP_ADD_FLUID,        ///< world, flags, field mask, lower[3], upper[3], velocity[3], capacity (fuzz_fluids.c)
	FUZZ_OP_ADD_EMITTER,      ///< world, flags (4: SetEmitter), field mask, object, fields, emitter index
	FUZZ_OP_ADD_DRAIN,        ///< world, mask, lower[3], upper[3]
	FUZZ_OP_SET_THREADS,      ///< world, byte: threads (b & 7) - 1, on no team when b & 0x80 (fuzz_step.c)
	FUZZ_OP_STEP_SLICE,       ///< world, units byte (1 + b % 8)
	FUZZ_OP_SET_FILTER,       ///< world, object index, category u32, mask u32
	FUZZ_OP_COUNT
} FuzzOp;

/// World slots the harness keeps; a world is addressed through them (or a stale or bad id).
#define FUZZ_SLOTS 3

/// Selector bytes for a world handle: below FUZZ_WORLD_CURRENT the current slot's world,
/// then the other slots, then stale ids, then bad ids.
#define FUZZ_WORLD_CURRENT 0xb0
#define FUZZ_WORLD_OTHER 0xd0
#define FUZZ_WORLD_STALE 0xe8

#define FUZZ_SPECIAL_COUNT 48
#define FUZZ_SMALL_END 0xd0

/// Special floats. The order is part of the encoding (the corpus refers to them by index).
static inline float FuzzSpecial(int i)
{
	switch (i % FUZZ_SPECIAL_COUNT) {
	case 0: return 0.0f;
	case 1: return -0.0f;
	case 2: return 1.0f;
	case 3: return -1.0f;
	case 4: return 0.5f;
	case 5: return 2.0f;
	case 6: return 0.1f;
	case 7: return 0.01f;
	case 8: return 1e-3f;
	case 9: return 1e-4f;
	case 10: return 1e-6f;
	case 11: return 1e6f;
	case 12: return 1e5f;
	case 13: return -1e5f;
	case 14: return nextafterf(1e5f, INFINITY);
	case 15: return 1e4f;
	case 16: return 100.0f;
	case 17: return 1000.0f;
	case 18: return 64.0f;
	case 19: return 200.0f;
	case 20: return 10.0f;
	case 21: return 1.0f / 60.0f;
	case 22: return NAN;
	case 23: return -NAN;
	case 24: return INFINITY;
	case 25: return -INFINITY;
	case 26: return FLT_MAX;
	case 27: return -FLT_MAX;
	case 28: return FLT_MIN;
	case 29: return 1e-40f;   /* denormal */
	case 30: return 1.4e-45f; /* the smallest denormal */
	case 31: return 1e-30f;
	case 32: return 0.9999f;
	case 33: return 1.0001f;
	case 34: return 16777216.0f;
	case 35: return 0.3f;
	case 36: return -9.81f;
	case 37: return 2.5f;
	case 38: return 0.05f;
	case 39: return 45.9f;
	case 40: return 1e-7f;
	case 41: return 0.2f;
	case 42: return 3.0f;
	case 43: return 1e38f;
	case 44: return 4.2e9f; /* past INT_MAX */
	case 45: return nextafterf(1.0f, INFINITY);
	case 46: return nextafterf(0.0f, 1.0f) * 4.0f;
	default: return -2.0f;
	}
}

typedef struct FuzzReader {
	const uint8_t* data;
	size_t size, at;
} FuzzReader;

static inline int FuzzDone(const FuzzReader* r) { return r->at >= r->size; }

static inline uint8_t FuzzU8(FuzzReader* r) { return r->at < r->size ? r->data[r->at++] : 0; }

static inline uint32_t FuzzU32(FuzzReader* r)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; ++i) v |= (uint32_t)FuzzU8(r) << (8 * i);
	return v;
}

static inline float FuzzFloat(FuzzReader* r)
{
	uint8_t s = FuzzU8(r);
	if (s < FUZZ_SPECIAL_COUNT) return FuzzSpecial(s);
	if (s < FUZZ_SMALL_END) return (float)(int8_t)FuzzU8(r) / 8.0f;
	uint32_t bits = FuzzU32(r);
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static inline int32_t FuzzIndex(FuzzReader* r, int32_t count)
{
	uint8_t s = FuzzU8(r);
	if (s < 0xc0) {
		uint8_t i = FuzzU8(r); /* read even when count is 0, so the bytes that follow mean the same */
		return count > 0 ? i % count : 0;
	}
	switch (s % 6) {
	case 0: return -1;
	case 1: return count;
	case 2: return count + 1;
	case 3: return INT_MIN;
	case 4: return INT_MAX;
	default: return (int32_t)FuzzU32(r);
	}
}

static inline int32_t FuzzCapacity(FuzzReader* r, int32_t limit)
{
	uint8_t s = FuzzU8(r);
	if (s < 0xe0) {
		uint32_t v = FuzzU8(r);
		v |= (uint32_t)FuzzU8(r) << 8;
		return (int32_t)(v % ((uint32_t)limit + 1));
	}
	switch (s % 5) {
	case 0: return -1;
	case 1: return limit + 1;
	case 2: return INT_MIN;
	case 3: return INT_MAX;
	default: return 1;
	}
}

#endif
