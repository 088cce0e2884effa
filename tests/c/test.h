/* test.h -- tiny test harness in the manner of Box2D's test_macros.h.
   ENSURE fails the current test and returns; ENSURE_NEAR compares with a tolerance.
   main.c runs every test whose name contains the filter given on the command line. */
#ifndef PBD_TEST_H
#define PBD_TEST_H

#include <math.h>
#include <stdio.h>

extern int g_testFailed;

#define ENSURE(c)                                                                 \
	do {                                                                          \
		if (!(c)) {                                                               \
			printf("  FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);               \
			g_testFailed = 1;                                                     \
			return;                                                               \
		}                                                                         \
	} while (0)

#define ENSURE_NEAR(a, b, tol)                                                    \
	do {                                                                          \
		double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);            \
		if (!(fabs(a_ - b_) <= t_)) {                                             \
			printf("  FAILED %s:%d: %s = %.9g, expected %s = %.9g (tol %g)\n",    \
				   __FILE__, __LINE__, #a, a_, #b, b_, t_);                       \
			g_testFailed = 1;                                                     \
			return;                                                               \
		}                                                                         \
	} while (0)

typedef void (*TestFn)(void);
typedef struct TestCase {
	const char* name;
	TestFn fn;
} TestCase;

#endif
