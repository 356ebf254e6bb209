/* SPDX-License-Identifier: BSD-3-Clause */
// Test vectors for src/exact, shared by the host tests, the OpenCL test and
// the CUDA test so that every backend sees identical inputs. Generation uses
// integer arithmetic and its own PRNG only, so the vectors do not depend on
// the standard library's distributions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace vmafx::exact_test {

// ---------------------------------------------------------------- PRNG ----

inline uint64_t splitmix64(uint64_t& s)
{
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// xoshiro256**
struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed)
    {
        for (auto& w : s) w = splitmix64(seed);
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t next()
    {
        const uint64_t r = rotl(s[1] * 5, 7) * 9;
        const uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return r;
    }
    // uniform in [0, n), n >= 1 (multiply-shift; the tiny bias is irrelevant here)
    uint64_t below(uint64_t n)
    {
        return (uint64_t)(((unsigned __int128)next() * n) >> 64);
    }
    int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)below((uint64_t)(hi - lo + 1)); }
    // random value with a random bit length in [0, maxbits]
    uint64_t bits_upto(int maxbits)
    {
        int b = (int)below((uint64_t)maxbits + 1);
        if (b == 0) return 0;
        uint64_t v = next();
        if (b < 64) v &= (1ull << b) - 1;
        return v | (1ull << (b - 1));
    }
};

inline uint64_t seed_of(uint64_t a, uint64_t b, uint64_t c = 0)
{
    uint64_t s = a * 0x100000001B3ull ^ (b + 0x51ED27ull) * 0x9E3779B97F4A7C15ull ^ c * 0xC2B2AE3D27D4EB4Full;
    return splitmix64(s);
}

// Count from the environment (for long runs), else the default.
inline size_t env_count(const char* name, size_t dflt)
{
    const char* v = std::getenv(name);
    if (!v || !*v) return dflt;
    return (size_t)std::strtoull(v, nullptr, 10);
}

// ------------------------------------------------------ fp64 bit helpers --

inline uint64_t dbits(double d)
{
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}
inline double dval(uint64_t b)
{
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}
inline uint32_t fbits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
inline float fval(uint32_t b)
{
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline uint64_t make_bits(uint64_t sign, uint64_t bexp, uint64_t frac)
{
    return (sign << 63) | ((bexp & 0x7FF) << 52) | (frac & ((1ull << 52) - 1));
}
inline uint64_t bexp_of(uint64_t b) { return (b >> 52) & 0x7FF; }
inline bool is_nan_bits(uint64_t b) { return bexp_of(b) == 0x7FF && (b & ((1ull << 52) - 1)) != 0; }

// ------------------------------------------------- binary operations ----

enum BinOp : int { kAdd = 0, kSub = 1, kMul = 2, kDiv = 3 };
inline const char* binop_name(int op)
{
    static const char* n[] = {"add", "sub", "mul", "div"};
    return n[op];
}

// Random pairs per operation in the default run (the brief's 10^7); the
// environment variable VMAFX_EXACT_PAIRS overrides it.
inline size_t binop_random_count() { return env_count("VMAFX_EXACT_PAIRS", 10000000); }
constexpr size_t kChunk = size_t(1) << 20;

namespace detail {

inline uint64_t rand_frac(Rng& r)
{
    // mostly dense fractions, sometimes sparse ones (exact results, ties)
    switch (r.below(8)) {
    case 0: return r.next() & r.next() & r.next();           // few ones
    case 1: return ~(r.next() & r.next() & r.next());        // few zeros
    case 2: return (r.next() >> (12 + r.below(52))) << r.below(20); // short
    default: return r.next();
    }
}

inline uint64_t rand_finite(Rng& r, int64_t elo, int64_t ehi)
{
    return make_bits(r.below(2), (uint64_t)r.range(elo, ehi), rand_frac(r));
}

// A value of special interest.
inline uint64_t special(Rng& r)
{
    static const uint64_t k[] = {
        0x0000000000000000ull, 0x8000000000000000ull, // +-0
        0x7FF0000000000000ull, 0xFFF0000000000000ull, // +-inf
        0x7FF8000000000000ull, 0xFFF8000000000000ull, // quiet NaN
        0x7FF0000000000001ull, 0x7FF4000000000000ull, // signalling NaN
        0x0000000000000001ull, 0x8000000000000001ull, // min subnormal
        0x000FFFFFFFFFFFFFull, 0x800FFFFFFFFFFFFFull, // max subnormal
        0x0010000000000000ull, 0x8010000000000000ull, // min normal
        0x0010000000000001ull, 0x001FFFFFFFFFFFFFull,
        0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, // max
        0x7FE0000000000000ull, 0x7FDFFFFFFFFFFFFFull,
        0x3FF0000000000000ull, 0xBFF0000000000000ull, // +-1
        0x3FF0000000000001ull, 0x3FEFFFFFFFFFFFFFull, // 1 +- ulp
        0x4000000000000000ull, 0x3FE0000000000000ull, // 2, 0.5
        0x4340000000000000ull, 0x433FFFFFFFFFFFFFull, // 2^53, 2^53 - 1
        0x43E0000000000000ull, 0x43F0000000000000ull, // 2^63, 2^64
        0x0008000000000000ull, 0x0000000000000002ull,
        0x3CA0000000000000ull, 0x3CB0000000000000ull, // 2^-53, 2^-52
    };
    const size_t n = sizeof(k) / sizeof(k[0]);
    if (r.below(4) == 0) return make_bits(r.below(2), r.below(2) ? 0 : 0x7FE, rand_frac(r));
    return k[r.below(n)];
}

// b = a moved by a few ulps (through zero and into the other sign as bits do)
inline uint64_t nearby(Rng& r, uint64_t a)
{
    int64_t d = r.range(-4, 4);
    uint64_t b = a + (uint64_t)d;
    if (bexp_of(a) != bexp_of(b) && r.below(2)) b = a; // keep some exact equals
    return b;
}

inline int64_t bexp_clamp(int64_t e, int64_t lo = 0, int64_t hi = 2046)
{
    return e < lo ? lo : (e > hi ? hi : e);
}

inline void one_pair(int op, Rng& r, uint64_t& a, uint64_t& b)
{
    const unsigned cat = (unsigned)r.below(32);
    switch (cat) {
    case 0: case 1: case 2: case 3: case 4: case 5: // raw bit patterns
        a = r.next();
        b = r.next();
        return;
    case 6: case 7: case 8: case 9: // any finite, subnormals included
        a = rand_finite(r, 0, 2046);
        b = rand_finite(r, 0, 2046);
        return;
    case 10: case 11: case 12: case 13: // nearby operands: cancellation, x/x
        a = rand_finite(r, 0, 2046);
        b = nearby(r, a);
        if (op == kAdd || r.below(4) == 0) b ^= 1ull << 63;
        if (r.below(2)) std::swap(a, b);
        return;
    case 14: case 15: { // exponent differences around the alignment widths
        a = rand_finite(r, 1, 2046);
        int64_t d = r.range(-70, 70);
        b = make_bits(r.below(2), (uint64_t)bexp_clamp((int64_t)bexp_of(a) + d), rand_frac(r));
        return;
    }
    case 16: case 17: // short significands, moderate exponents: exact results and ties
        a = make_bits(r.below(2), (uint64_t)r.range(1023 - 60, 1023 + 60), (r.next() >> (12 + r.below(50))) << r.below(40));
        b = make_bits(r.below(2), (uint64_t)r.range(1023 - 60, 1023 + 60), (r.next() >> (12 + r.below(50))) << r.below(40));
        return;
    case 18: case 19: { // integer values up to 2^64
        uint64_t x = r.bits_upto(64), y = r.bits_upto(64);
        a = dbits((double)x) ^ (r.below(2) << 63);
        b = dbits((double)y) ^ (r.below(2) << 63);
        if (op == kDiv && b << 1 == 0) b = dbits(3.0);
        return;
    }
    case 20: case 21: { // results near and below the smallest normal
        int64_t ea = r.range(1, 2046);
        int64_t eb;
        if (op == kMul) eb = bexp_clamp(1023 - ea + r.range(-60, 8));
        else if (op == kDiv) eb = bexp_clamp(ea + 1023 - r.range(-8, 60));
        else {
            ea = r.range(0, 60);
            eb = bexp_clamp(ea + r.range(-3, 3));
        }
        a = make_bits(r.below(2), (uint64_t)ea, rand_frac(r));
        b = make_bits(r.below(2), (uint64_t)eb, rand_frac(r));
        return;
    }
    case 22: case 23: { // results near the largest finite value
        int64_t ea = r.range(1, 2046);
        int64_t eb;
        if (op == kMul) eb = bexp_clamp(2046 + 1023 - ea + r.range(-3, 3), 1);
        else if (op == kDiv) eb = bexp_clamp(ea + 1023 - 2046 + r.range(-3, 3), 0);
        else {
            ea = r.range(2040, 2046);
            eb = r.range(2040, 2046);
        }
        a = make_bits(r.below(2), (uint64_t)ea, rand_frac(r));
        b = make_bits(r.below(2), (uint64_t)eb, rand_frac(r));
        if (r.below(2)) a |= (1ull << 52) - 1 - (r.below(4));
        return;
    }
    case 24: // specials against anything
        a = special(r);
        b = r.below(2) ? special(r) : rand_finite(r, 0, 2046);
        if (r.below(2)) std::swap(a, b);
        return;
    case 25: case 26: case 27: // typical magnitudes
        a = rand_finite(r, 1023 - 64, 1023 + 64);
        b = rand_finite(r, 1023 - 64, 1023 + 64);
        return;
    case 28: case 29: { // one ulp apart, and quotients/products close to exact
        a = rand_finite(r, 1, 2045);
        if (op == kDiv && r.below(2)) {
            // a = b * c rounded, moved by an ulp: quotient next to c
            double bb = dval(rand_finite(r, 1023 - 30, 1023 + 30));
            double cc = dval(rand_finite(r, 1023 - 30, 1023 + 30));
            a = dbits(bb * cc) + (uint64_t)r.range(-1, 1);
            b = dbits(bb);
            return;
        }
        b = a + (r.below(2) ? 1 : (uint64_t)-1);
        if (r.below(2)) b ^= 1ull << 63;
        return;
    }
    default: { // powers of two and their neighbours
        a = make_bits(r.below(2), (uint64_t)r.range(0, 2046), 0);
        if (bexp_of(a) == 0) a |= 1ull << r.below(52);
        b = make_bits(r.below(2), (uint64_t)r.range(0, 2046), r.below(3) == 0 ? (uint64_t)-1 : 0);
        if (bexp_of(b) == 0) b |= 1ull << r.below(52);
        b += (uint64_t)r.range(-1, 1);
        if (r.below(2)) std::swap(a, b);
        return;
    }
    }
}

} // namespace detail

inline uint64_t rand_finite_public(Rng& r) { return detail::rand_finite(r, 0, 2046); }

// Random pairs of chunk `chunk` (n <= kChunk) for operation op. The stream of
// a chunk depends on (op, chunk) only.
inline void fill_binop_random(int op, size_t chunk, size_t n, uint64_t* a, uint64_t* b)
{
    Rng r(seed_of(0xB1A0 + (uint64_t)op, chunk));
    for (size_t i = 0; i < n; ++i) detail::one_pair(op, r, a[i], b[i]);
}

// Structured pairs for operation op: exact ties, cancellation to and near
// zero, integers up to 2^64, powers of two, extreme exponents, operands one
// ulp apart, and every pair of a list of special values.
inline void binop_structured(int op, std::vector<uint64_t>& a, std::vector<uint64_t>& b)
{
    Rng r(seed_of(0x57C7, (uint64_t)op));
    auto push = [&](uint64_t x, uint64_t y) {
        a.push_back(x);
        b.push_back(y);
    };
    // all pairs of a list of special and boundary values
    std::vector<uint64_t> sp;
    {
        const uint64_t k[] = {
            0x0000000000000000ull, 0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
            0x7FF8000000000000ull, 0x7FF0000000000001ull, 0x0000000000000001ull, 0x8000000000000001ull,
            0x0000000000000003ull, 0x000FFFFFFFFFFFFFull, 0x0008000000000000ull, 0x0010000000000000ull,
            0x8010000000000000ull, 0x0010000000000001ull, 0x001FFFFFFFFFFFFFull, 0x0020000000000000ull,
            0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFEull, 0x7FE0000000000000ull,
            0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x3FF0000000000001ull, 0x3FEFFFFFFFFFFFFFull,
            0x4000000000000000ull, 0x3FE0000000000000ull, 0x4008000000000000ull, 0x3FD5555555555555ull,
            0x4340000000000000ull, 0x4340000000000001ull, 0x433FFFFFFFFFFFFFull, 0x43E0000000000000ull,
            0x3CA0000000000000ull, 0x3CB0000000000000ull, 0x0350000000000000ull, 0x7C90000000000000ull,
        };
        for (uint64_t x : k) sp.push_back(x);
    }
    for (uint64_t x : sp)
        for (uint64_t y : sp) push(x, y);

    for (int i = 0; i < 20000; ++i) {
        // exact ties of addition: an even 54-bit integer and an odd small one
        uint64_t big = ((1ull << 53) | (r.next() >> 11)) & ~1ull;  // 2^53 .. 2^54, even
        int64_t small = (int64_t)(r.below(7) * 2 + 1);
        int sc = (int)r.range(-1000, 900);                         // common scale
        double x = std::ldexp((double)big, sc), y = std::ldexp((double)small, sc);
        if (op == kAdd) push(dbits(x), dbits(r.below(2) ? y : -y));
        else if (op == kSub) push(dbits(x), dbits(r.below(2) ? -y : y));
        // exact ties of multiplication: odd x, odd y, 54-bit odd product
        if (op == kMul) {
            for (;;) {
                int bx = (int)r.range(1, 53);
                int by = 54 - bx + (int)r.below(2);
                if (by < 1 || by > 53) continue;
                uint64_t ox = (bx == 1) ? 1 : ((r.next() >> (64 - bx)) | (1ull << (bx - 1)) | 1);
                uint64_t oy = (by == 1) ? 1 : ((r.next() >> (64 - by)) | (1ull << (by - 1)) | 1);
                unsigned __int128 p = (unsigned __int128)ox * oy;
                int len = 0;
                for (unsigned __int128 t = p; t; t >>= 1) ++len;
                if (len != 54) continue;
                int s1 = (int)r.range(-500, 400), s2 = (int)r.range(-500, 400);
                if (r.below(4) == 0) { // the tie at the subnormal boundary too
                    s1 = (int)r.range(-600, -500);
                    s2 = (int)r.range(-560, -500);
                }
                push(dbits(std::ldexp((double)ox, s1)), dbits(std::ldexp((double)oy, s2)));
                break;
            }
        }
        // division close to a tie: b * (midpoint) +- tiny
        if (op == kDiv) {
            double bb = dval(make_bits(0, (uint64_t)r.range(1000, 1046), r.next()));
            double q = dval(make_bits(0, (uint64_t)r.range(1000, 1046), r.next()));
            push(dbits(bb * q), dbits(bb));
            push(dbits(std::nextafter(bb * q, 0.0)), dbits(bb));
            push(dbits(q), dbits(q));
            push(dbits(-q), dbits(std::nextafter(q, 1e300)));
        }
        // cancellation to and near zero
        {
            double p = dval(rand_finite_public(r));
            double qv = std::nextafter(p, r.below(2) ? 1e308 : -1e308);
            if (op == kSub) {
                push(dbits(p), dbits(p));
                push(dbits(p), dbits(qv));
                push(dbits(-p), dbits(-p));
            } else if (op == kAdd) {
                push(dbits(p), dbits(-p));
                push(dbits(p), dbits(-qv));
                push(dbits(-p), dbits(p));
            } else {
                push(dbits(p), dbits(qv));
            }
        }
        // integers up to 2^64 as operands
        {
            uint64_t u = r.bits_upto(64), v = r.bits_upto(64);
            if (v == 0) v = 7;
            push(dbits((double)u), dbits((double)v));
            push(dbits((double)(int64_t)u), dbits(-(double)v));
        }
        // powers of two against each other and against random values
        {
            int e1 = (int)r.range(-1074, 1023), e2 = (int)r.range(-1074, 1023);
            push(dbits(std::ldexp(1.0, e1)), dbits(std::ldexp(1.0, e2)));
            push(dbits(std::ldexp(1.0, e1)), rand_finite_public(r));
        }
        // one ulp apart, across binades too
        {
            uint64_t x = rand_finite_public(r);
            push(x, x + 1);
            push(x + 1, x);
            uint64_t pw = make_bits(r.below(2), (uint64_t)r.range(1, 2046), 0);
            push(pw, pw - 1);
            push(pw - 1, pw ^ (1ull << 63));
        }
    }
}

// ---------------------------------------------------------- conversions --

// Integers for int64/uint64 conversions: random bit lengths 0..64 (the same
// 64 bits are read as int64 and as uint64), then boundaries and ties.
inline std::vector<uint64_t> int_vectors(size_t n_random)
{
    std::vector<uint64_t> v;
    v.reserve(n_random + 4096);
    Rng r(seed_of(0x1C0, 1));
    for (size_t i = 0; i < n_random; ++i) {
        uint64_t x = r.bits_upto(64);
        if (r.below(2)) x = (uint64_t)0 - x;
        v.push_back(x);
    }
    const uint64_t k[] = {0, 1, (uint64_t)-1, 2, (uint64_t)-2, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
                          0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull, 1ull << 53, (1ull << 53) + 1,
                          (1ull << 53) + 2, (1ull << 53) + 3, (1ull << 54) + 2, (1ull << 54) + 6,
                          (1ull << 63) + (1ull << 10), (1ull << 63) + (1ull << 11), (1ull << 63) + (3ull << 10),
                          0xFFFFFFFFFFFFFC00ull, 0xFFFFFFFFFFFFFBFFull, 0xFFFFFFFFFFFFF800ull};
    for (uint64_t x : k) {
        v.push_back(x);
        v.push_back((uint64_t)0 - x);
    }
    // exact ties and neighbours at every bit length above 53
    for (int len = 54; len <= 64; ++len) {
        const int drop = len - 53; // bits below the kept 53
        for (int i = 0; i < 64; ++i) {
            uint64_t hi = (r.next() >> (64 - 53)) | (1ull << 52);
            uint64_t base = hi << drop;
            uint64_t half = 1ull << (drop - 1);
            for (int64_t d = -1; d <= 1; ++d) {
                v.push_back(base + half + (uint64_t)d);
                v.push_back((uint64_t)0 - (base + half + (uint64_t)d));
            }
        }
    }
    return v;
}

// fp64 values for the truncating conversions and for scaling by 2^k.
inline std::vector<uint64_t> trunc_vectors(size_t n_random)
{
    std::vector<uint64_t> v;
    Rng r(seed_of(0x7C0, 2));
    for (size_t i = 0; i < n_random; ++i) {
        switch (r.below(4)) {
        case 0: v.push_back(r.next()); break;
        case 1: v.push_back(detail::rand_finite(r, 1023 - 60, 1023 + 70)); break;
        default: v.push_back(detail::rand_finite(r, 1023 - 2, 1023 + 33)); break;
        }
    }
    const double k[] = {0.0, -0.0, 0.5, -0.5, 0.9999999999999999, -0.9999999999999999, 1.0, -1.0,
                        2147483647.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5,
                        -2147483649.0, 9223372036854774784.0, 9223372036854775808.0,
                        -9223372036854775808.0, -9223372036854777856.0, 1e300, -1e300};
    for (double d : k) {
        v.push_back(dbits(d));
        v.push_back(dbits(d) + 1);
        v.push_back(dbits(d) - 1);
    }
    v.push_back(0x7FF0000000000000ull);
    v.push_back(0xFFF0000000000000ull);
    v.push_back(0x7FF8000000000000ull);
    return v;
}

// ------------------------------------------------------ integer SSIM ----

struct SsimMoments {
    int64_t mux, muy, x2, xy, y2, w;
};

namespace detail {

constexpr int kSsimTaps[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};

// Synthetic reference/distorted planes: tiles of different content and
// distortion (identical, noise, gain, offset, blur, quantisation, inversion,
// flat), clipped to the bit depth.
inline void make_planes(Rng& r, int depth, int w, int h, std::vector<uint32_t>& ref, std::vector<uint32_t>& dis)
{
    const int64_t maxv = (1ll << depth) - 1;
    ref.assign((size_t)w * h, 0);
    dis.assign((size_t)w * h, 0);
    const int tile = 16 + (int)r.below(48);
    for (int ty = 0; ty < h; ty += tile)
        for (int tx = 0; tx < w; tx += tile) {
            const int64_t base = (int64_t)r.below((uint64_t)maxv + 1);
            const int64_t amp = r.below(3) == 0 ? 0 : (int64_t)r.below((uint64_t)maxv / (1 + r.below(64)) + 1);
            const int kind = (int)r.below(9);
            const int64_t gnum = 1 + (int64_t)r.below(64), gden = 1 + (int64_t)r.below(32);
            const int64_t off = (int64_t)r.below((uint64_t)maxv / 8 + 1) - (int64_t)maxv / 16;
            const int64_t namp = (int64_t)r.below((uint64_t)maxv / (1 + r.below(256)) + 1);
            const int qsh = (int)r.below((uint64_t)depth);
            for (int y = ty; y < ty + tile && y < h; ++y)
                for (int x = tx; x < tx + tile && x < w; ++x) {
                    int64_t v = base + (amp ? (int64_t)r.below((uint64_t)amp + 1) - amp / 2 : 0);
                    if (kind == 8) v = base + ((x + y) & 1 ? amp : -amp); // checkerboard
                    v = v < 0 ? 0 : (v > maxv ? maxv : v);
                    ref[(size_t)y * w + x] = (uint32_t)v;
                }
            for (int y = ty; y < ty + tile && y < h; ++y)
                for (int x = tx; x < tx + tile && x < w; ++x) {
                    int64_t v = ref[(size_t)y * w + x];
                    switch (kind) {
                    case 0: break; // identical
                    case 1: v += (int64_t)r.below((uint64_t)namp + 1) - namp / 2; break;
                    case 2: v = (v - base) * gnum / gden + base + off; break; // gain, enhancement too
                    case 3: v += off; break;
                    case 4: { // horizontal blur
                        int64_t a = ref[(size_t)y * w + (x > 0 ? x - 1 : x)];
                        int64_t c = ref[(size_t)y * w + (x + 1 < w ? x + 1 : x)];
                        v = (a + 2 * v + c + 2) / 4;
                        break;
                    }
                    case 5: v = (v >> qsh) << qsh; break;
                    case 6: v = maxv - v; break;
                    case 7: v = base; break;
                    default: v += (int64_t)r.below(3) - 1; break;
                    }
                    v = v < 0 ? 0 : (v > maxv ? maxv : v);
                    dis[(size_t)y * w + x] = (uint32_t)v;
                }
        }
}

// Moments of every pixel as integer_ssim.c forms them (edge windows
// truncated). wrap16: form the horizontal products in int32 with wrap-around
// as the reference's int arithmetic does (matters at 16 bits only).
inline void ssim_plane_moments(int w, int h, const std::vector<uint32_t>& ref, const std::vector<uint32_t>& dis,
                               bool wrap, std::vector<SsimMoments>& out)
{
    std::vector<SsimMoments> hrow((size_t)w * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            SsimMoments m{0, 0, 0, 0, 0, 0};
            for (int k = 0; k < 9; ++k) {
                const int xx = x - 4 + k;
                if (xx < 0 || xx >= w) continue;
                const int64_t s = ref[(size_t)y * w + xx], d = dis[(size_t)y * w + xx], t = kSsimTaps[k];
                m.mux += t * s;
                m.muy += t * d;
                if (wrap) {
                    m.x2 += (int32_t)((uint32_t)t * (uint32_t)s * (uint32_t)s);
                    m.xy += (int32_t)((uint32_t)t * (uint32_t)s * (uint32_t)d);
                    m.y2 += (int32_t)((uint32_t)t * (uint32_t)d * (uint32_t)d);
                } else {
                    m.x2 += t * s * s;
                    m.xy += t * s * d;
                    m.y2 += t * d * d;
                }
                m.w += t;
            }
            hrow[(size_t)y * w + x] = m;
        }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            SsimMoments m{0, 0, 0, 0, 0, 0};
            for (int k = 0; k < 9; ++k) {
                const int yy = y - 4 + k;
                if (yy < 0 || yy >= h) continue;
                const SsimMoments& b = hrow[(size_t)yy * w + x];
                const int64_t t = kSsimTaps[k];
                m.mux += t * b.mux;
                m.muy += t * b.muy;
                m.x2 += t * b.x2;
                m.xy += t * b.xy;
                m.y2 += t * b.y2;
                m.w += t * b.w;
            }
            out.push_back(m);
        }
}

} // namespace detail

// Window moments for bit depth `depth`, at least `count` of them: whole
// planes (interior and truncated edge windows), many tiny planes (windows cut
// on every side), random moments of the right magnitudes, and flat, identical
// and extreme windows. At 16 bits half of the planes take the reference's
// wrapped int32 products and half the exact ones.
inline std::vector<SsimMoments> ssim_vectors(int depth, size_t count)
{
    std::vector<SsimMoments> out;
    out.reserve(count + 65536);
    Rng r(seed_of(0x551, (uint64_t)depth));
    std::vector<uint32_t> ref, dis;
    const int64_t maxv = (1ll << depth) - 1;
    // boundary windows first
    for (int64_t a : {int64_t(0), int64_t(1), maxv / 2, maxv - 1, maxv})
        for (int64_t b : {int64_t(0), int64_t(1), maxv / 2, maxv - 1, maxv}) {
            for (int sz : {1, 3, 9, 12}) {
                ref.assign((size_t)sz * sz, (uint32_t)a);
                dis.assign((size_t)sz * sz, (uint32_t)b);
                if (sz > 1) ref[sz + 1] = (uint32_t)b;
                detail::ssim_plane_moments(sz, sz, ref, dis, depth == 16, out);
            }
        }
    // tiny planes: truncated windows in every combination
    for (int i = 0; i < 3000; ++i) {
        const int w = 1 + (int)r.below(12), h = 1 + (int)r.below(12);
        detail::make_planes(r, depth, w, h, ref, dis);
        detail::ssim_plane_moments(w, h, ref, dis, depth == 16 && (i & 1), out);
    }
    // random moments of plausible magnitudes (not necessarily consistent)
    for (int i = 0; i < 50000; ++i) {
        SsimMoments m;
        const int64_t wmax = 65536;
        m.w = r.below(8) ? wmax : 1 + (int64_t)r.below((uint64_t)wmax);
        m.mux = (int64_t)r.below((uint64_t)(maxv * m.w) + 1);
        m.muy = (int64_t)r.below((uint64_t)(maxv * m.w) + 1);
        m.x2 = (int64_t)r.below((uint64_t)(maxv * maxv * m.w) + 1);
        m.y2 = (int64_t)r.below((uint64_t)(maxv * maxv * m.w) + 1);
        m.xy = (int64_t)r.below((uint64_t)(maxv * maxv * m.w) + 1) - (r.below(4) == 0 ? (int64_t)r.below(1u << 20) : 0);
        out.push_back(m);
    }
    // whole planes up to the count
    int plane = 0;
    while (out.size() < count) {
        const int w = 64 + (int)r.below(200), h = 64 + (int)r.below(200);
        detail::make_planes(r, depth, w, h, ref, dis);
        detail::ssim_plane_moments(w, h, ref, dis, depth == 16 && (plane & 1), out);
        ++plane;
    }
    return out;
}

// ------------------------------------------------------- integer VIF ----

struct VifSample {
    int32_t s1, s12, s2;
};

namespace detail {

constexpr uint32_t kVifFilter0[17] = {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                      7455, 6547, 5274, 3896, 2640, 1640, 935, 489};

// sigma1_sq, sigma12, sigma2_sq of every interior pixel at scale 0, as
// integer_vif.c's statistic forms them (8-bit and high-bit-depth paths).
inline void vif_plane_stats(int depth, int w, int h, const std::vector<uint32_t>& ref,
                            const std::vector<uint32_t>& dis, std::vector<VifSample>& out, bool log_branch_only)
{
    const int fw = 17, half = 8;
    std::vector<uint32_t> mu1((size_t)w), mu2((size_t)w), xx((size_t)w), yy((size_t)w), xy((size_t)w);
    for (int i = half; i < h - half; ++i) {
        for (int j = 0; j < w; ++j) {
            uint32_t am1 = 0, am2 = 0;
            uint64_t ar = 0, ad = 0, ard = 0;
            for (int f = 0; f < fw; ++f) {
                const uint32_t c = kVifFilter0[f];
                const uint32_t a = ref[(size_t)(i - half + f) * w + j], b = dis[(size_t)(i - half + f) * w + j];
                am1 += c * a;
                am2 += c * b;
                if (depth == 8) { // u32 accumulators in the 8-bit path
                    ar = (uint32_t)(ar + c * a * a);
                    ad = (uint32_t)(ad + c * b * b);
                    ard = (uint32_t)(ard + c * a * b);
                } else {
                    ar += (uint64_t)(c * a) * a;
                    ad += (uint64_t)(c * b) * b;
                    ard += (uint64_t)(c * a) * b;
                }
            }
            if (depth == 8) {
                mu1[j] = (am1 + 128) >> 8;
                mu2[j] = (am2 + 128) >> 8;
                xx[j] = (uint32_t)ar;
                yy[j] = (uint32_t)ad;
                xy[j] = (uint32_t)ard;
            } else {
                const int sh = (depth - 8) * 2;
                const uint64_t rnd = 1ull << (sh - 1);
                mu1[j] = (uint16_t)((am1 + (1u << (depth - 1))) >> depth);
                mu2[j] = (uint16_t)((am2 + (1u << (depth - 1))) >> depth);
                xx[j] = (uint32_t)((ar + rnd) >> sh);
                yy[j] = (uint32_t)((ad + rnd) >> sh);
                xy[j] = (uint32_t)((ard + rnd) >> sh);
            }
        }
        for (int j = half; j < w - half; ++j) {
            uint32_t m1 = 0, m2 = 0;
            uint64_t ar = 0, ad = 0, ard = 0;
            for (int f = 0; f < fw; ++f) {
                const uint32_t c = kVifFilter0[f];
                m1 += c * mu1[j - half + f];
                m2 += c * mu2[j - half + f];
                ar += c * (uint64_t)xx[j - half + f];
                ad += c * (uint64_t)yy[j - half + f];
                ard += c * (uint64_t)xy[j - half + f];
            }
            const uint32_t m1sq = (uint32_t)(((uint64_t)m1 * m1 + 2147483648ull) >> 32);
            const uint32_t m2sq = (uint32_t)(((uint64_t)m2 * m2 + 2147483648ull) >> 32);
            const uint32_t m12 = (uint32_t)(((uint64_t)m1 * m2 + 2147483648ull) >> 32);
            const int32_t s1 = (int32_t)((uint32_t)((ar + 32768) >> 16) - m1sq);
            int32_t s2 = (int32_t)((uint32_t)((ad + 32768) >> 16) - m2sq);
            const int32_t s12 = (int32_t)((uint32_t)((ard + 32768) >> 16) - m12);
            s2 = s2 > 0 ? s2 : 0;
            if (!log_branch_only || (s1 >= 131072 && s12 > 0 && s2 > 0)) out.push_back({s1, s12, s2});
        }
    }
}

} // namespace detail

// Gain inputs for bit depth `depth`, at least `count`: scale-0 statistics of
// synthetic planes (log-branch pixels with sigma12 > 0 and sigma2_sq > 0),
// random triples across the whole int32 domain of the branch, correlated
// random triples, and constructed samples whose exact values lie at or within
// 2^-40 of an integer (the undecided zones, and the clamp boundary).
inline std::vector<VifSample> vif_vectors(int depth, size_t count)
{
    std::vector<VifSample> out;
    out.reserve(count + 65536);
    Rng r(seed_of(0x71F, (uint64_t)depth));
    const int32_t kMin = 131072, kMax = 2147483647;
    // identical planes and other fixed points
    for (int i = 0; i < 2000; ++i) {
        int32_t s = (int32_t)r.range(kMin, kMax);
        out.push_back({s, s, s});
        out.push_back({s, s, s - 1 > 0 ? s - 1 : 1});
        out.push_back({s, s / 2 + 1, s});
        out.push_back({kMin, (int32_t)r.range(1, kMax), (int32_t)r.range(1, kMax)});
    }
    // constructed near-integers: sigma12 = q m, sigma1 = q m^2 + d, so that
    // sigma12^2 / sigma1 is (almost) the integer q
    for (int i = 0; i < 40000; ++i) {
        const int64_t q = 1 + (int64_t)r.below(r.below(2) ? 70000 : 64);
        const int64_t mlo = 1, mhi = 46340;
        int64_t m = r.range(mlo, mhi);
        int64_t s1 = q * m * m + r.range(-3, 3);
        if (s1 < kMin || s1 > kMax || q * m > kMax) {
            --i;
            continue;
        }
        const int32_t s12 = (int32_t)(q * m);
        const int64_t s2lo = q > 1 ? q - 2 : 1;
        const int32_t s2 = (int32_t)(r.below(2) ? s2lo + (int64_t)r.below(5) : r.range(1, kMax));
        out.push_back({(int32_t)s1, s12, s2 < 1 ? 1 : s2});
        // limit boundary: sigma12 around L * sigma1 for L = 1 and 100
        const int64_t s1b = r.range(kMin, kMax / 100);
        const int64_t L = r.below(2) ? 1 : 100;
        const int64_t b12 = L * s1b + r.range(-2, 2);
        if (b12 >= 1 && b12 <= kMax) out.push_back({(int32_t)s1b, (int32_t)b12, (int32_t)r.range(1, kMax)});
    }
    // samples whose exact value sits within a fraction of 1/sigma1_sq of an
    // integer, for sv_sq (r ~ t) and for gg (r ~ 2t), where with
    // sigma12 = q a + b and sigma1_sq = q a^2 + 2 a b + 1 the remainder of
    // sigma12^2 / sigma1_sq is r = b^2 - q, and t = S N / Dm is the eps term
    for (int i = 0; i < 40000; ++i) {
        const int k = (int)r.range(17, 30);
        const int64_t a = r.below(2) ? 1 : r.range(1, 16);
        const int64_t target = (int64_t)((1ull << k) | (r.next() >> (64 - k)));
        int64_t b = (int64_t)std::sqrt((double)target / (double)(a * a));
        if (b < 2) b = 2;
        const double eps = 65536 * 1.0e-10;
        const double two_j = std::ldexp(1.0, 52 - k);
        const double n = ((double)target + eps - (double)target) * two_j; // N of the binade
        const double mult = (i & 1) ? 2.0 : 1.0;                        // gg : sv
        const int64_t rr = (int64_t)std::llround(mult * (double)(b * b) * n / (two_j + mult * n)) + r.range(-2, 2);
        const int64_t q = b * b - rr;
        const int64_t s1 = q * a * a + 2 * a * b + 1, s12 = q * a + b;
        if (q < 1 || rr < 0 || s1 < kMin || s1 > kMax || s12 > kMax || (63 - __builtin_clzll((uint64_t)s1)) != k) continue;
        const int64_t s2 = r.below(2) ? std::min<int64_t>(kMax, q + r.range(0, 4)) : r.range(1, kMax);
        out.push_back({(int32_t)s1, (int32_t)s12, (int32_t)s2});
    }
    // random triples over the branch's domain, and correlated ones
    for (int i = 0; i < 200000; ++i) {
        if (r.below(2)) {
            out.push_back({(int32_t)r.range(kMin, kMax), (int32_t)r.range(1, kMax), (int32_t)r.range(1, kMax)});
        } else {
            const int b1 = 17 + (int)r.below(14), b2 = (int)r.below(31);
            const int64_t s1 = (int64_t)((1ull << b1) | (r.next() >> (64 - b1)));
            const int64_t s2 = 1 + (int64_t)(b2 ? (r.next() >> (64 - b2)) : 0);
            // sigma12 about rho * sqrt(s1 s2), rho up to 1.05 (integer sqrt)
            unsigned __int128 prod = (unsigned __int128)s1 * (uint64_t)s2;
            uint64_t lo = 0, hi = 1ull << 32;
            while (hi - lo > 1) {
                uint64_t mid = (lo + hi) / 2;
                if ((unsigned __int128)mid * mid <= prod) lo = mid; else hi = mid;
            }
            int64_t s12 = (int64_t)(lo * (1 + r.below(1075)) / 1024);
            if (s12 < 1) s12 = 1;
            if (s12 > kMax) s12 = kMax;
            out.push_back({(int32_t)s1, (int32_t)s12, (int32_t)s2});
        }
    }
    // statistics of synthetic planes up to the count
    std::vector<uint32_t> ref, dis;
    while (out.size() < count) {
        const int w = 96 + (int)r.below(160), h = 96 + (int)r.below(160);
        detail::make_planes(r, depth, w, h, ref, dis);
        detail::vif_plane_stats(depth, w, h, ref, dis, out, true);
    }
    return out;
}

// IEEE bits of the gain limits every VIF test runs with.
inline std::vector<uint64_t> vif_limits()
{
    std::vector<uint64_t> l = {dbits(100.0), dbits(1.0), dbits(1.2), dbits(37.5), dbits(2.0),
                               dbits(std::nextafter(2.0, 0.0)), dbits(std::nextafter(1.0, 2.0)),
                               dbits(99.99999999999999), dbits(127.0), dbits(64.0)};
    return l;
}

// ------------------------------------------------ float-SSIM decimation --

struct DecimateSet {
    int bpc = 8;
    std::vector<uint16_t> samples; // concatenated windows, raw sample values
    std::vector<uint32_t> start;   // first sample of each window
    std::vector<int32_t> scale;    // each window's scale (scale^2 samples)
};

// At least `count` windows at bit depth `bpc`: scales 1..10 (the auto scales
// up to 2560-pixel short sides and every explicit one), plus a few hundred of
// scales up to 128; samples uniform, flat, extreme, and small noise around a
// level; then all-maximum and alternating windows of every scale.
inline DecimateSet decimate_vectors(int bpc, size_t count)
{
    DecimateSet d;
    d.bpc = bpc;
    Rng r(seed_of(0xDEC, (uint64_t)bpc));
    const uint32_t maxv = (1u << bpc) - 1;
    auto window = [&](int s, int kind) {
        d.start.push_back((uint32_t)d.samples.size());
        d.scale.push_back(s);
        const uint32_t level = (uint32_t)r.below(maxv + 1ull);
        const uint32_t namp = 1 + (uint32_t)r.below(16);
        for (int i = 0; i < s * s; ++i) {
            uint32_t v;
            switch (kind) {
            case 0: v = maxv; break;
            case 1: v = (i & 1) ? maxv : 0; break;
            case 2: v = level; break;
            case 3: {
                int64_t t = (int64_t)level + (int64_t)r.below(2 * namp + 1) - namp;
                v = (uint32_t)(t < 0 ? 0 : (t > maxv ? maxv : t));
                break;
            }
            case 4: v = r.below(2) ? maxv - (uint32_t)r.below(4) : (uint32_t)r.below(4); break;
            default: v = (uint32_t)r.below(maxv + 1ull); break;
            }
            d.samples.push_back((uint16_t)v);
        }
    };
    for (int s = 1; s <= 128; ++s)
        for (int kind = 0; kind < 5; ++kind) window(s, kind);
    for (int i = 0; i < 300; ++i) window(11 + (int)r.below(118), (int)r.below(8));
    while (d.start.size() < count) {
        // non-power-of-two scales are where the tap rounds: weight them up
        static const int kScales[] = {1, 2, 3, 3, 3, 4, 5, 5, 5, 6, 6, 7, 7, 7, 8, 9, 9, 10, 10, 3};
        window(kScales[r.below(20)], (int)r.below(10));
    }
    return d;
}

} // namespace vmafx::exact_test
