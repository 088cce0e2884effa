/* freestanding/string.c -- the string functions the core calls (threaded wasm build only).
   memcpy/memset/memmove are memory.copy/memory.fill there (-mbulk-memory). */
#include <stddef.h>

int memcmp(const void* a, const void* b, size_t n)
{
	const unsigned char* x = a;
	const unsigned char* y = b;
	for (size_t i = 0; i < n; i++) {
		if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
	}
	return 0;
}

int strcmp(const char* a, const char* b)
{
	while (*a != '\0' && *a == *b) a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

size_t strlen(const char* s)
{
	const char* p = s;
	while (*p != '\0') p++;
	return (size_t)(p - s);
}
