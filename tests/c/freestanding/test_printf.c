/* test_printf.c -- the threaded wasm's own vsnprintf (src/wasm/freestanding/printf.c) against
   glibc's, natively: every conversion the core uses, %g over a few hundred values (the floats
   a message shows, exact ties, rounding carries, the %e/%f switch, subnormals, inf, nan).
   Built with the freestanding functions renamed (fs_snprintf), so both live in one program. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int fs_snprintf(char* buf, size_t cap, const char* fmt, ...);

static int failures, checks;

#define CHECK(fmt, ...)                                                                   \
	do {                                                                                  \
		char want[512], got[512];                                                         \
		const int nw = snprintf(want, sizeof want, fmt, __VA_ARGS__);                     \
		const int ng = fs_snprintf(got, sizeof got, fmt, __VA_ARGS__);                    \
		checks++;                                                                         \
		if (nw != ng || strcmp(want, got) != 0) {                                         \
			if (failures++ < 20) printf("%s: glibc \"%s\" (%d), ours \"%s\" (%d)\n", fmt, want, nw, got, ng); \
		}                                                                                 \
	} while (0)

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint64_t Next(void)
{
	g_rng ^= g_rng << 13;
	g_rng ^= g_rng >> 7;
	g_rng ^= g_rng << 17;
	return g_rng;
}

int main(void)
{
	CHECK("%d %d %d %i", 0, -1, 2147483647, (-2147483647 - 1));
	CHECK("%u %u", 0u, 4294967295u);
	CHECK("%lu %lu", 0ul, 4294967295ul);
	CHECK("%lld %lld %lld", 0ll, 9223372036854775807ll, (-9223372036854775807ll - 1));
	CHECK("[%c%c] %s|%s|", 'a', 'Z', "text", "");
	CHECK("100%% of %d", 3);
	CHECK("object %d: %s is %g, not in [%g, %g]", 4, "mass", 1e-7, 0.0, 1e6);

	const double fixed[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 10.0, 100.0, 1e5, 1e6,
		999999.0, 999999.5, 9999995.0, 123456.5, 123457.5, 1234565.0, 0.0001, 0.00001, 0.000123456789, 1e-4, 9.9999949e-5,
		9.99999e-5, 9.999995e-5, 1e15, 1e16, 1e21, 1e100, 1e300, 1e308, DBL_MAX, DBL_MIN, 4.9406564584124654e-324,
		2.2250738585072009e-308, 0.125, 0.375, 2.5, 1.5, 12.5, 0.0625, 1.00000049999, 1.0000005, 1.0000015, 3.14159265358979,
		2.718281828, 9.81, 0.016666666666666666, 1.0 / 60.0, 6.0221e23, 1.602e-19, (double)3.4028234663852886e38f,
		(double)1.17549435e-38f, (double)0.1f, (double)0.3f, (double)1e-6f, (double)65504.0f, INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		CHECK("%g", fixed[i]);
		CHECK("%g|%g", -fixed[i], fixed[i] * 7.0);
	}
	for (int i = 0; i < 400; i++) {
		/* random bit patterns (every exponent), random floats over the messages' ranges, and
		   six-digit decimals with a 5 after them (the ties and near-ties) */
		union { uint64_t u; double d; } r = { Next() };
		if (isfinite(r.d)) CHECK("%g", r.d);
		const float f = (float)((double)(Next() % 2000001) / 1000.0 - 1000.0) * powf(10.0f, (float)((int)(Next() % 21) - 10));
		CHECK("%g", (double)f);
		const double tie = ((double)(Next() % 900000) + 100000.5) * pow(10.0, (double)((int)(Next() % 15) - 8));
		CHECK("%g", tie);
		CHECK("%.3g %.1g %.0g %.10g", tie, r.d, (double)f, (double)f);
	}
	/* a buffer too short: the same truncation and the same length */
	char small[8], want[8];
	const int ng = fs_snprintf(small, sizeof small, "%s %g", "truncated", 123.456);
	const int nw = snprintf(want, sizeof want, "%s %g", "truncated", 123.456);
	checks++;
	if (ng != nw || strcmp(small, want) != 0) failures++, printf("truncation: glibc \"%s\" (%d), ours \"%s\" (%d)\n", want, nw, small, ng);

	printf("freestanding printf: %d checks, %d failures\n", checks, failures);
	return failures != 0;
}
