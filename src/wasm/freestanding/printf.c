/* freestanding/printf.c -- vsnprintf/snprintf for the threaded wasm build: exactly the
   conversions the core's messages use (%d %i %u %lu %ld %lld %llu %c %s %g %%, %g with an optional
   precision), printed as glibc prints them, so an error message reads the same in every build
   (tests/c/freestanding/test_printf.c compares them natively for a few hundred values).

   %g is exact: the double's binary value is written out in full as decimal digits (a double
   m * 2^e is m * 5^-e / 10^-e, so at most ~770 digits) and rounded once to the precision, half to
   even on an exact tie (glibc's rule in round-to-nearest), then printed in %e or %f style by C's
   rule (exponent X: %e when X < -4 or X >= P) with trailing zeros dropped. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Out {
	char* buf;
	size_t cap;
	size_t len; /* what the whole output needs, as snprintf returns */
} Out;

static void Put(Out* o, char c)
{
	if (o->len + 1 < o->cap) o->buf[o->len] = c;
	o->len++;
}

static void PutString(Out* o, const char* s)
{
	while (*s != '\0') Put(o, *s++);
}

static void PutUnsigned(Out* o, unsigned long long v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0) Put(o, tmp[--n]);
}

static void PutSigned(Out* o, long long v)
{
	if (v < 0) {
		Put(o, '-');
		PutUnsigned(o, 0ull - (unsigned long long)v);
	} else {
		PutUnsigned(o, (unsigned long long)v);
	}
}

/* ---------------------------------------------------------------- %g */

#define LIMBS 100              /* base 1e9: 900 digits, more than the 767 of the longest double */
#define LIMB_BASE 1000000000u

/* big *= mul (mul < 2^31); returns the new limb count. */
static int MulSmall(uint32_t* big, int n, uint32_t mul)
{
	uint64_t carry = 0;
	for (int i = 0; i < n; i++) {
		const uint64_t t = (uint64_t)big[i] * mul + carry;
		big[i] = (uint32_t)(t % LIMB_BASE);
		carry = t / LIMB_BASE;
	}
	while (carry != 0 && n < LIMBS) {
		big[n++] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
	return n;
}

/* The exact decimal digits of v > 0 (finite) into digits (no leading zero), their count as the
   result; v = 0.d1d2d3... * 10^*point. */
static int ExactDigits(double v, char* digits, int* point)
{
	union { double d; uint64_t u; } bits = { v };
	const int biased = (int)((bits.u >> 52) & 0x7ff);
	uint64_t m = bits.u & ((1ull << 52) - 1);
	int e;
	if (biased == 0) {
		e = -1074;
	} else {
		m |= 1ull << 52;
		e = biased - 1075;
	}
	uint32_t big[LIMBS];
	int n = 0;
	while (m != 0) {
		big[n++] = (uint32_t)(m % LIMB_BASE);
		m /= LIMB_BASE;
	}
	int shift = 0; /* decimal places below the digits' end */
	if (e >= 0) {
		for (; e >= 29; e -= 29) n = MulSmall(big, n, 1u << 29);
		if (e > 0) n = MulSmall(big, n, 1u << e);
	} else {
		shift = -e;
		for (e = -e; e >= 13; e -= 13) n = MulSmall(big, n, 1220703125u); /* 5^13 */
		uint32_t p5 = 1;
		while (e-- > 0) p5 *= 5;
		if (p5 > 1) n = MulSmall(big, n, p5);
	}
	int count = 0;
	char tmp[9];
	for (int i = n - 1; i >= 0; i--) {
		uint32_t limb = big[i];
		for (int k = 8; k >= 0; k--) {
			tmp[k] = (char)('0' + limb % 10);
			limb /= 10;
		}
		for (int k = 0; k < 9; k++) {
			if (count == 0 && tmp[k] == '0') continue;
			digits[count++] = tmp[k];
		}
	}
	*point = count - shift;
	return count;
}

static void PutG(Out* o, double v, int precision)
{
	union { double d; uint64_t u; } bits = { v };
	const int negative = (int)(bits.u >> 63);
	if ((bits.u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) {
		if (negative) Put(o, '-');
		PutString(o, (bits.u & 0x000fffffffffffffull) != 0 ? "nan" : "inf");
		return;
	}
	if (negative) {
		Put(o, '-');
		v = -v;
	}
	const int P = precision < 0 ? 6 : precision == 0 ? 1 : precision > 40 ? 40 : precision;
	char digits[LIMBS * 9 + 2];
	int point = 1;
	int n = 0;
	if (v == 0.0) {
		digits[0] = '0';
		n = 1;
	} else {
		n = ExactDigits(v, digits, &point);
	}
	/* round to P significant digits */
	if (n > P) {
		const char d = digits[P];
		int up = d > '5';
		if (d == '5') {
			int rest = 0;
			for (int i = P + 1; i < n; i++) rest |= digits[i] != '0';
			up = rest || ((digits[P - 1] - '0') & 1);
		}
		n = P;
		if (up) {
			int i = P - 1;
			while (i >= 0 && digits[i] == '9') digits[i--] = '0';
			if (i >= 0) {
				digits[i]++;
			} else {
				digits[0] = '1';
				for (int k = 1; k < P; k++) digits[k] = '0';
				point++;
			}
		}
	}
	while (n < P) digits[n++] = '0';
	while (n > 1 && digits[n - 1] == '0') n--; /* %g drops trailing zeros */
	const int X = v == 0.0 ? 0 : point - 1;
	if (X < -4 || X >= P) {
		Put(o, digits[0]);
		if (n > 1) {
			Put(o, '.');
			for (int i = 1; i < n; i++) Put(o, digits[i]);
		}
		Put(o, 'e');
		Put(o, X < 0 ? '-' : '+');
		const int ax = X < 0 ? -X : X;
		if (ax < 10) Put(o, '0');
		PutUnsigned(o, (unsigned)ax);
	} else if (X >= 0) {
		for (int i = 0; i <= X; i++) Put(o, i < n ? digits[i] : '0');
		if (n > X + 1) {
			Put(o, '.');
			for (int i = X + 1; i < n; i++) Put(o, digits[i]);
		}
	} else {
		PutString(o, "0.");
		for (int i = 0; i < -X - 1; i++) Put(o, '0');
		for (int i = 0; i < n; i++) Put(o, digits[i]);
	}
}

/* ---------------------------------------------------------------- the formats */

int vsnprintf(char* buf, size_t cap, const char* fmt, va_list ap)
{
	Out o = { buf, cap, 0 };
	for (const char* f = fmt; *f != '\0'; f++) {
		if (*f != '%') {
			Put(&o, *f);
			continue;
		}
		const char* start = f++;
		int precision = -1;
		if (*f == '.') {
			precision = 0;
			for (f++; *f >= '0' && *f <= '9'; f++) precision = precision * 10 + (*f - '0');
		}
		int longs = 0;
		while (*f == 'l') longs++, f++;
		switch (*f) {
		case 'd':
		case 'i':
			PutSigned(&o, longs >= 2 ? va_arg(ap, long long) : longs == 1 ? va_arg(ap, long) : va_arg(ap, int));
			break;
		case 'u':
			PutUnsigned(&o, longs >= 2 ? va_arg(ap, unsigned long long) : longs == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned));
			break;
		case 'c': Put(&o, (char)va_arg(ap, int)); break;
		case 's': {
			const char* s = va_arg(ap, const char*);
			PutString(&o, s != NULL ? s : "(null)");
			break;
		}
		case 'g': PutG(&o, va_arg(ap, double), precision); break;
		case '%': Put(&o, '%'); break;
		default:
			/* not a conversion the core uses: printed as written, so the message shows it */
			for (const char* c = start; c <= f && *c != '\0'; c++) Put(&o, *c);
			if (*f == '\0') f--;
			break;
		}
	}
	if (cap > 0) buf[o.len < cap ? o.len : cap - 1] = '\0';
	return (int)o.len;
}

int snprintf(char* buf, size_t cap, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}
