/* services/boundary.c -- the walls' storage and table (services/boundary.h). */
#include "services/boundary.h"

size_t pbd_Boundary_Bytes(int32_t maxColliders)
{
	const size_t C = (size_t)maxColliders;
	return pbd_PoolBytes(1, sizeof(pbdBoundary)) + pbd_PoolBytes(C, sizeof(pbdCollider)) + pbd_PoolBytes(C, sizeof(pbdXf));
}

int pbd_Boundary_Create(pbdWorld* w, pbdPool* pool, int32_t maxColliders)
{
	pbdBoundary* b = pbd_PoolAlloc(pool, 1, sizeof(pbdBoundary));
	if (b == NULL) return 0;
	b->colliders = pbd_PoolAlloc(pool, (size_t)maxColliders, sizeof(pbdCollider));
	b->xf = pbd_PoolAlloc(pool, (size_t)maxColliders, sizeof(pbdXf));
	b->capacity = maxColliders;
	w->boundary = b;
	return b->xf != NULL || maxColliders == 0;
}

pbdWalls pbd_Boundary_Walls(pbdWorld* w, float alpha)
{
	pbdBoundary* b = pbd_Boundary(w);
	pbdWalls walls;
	walls.ground = pbd_Boundary_Ground(w, &walls.groundY);
	for (int32_t c = 0; c < b->count; ++c) {
		const pbdCollider* col = &b->colliders[c];
		pbd_XfInterpolate(col->prevPosition, col->prevRotation, col->shape.position, col->shape.rotation, alpha, &b->xf[c]);
	}
	walls.colliders = b->colliders;
	walls.xf = b->xf;
	walls.count = b->count;
	walls.invDt = 1.0f / w->params[pbdParam_dt];
	return walls;
}
