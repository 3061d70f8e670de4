/* Double-double arithmetic (Dekker 1971; Knuth TAOCP 4.2.2): a value as
 * an unevaluated sum hi + lo of doubles, about 106 bits, from IEEE double
 * +, -, *, / alone (no FMA: -ffp-contract=off). It replaces long double in
 * the matrix solve: the same bits on every platform (x86's long double is
 * 64-bit x87, AArch64's and wasm32's a 113-bit software float, 20-30 ns
 * an operation in wasm), and more precision than either of the first. */
#ifndef SATC_DD_H
#define SATC_DD_H

typedef struct dd {
    double hi, lo;
} dd;

static inline dd dd_d(double a) { return (dd){a, 0.0}; }

/* a + b exactly (any order of magnitude). */
static inline dd dd_two_sum(double a, double b)
{
    double s = a + b, v = s - a;
    return (dd){s, (a - (s - v)) + (b - v)};
}

/* a + b exactly when |a| >= |b|. */
static inline dd dd_fast_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}

/* a * b exactly (Veltkamp's split into 26-bit halves; |a|, |b| < 2^996). */
static inline dd dd_two_prod(double a, double b)
{
    double p = a * b, t;
    t = 134217729.0 * a;
    double ah = t - (t - a), al = a - ah;
    t = 134217729.0 * b;
    double bh = t - (t - b), bl = b - bh;
    return (dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline dd dd_add(dd a, dd b)
{
    dd s = dd_two_sum(a.hi, b.hi), t = dd_two_sum(a.lo, b.lo);
    s = dd_fast_sum(s.hi, s.lo + t.hi);
    return dd_fast_sum(s.hi, s.lo + t.lo);
}

static inline dd dd_neg(dd a) { return (dd){-a.hi, -a.lo}; }
static inline dd dd_sub(dd a, dd b) { return dd_add(a, dd_neg(b)); }

static inline dd dd_mul(dd a, dd b)
{
    dd p = dd_two_prod(a.hi, b.hi);
    return dd_fast_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

/* Long division, three quotient digits. */
static inline dd dd_div(dd a, dd b)
{
    double q1 = a.hi / b.hi;
    dd r = dd_sub(a, dd_mul(b, dd_d(q1)));
    double q2 = r.hi / b.hi;
    r = dd_sub(r, dd_mul(b, dd_d(q2)));
    double q3 = r.hi / b.hi;
    return dd_add(dd_fast_sum(q1, q2), dd_d(q3));
}

/* The nearest double (hi, after the normalisation every operation ends with). */
static inline double dd_to_d(dd a) { return a.hi + a.lo; }

#endif
