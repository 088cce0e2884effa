/* host/threads.c -- host/threads.h over pthreads. */
#include "host/threads.h"

#include <pthread.h>
#include <stdlib.h>

struct pbdThreads {
	pbdTeam* team;
	void* memory;
	int32_t count; ///< helpers started
	pthread_t helpers[PBD_MAX_THREADS];
	struct Helper {
		pbdTeam* team;
		int32_t index;
	} args[PBD_MAX_THREADS];
};

static void* HelperMain(void* arg)
{
	const struct Helper* h = arg;
	pbd_Team_Work(h->team, h->index);
	return NULL;
}

pbdThreads* pbd_Threads_Start(int32_t maxThreads)
{
	const int32_t bytes = pbd_Team_Bytes(maxThreads);
	if (bytes == 0) return NULL;
	pbdThreads* t = calloc(1, sizeof *t);
	if (t == NULL) return NULL;
	if (posix_memalign(&t->memory, 64, (size_t)bytes) != 0) {
		free(t);
		return NULL;
	}
	t->team = pbd_Team_Init(t->memory, maxThreads);
	for (int32_t i = 1; t->team != NULL && i < maxThreads; ++i) {
		t->args[i] = (struct Helper){ t->team, i };
		if (pthread_create(&t->helpers[i], NULL, HelperMain, &t->args[i]) != 0) break;
		t->count = i;
	}
	if (t->team == NULL || t->count != maxThreads - 1) {
		pbd_Threads_Stop(t);
		return NULL;
	}
	return t;
}

pbdTeam* pbd_Threads_Team(pbdThreads* t) { return t != NULL ? t->team : NULL; }

void pbd_Threads_Stop(pbdThreads* t)
{
	if (t == NULL) return;
	if (t->team != NULL) pbd_Team_Stop(t->team);
	for (int32_t i = 1; i <= t->count; ++i) pthread_join(t->helpers[i], NULL);
	free(t->memory);
	free(t);
}
