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
    vmafx_u64 sq_bits;   /* fl(L * L) */
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
    r.sq_bits = vmafx_sd_to_bits(vmafx_sd_mul(l, l));
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

VMAFX_FN vmafx_vif_gain_int vmafx_vif_gain_integer(vmafx_i32 sigma1_sq, vmafx_i32 sigma12,
                                                   vmafx_i32 sigma2_sq, vmafx_vif_limit lim)
{
    vmafx_vif_gain_int out;
    vmafx_u64 s1 = (vmafx_u64)(vmafx_u32)sigma1_sq;
    vmafx_u64 S, q, r, dm, n, m;
    vmafx_sd eps;
    vmafx_u128 s1dm, sn, rdm, thr, w, v;
    vmafx_i64 n0;
    int k, j, neg, below;
    out.decided = 0;
    out.pad_ = 0;
    out.gain.sv_sq = 0;
    out.gain.gg = 0;
    out.gain.replayed = 0;
    if (lim.mode == VMAFX_VIF_LIMIT_REPLAY || sigma1_sq < VMAFX_VIF_SIGMA_NSQ || sigma12 < 1 ||
        sigma2_sq < 1)
        return out;
    S = (vmafx_u64)sigma12 * (vmafx_u64)sigma12;
    if ((S >> 32) >= s1) return out; /* q >= 2^32 */
    {
        vmafx_divmod32 qr = vmafx_divmod_u64_u32(S, (vmafx_u32)s1);
        q = qr.q;
        r = qr.r;
    }
    /* D = fl(sigma1_sq + eps) = Dm / 2^j */
    k = 63 - vmafx_clz64(s1);
    j = 52 - k;
    eps = vmafx_sd_from_bits(VMAFX_VIF_EPS_BITS);
    n = vmafx_vif_rne_shr_(eps.m, -(eps.e + j));
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
            out.gain.gg = vmafx_sd_to_i64(vmafx_sd_mul(vmafx_sd_from_bits(lim.sq_bits),
                                                       vmafx_sd_from_i64((vmafx_i64)s1)));
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

/* Both integers, the reference's bit for bit: the integer path, or the
 * replay where it is undecided. */
VMAFX_FN vmafx_vif_gain vmafx_vif_gain_terms(vmafx_i32 sigma1_sq, vmafx_i32 sigma12,
                                             vmafx_i32 sigma2_sq, vmafx_vif_limit lim)
{
    vmafx_vif_gain_int t = vmafx_vif_gain_integer(sigma1_sq, sigma12, sigma2_sq, lim);
    if (t.decided) return t.gain;
    return vmafx_vif_gain_replay(sigma1_sq, sigma12, sigma2_sq, lim);
}

#endif
