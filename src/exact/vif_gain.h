/* SPDX-License-Identifier: BSD-3-Clause */
/* The two integers the integer VIF (libvmaf integer_vif.c) takes from fp64 on
 * a pixel of its log branch (sigma1_sq >= 2^17, sigma12 > 0, sigma2_sq > 0):
 *
 *   g     = sigma12 / (sigma1_sq + eps)              eps = 65536 * 1.0e-10
 *   sv_sq = max((int32_t)(sigma2_sq - g * sigma12), 0)
 *   g     = min(g, vif_enhn_gain_limit)
 *   gg    = (int64_t)(g * g * sigma1_sq)
 *
 * computed without an fp64 type and equal to the reference's for every input.
 *
 * Integer evaluation. fl(sigma1_sq + eps) is exactly D = Dm / 2^j with
 * Dm = sigma1_sq * 2^j + N (j = 52 - floor(log2 sigma1_sq), N the eps rounded
 * to that binade's ulp). With S = sigma12^2 and q, r = divmod(S, sigma1_sq)
 * (the one division), the exact values are
 *
 *   sigma2_sq - S / D       = sigma2_sq - q + W / (sigma1_sq * Dm)
 *   S * sigma1_sq / D^2     = q + V / (sigma1_sq * Dm) + t,  0 <= t < (q+1) 2^-68
 *   W = S*N - r*Dm,  V = r*Dm - 2*S*N          (128-bit integers, exact)
 *
 * and with q < 2^32 the fraction W / (sigma1_sq Dm) lies in (-1, 1/4) and
 * V / (sigma1_sq Dm) in (-1/2, 1), so the integer parts come from the signs
 * of W and V. The fp64 chain differs from the exact value by its roundings:
 * at most 3.0001 * 2^-53 * max(q + 1, sigma2_sq) for sv_sq (three roundings)
 * and 4.0001 * 2^-53 * (q + 1) for gg (four). A sample whose exact value is
 * within 2^-51 * max(q+1, sigma2_sq) (sv_sq), or 2^-50 * (q+1) (gg), of an
 * integer at which the truncated result changes is undecided; around 0 the
 * clamp gives 0 from both sides, so that boundary decides. Undecided samples
 * (and any input outside the integer path's domain) are replayed: the
 * reference's operations on soft fp64 values, each rounded as fp64 rounds.
 *
 * The gain limit. g < L decides the clamp. For an integer L in [1, 127] that
 * is sigma12 <= L * sigma1_sq exactly (the quotient is then at least a
 * relative 2^-48 away from L, far more than one rounding). For any other L in
 * [1, 128) the exact quotient sigma12 * 2^j / Dm is compared with the midpoint
 * between L and its fp64 predecessor in 128-bit integers, which is what
 * rounding the quotient and comparing it with L amounts to. A limit outside
 * [1, 128) or not finite makes every sample replay. When clamped, gg is
 * trunc(fl(fl(L * L) * sigma1_sq)), exact in integers for an integer L. */
#ifndef VMAFX_EXACT_VIF_GAIN_H
#define VMAFX_EXACT_VIF_GAIN_H

#include "int128.h"
#include "softfp64.h"
#include "vif_tables.h"

#define VMAFX_VIF_LIMIT_INTEGER 0
#define VMAFX_VIF_LIMIT_EXACT 1
#define VMAFX_VIF_LIMIT_REPLAY 2

/* The option converted once (vmafx_vif_limit_make); passed by value. */
typedef struct vmafx_vif_limit {
    vmafx_u64 bits;      /* the limit L */
    vmafx_u64 mid_m;     /* midpoint between L and its predecessor: mid_m * 2^mid_e */
    vmafx_i64 int_value; /* L, when an integer */
    vmafx_i32 mid_e;
    vmafx_i32 mode;      /* VMAFX_VIF_LIMIT_* */
    vmafx_i32 tie_below; /* a quotient exactly at the midpoint rounds below L */
    vmafx_i32 pad_;
} vmafx_vif_limit;

typedef struct vmafx_vif_gain {
    vmafx_i64 gg;   /* (int64_t)(g * g * sigma1_sq) after the clamp */
    vmafx_i32 sv_sq; /* max((int32_t)(sigma2_sq - g * sigma12), 0) */
    vmafx_i32 replayed; /* 1 when soft fp64 decided it (integer path undecided) */
} vmafx_vif_gain;

VMAFX_FN vmafx_vif_limit vmafx_vif_limit_make(vmafx_u64 limit_bits)
{
    vmafx_vif_limit r;
    vmafx_sd l = vmafx_sd_from_bits(limit_bits);
    r.bits = limit_bits;
    r.mid_m = 0;
    r.mid_e = 0;
    r.int_value = 0;
    r.tie_below = 0;
    r.pad_ = 0;
    r.mode = VMAFX_VIF_LIMIT_REPLAY;
    /* L = m * 2^e lies in [1, 128) exactly when e is in [-52, -46] */
    if (l.c != VMAFX_SD_FINITE || l.s != 0 || l.m == 0 || l.e < -52 || l.e > -46) return r;
    if ((l.m & ((VMAFX_U64_ONE << (-l.e)) - 1)) == 0) {
        r.mode = VMAFX_VIF_LIMIT_INTEGER;
        r.int_value = (vmafx_i64)(l.m >> (-l.e));
    } else {
        r.mode = VMAFX_VIF_LIMIT_EXACT;
    }
    if (l.m > VMAFX_SD_HIDDEN) { /* predecessor (m - 1) * 2^e */
        r.mid_m = 2 * l.m - 1;
        r.mid_e = l.e - 1;
    } else { /* L a power of two: predecessor (2^53 - 1) * 2^(e-1) */
        r.mid_m = (VMAFX_U64_ONE << 54) - 1;
        r.mid_e = l.e - 2;
    }
    r.tie_below = (vmafx_i32)(l.m & 1); /* ties go to the even significand */
    return r;
}

/* The reference's operations in soft fp64; valid for any int32 inputs. */
VMAFX_FN vmafx_vif_gain vmafx_vif_gain_replay(vmafx_i32 sigma1_sq, vmafx_i32 sigma12,
                                              vmafx_i32 sigma2_sq, vmafx_vif_limit lim)
{
    vmafx_vif_gain out;
    vmafx_sd s1 = vmafx_sd_from_i64(sigma1_sq);
    vmafx_sd s12 = vmafx_sd_from_i64(sigma12);
    vmafx_sd l = vmafx_sd_from_bits(lim.bits);
    vmafx_sd g = vmafx_sd_div(s12, vmafx_sd_add(s1, vmafx_sd_from_bits(VMAFX_VIF_EPS_BITS)));
    vmafx_sd v = vmafx_sd_sub(vmafx_sd_from_i64(sigma2_sq), vmafx_sd_mul(g, s12));
    vmafx_i32 sv = vmafx_sd_to_i32(v);
    out.sv_sq = sv > 0 ? sv : 0;
    if (!vmafx_sd_lt(g, l)) g = l;
    out.gg = vmafx_sd_to_i64(vmafx_sd_mul(vmafx_sd_mul(g, g), s1));
    out.replayed = 1;
    return out;
}

/* RNE(x / 2^sh) for sh in [1, 63]. */
VMAFX_FN vmafx_u64 vmafx_vif_rne_shr_(vmafx_u64 x, int sh)
{
    vmafx_u64 halfway = VMAFX_U64_ONE << (sh - 1);
    vmafx_u64 rem = x & ((halfway << 1) - 1);
    vmafx_u64 q = x >> sh;
    if (rem > halfway || (rem == halfway && (q & 1))) q += 1;
    return q;
}

/* |a - b| of two u128 values and whether a < b. */
typedef struct vmafx_vif_absdiff_ {
    vmafx_u128 v;
    int neg;
} vmafx_vif_absdiff_;

VMAFX_FN vmafx_vif_absdiff_ vmafx_vif_absdiff(vmafx_u128 a, vmafx_u128 b)
{
    vmafx_vif_absdiff_ r;
    r.neg = vmafx_u128_cmp(a, b) < 0;
    r.v = r.neg ? vmafx_u128_sub(b, a) : vmafx_u128_sub(a, b);
    return r;
}

/* The integer path. decided == 0 (replayed field unused) means the sample
 * must be replayed. */
typedef struct vmafx_vif_gain_int {
    vmafx_vif_gain gain;
    vmafx_i32 decided;
    vmafx_i32 pad_;
} vmafx_vif_gain_int;

/* What the integer path and the fp32 filter start from: S = sigma12^2 =
 * q sigma1_sq + r with q < 2^32, and fl(sigma1_sq + eps) = sigma1_sq + N / 2^j.
 * ok == 0 outside their domain (not the log branch with sigma12 and sigma2_sq
 * positive, or q >= 2^32). */
typedef struct vmafx_vif_split_ {
    vmafx_u64 S, q, r, n;
    vmafx_i32 j;
    vmafx_i32 ok;
} vmafx_vif_split_;

VMAFX_FN vmafx_vif_split_ vmafx_vif_split(vmafx_i32 sigma1_sq, vmafx_i32 sigma12, vmafx_i32 sigma2_sq)
{
    vmafx_vif_split_ t;
    vmafx_u64 s1 = (vmafx_u64)(vmafx_u32)sigma1_sq;
    vmafx_sd eps;
    t.S = t.q = t.r = t.n = 0;
    t.j = 0;
    t.ok = 0;
    if (sigma1_sq < VMAFX_VIF_SIGMA_NSQ || sigma12 < 1 || sigma2_sq < 1) return t;
    t.S = (vmafx_u64)sigma12 * (vmafx_u64)sigma12;
    if ((t.S >> 32) >= s1) return t; /* q >= 2^32 */
    {
        vmafx_divmod32 qr = vmafx_divmod_u64_u32(t.S, (vmafx_u32)s1);
        t.q = qr.q;
        t.r = qr.r;
    }
    t.j = 52 - (63 - vmafx_clz64(s1)); /* in [21, 35] */
    eps = vmafx_sd_from_bits(VMAFX_VIF_EPS_BITS);
    t.n = vmafx_vif_rne_shr_(eps.m, -(eps.e + t.j)); /* < 2^18 */
    t.ok = 1;
    return t;
}

/* "Not decided": the result of either path outside its domain. */
VMAFX_FN vmafx_vif_gain_int vmafx_vif_undecided_(void)
{
    vmafx_vif_gain_int out;
    out.decided = 0;
    out.pad_ = 0;
    out.gain.sv_sq = 0;
    out.gain.gg = 0;
    out.gain.replayed = 0;
    return out;
}


VMAFX_FN vmafx_vif_gain_int vmafx_vif_gain_integer(vmafx_i32 sigma1_sq, vmafx_i32 sigma12,
                                                   vmafx_i32 sigma2_sq, vmafx_vif_limit lim)
{
    vmafx_vif_gain_int out = vmafx_vif_undecided_();
    vmafx_u64 s1 = (vmafx_u64)(vmafx_u32)sigma1_sq;
    vmafx_u64 S, q, r, dm, n, m;
    vmafx_u128 s1dm, sn, rdm, thr, w, v;
    vmafx_i64 n0;
    int j, neg, below;
    vmafx_vif_split_ t;
    if (lim.mode == VMAFX_VIF_LIMIT_REPLAY) return out;
    t = vmafx_vif_split(sigma1_sq, sigma12, sigma2_sq);
    if (!t.ok) return out;
    S = t.S;
    q = t.q;
    r = t.r;
    n = t.n;
    j = t.j;
    /* D = fl(sigma1_sq + eps) = Dm / 2^j */
    dm = (s1 << j) + n;
    s1dm = vmafx_mul_u64(s1, dm);
    sn = vmafx_mul_u64(S, n);
    rdm = vmafx_mul_u64(r, dm);

    /* sv_sq: X = sigma2_sq - q + W / (s1 Dm), W = S N - r Dm */
    m = q + 1 > (vmafx_u64)sigma2_sq ? q + 1 : (vmafx_u64)sigma2_sq;
    thr = vmafx_u128_shr(vmafx_u128_mul_u64(s1dm, m), 51);
    {
        vmafx_vif_absdiff_ d = vmafx_vif_absdiff(sn, rdm);
        w = d.v;
        neg = d.neg;
    }
    n0 = (vmafx_i64)sigma2_sq - (vmafx_i64)q - neg; /* floor(X) */
    if (!neg) {
        if (n0 >= 1 && vmafx_u128_cmp(w, thr) <= 0) return out;
    } else {
        if (n0 >= 1 && vmafx_u128_cmp(vmafx_u128_sub(s1dm, w), thr) <= 0) return out;
        if (n0 >= 0 && vmafx_u128_cmp(w, thr) <= 0) return out;
    }
    out.gain.sv_sq = n0 >= 1 ? (vmafx_i32)n0 : 0;

    /* the clamp: g < L */
    if (lim.mode == VMAFX_VIF_LIMIT_INTEGER) {
        below = (vmafx_i64)sigma12 <= lim.int_value * (vmafx_i64)s1;
    } else {
        int c = vmafx_u128_cmp(vmafx_u128_shl(vmafx_u128_from_u64((vmafx_u64)sigma12), j - lim.mid_e),
                               vmafx_mul_u64(lim.mid_m, dm));
        below = c < 0 || (c == 0 && lim.tie_below);
    }
    if (!below) {
        if (lim.mode == VMAFX_VIF_LIMIT_INTEGER)
            out.gain.gg = lim.int_value * lim.int_value * (vmafx_i64)s1;
        else
        {
            vmafx_sd l = vmafx_sd_from_bits(lim.bits); /* fl(fl(L * L) * sigma1_sq) */
            out.gain.gg = vmafx_sd_to_i64(vmafx_sd_mul(vmafx_sd_mul(l, l), vmafx_sd_from_i64((vmafx_i64)s1)));
        }
        out.decided = 1;
        return out;
    }

    /* gg: P = q + V / (s1 Dm) + t, V = r Dm - 2 S N */
    thr = vmafx_u128_shr(vmafx_u128_mul_u64(s1dm, q + 1), 50);
    {
        vmafx_vif_absdiff_ d = vmafx_vif_absdiff(rdm, vmafx_u128_shl(sn, 1));
        v = d.v;
        neg = d.neg;
    }
    n0 = (vmafx_i64)q - neg; /* floor(P) */
    if (!neg) {
        if (n0 >= 1 && vmafx_u128_cmp(v, thr) <= 0) return out;
        if (vmafx_u128_cmp(vmafx_u128_sub(s1dm, v), thr) <= 0) return out;
    } else {
        if (n0 >= 1 && vmafx_u128_cmp(vmafx_u128_sub(s1dm, v), thr) <= 0) return out;
        if (vmafx_u128_cmp(v, thr) <= 0) return out;
    }
    out.gain.gg = n0;
    out.decided = 1;
    return out;
}

/* The fp32 filter in front of the integer path (integer limits only). With
 * D = sigma1_sq + e (e = N / 2^j, the eps as fp64 rounds it onto D's
 * binade), S = sigma12^2 = q sigma1_sq + r, a = r / sigma1_sq and
 * d = (S / sigma1_sq) e / D:
 *
 *   sigma2_sq - S / D = sigma2_sq - q + y,       y  = d - a
 *   S sigma1_sq / D^2 = q + y2 + d e / D,       y2 = a - 2 d
 *
 * where 0 <= a < 1, 0 <= d < 0.22 (q < 2^32, D >= 2^17) and
 * 0 <= d e / D < 2^-34 d. y and y2 are estimated in fp32 from the exact
 * integers q, r, N, taking every fp32 operation to be within 4 ulp (2^-21
 * relative) of its exact result (OpenCL allows 2.5 ulp for division; the
 * others round correctly). a takes three operations and d seven, so the
 * estimates are within 8 * 2^-21 (a + d) = 2^-18 (a + d) of y and
 * 2^-18 (a + 2 d) of y2 (first order; the margin below is twice that). When
 * an estimate lies farther than 2^-17 (a + d) (or 2^-17 (a + 2 d)) plus the
 * fp64 chain's error bound (2^-50 times the magnitude, see above) from every
 * integer, the exact value and the fp64 result lie strictly between the same
 * two integers, and the estimate's sign gives the floor. Anything else (a
 * fraction near an integer, a non-integer limit, a quotient >= 2^32) is left
 * to the integer path (decided == 0). No 128-bit product: this is the cheap
 * path on devices without fp64. */
VMAFX_FN vmafx_vif_gain_int vmafx_vif_gain_fp32(vmafx_i32 sigma1_sq, vmafx_i32 sigma12, vmafx_i32 sigma2_sq,
                                                vmafx_vif_limit lim)
{
    vmafx_vif_gain_int out = vmafx_vif_undecided_();
    vmafx_u64 s1 = (vmafx_u64)(vmafx_u32)sigma1_sq;
    vmafx_u64 S, q, r, n, m;
    vmafx_i64 n0;
    float fs1, a, e, d, y, y2, tol;
    int j;
    vmafx_vif_split_ t;
    if (lim.mode != VMAFX_VIF_LIMIT_INTEGER) return out;
    t = vmafx_vif_split(sigma1_sq, sigma12, sigma2_sq);
    if (!t.ok) return out;
    S = t.S;
    q = t.q;
    r = t.r;
    n = t.n; /* < 2^18: exact in fp32 */
    j = t.j;
    fs1 = (float)s1;
    a = (float)r / fs1;
    e = (float)n / (float)(VMAFX_U64_ONE << j);
    d = ((float)S / fs1) * (e / fs1);

    /* sv_sq: floor(sigma2_sq - S / D) = sigma2_sq - q + floor(y), y in (-1, 0.22) */
    m = q + 1 > (vmafx_u64)sigma2_sq ? q + 1 : (vmafx_u64)sigma2_sq;
    tol = (a + d) * 7.62939453125e-06f + (float)m * 8.8817841970012523e-16f; /* 2^-17 (a + d) + m 2^-50 */
    y = d - a;
    if (!(y > tol || (y < -tol && y > tol - 1.0f))) return out;
    n0 = (vmafx_i64)sigma2_sq - (vmafx_i64)q - (y < 0.0f ? 1 : 0);
    out.gain.sv_sq = n0 >= 1 ? (vmafx_i32)n0 : 0;

    /* the clamp, as the integer path decides it for an integer limit */
    if ((vmafx_i64)sigma12 > lim.int_value * (vmafx_i64)s1) {
        out.gain.gg = lim.int_value * lim.int_value * (vmafx_i64)s1;
        out.decided = 1;
        return out;
    }

    /* gg: floor(S sigma1_sq / D^2) = q + floor(y2), y2 in (-0.44, 1) */
    y2 = a - 2.0f * d;
    tol = (a + 2.0f * d) * 7.62939453125e-06f + (float)(q + 1) * 8.8817841970012523e-16f;
    if (!((y2 > tol && y2 < 1.0f - tol) || y2 < -tol)) return out;
    out.gain.gg = (vmafx_i64)q - (y2 < 0.0f ? 1 : 0);
    out.decided = 1;
    return out;
}

/* Both integers, the reference's bit for bit: the fp32 filter, the integer
 * path where it is undecided, and the replay where that is undecided too. */
VMAFX_FN vmafx_vif_gain vmafx_vif_gain_terms(vmafx_i32 sigma1_sq, vmafx_i32 sigma12,
                                             vmafx_i32 sigma2_sq, vmafx_vif_limit lim)
{
    vmafx_vif_gain_int t = vmafx_vif_gain_fp32(sigma1_sq, sigma12, sigma2_sq, lim);
    if (t.decided) return t.gain;
    t = vmafx_vif_gain_integer(sigma1_sq, sigma12, sigma2_sq, lim);
    if (t.decided) return t.gain;
    return vmafx_vif_gain_replay(sigma1_sq, sigma12, sigma2_sq, lim);
}

#endif
