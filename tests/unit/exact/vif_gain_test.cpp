// src/exact/vif_gain.h against integer_vif.c's fp64 lines, bit for bit.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <string>

#include "exact/vif_gain.h"
#include "exact_reference.h"
#include "exact_vectors.h"

namespace {

using namespace vmafx::exact_test;

TEST(VifTables, ConstantsAreTheReferences)
{
    EXPECT_EQ(VMAFX_VIF_EPS_BITS, dbits(65536 * 1.0e-10));
    EXPECT_EQ(VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS, dbits(100.0));
    EXPECT_EQ(VMAFX_VIF_SIGMA_NSQ, 65536 << 1);
    for (int s = 0; s < 4; ++s) {
        int sum = 0;
        for (int i = 0; i < vmafx_vif_filter_width(s); ++i) sum += vmafx_vif_filter_tap(s, i);
        EXPECT_EQ(sum, 65536) << s;
    }
    for (int i = 0; i < 17; ++i) EXPECT_EQ((uint32_t)vmafx_vif_filter_tap(0, i), detail::kVifFilter0[i]);
}

TEST(VifGain, LimitModes)
{
    EXPECT_EQ(vmafx_vif_limit_make(dbits(100.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(100.0)).int_value, 100);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(1.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(127.0)).mode, VMAFX_VIF_LIMIT_INTEGER);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(1.2)).mode, VMAFX_VIF_LIMIT_EXACT);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(37.5)).mode, VMAFX_VIF_LIMIT_EXACT);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(128.0)).mode, VMAFX_VIF_LIMIT_REPLAY);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(0.5)).mode, VMAFX_VIF_LIMIT_REPLAY);
    EXPECT_EQ(vmafx_vif_limit_make(0x7FF8000000000000ull).mode, VMAFX_VIF_LIMIT_REPLAY);
    EXPECT_EQ(vmafx_vif_limit_make(dbits(1.2)).sq_bits, dbits(1.2 * 1.2));
}

struct VifStats {
    size_t n = 0, bad = 0, bad_replay = 0, undecided = 0, clamped = 0;
    std::string repro;
};

void check(const std::vector<VifSample>& v, size_t count, uint64_t limit_bits, bool replay_all, VifStats& st)
{
    const vmafx_vif_limit lim = vmafx_vif_limit_make(limit_bits);
    const double limit = dval(limit_bits);
    for (size_t i = 0; i < count && i < v.size(); ++i) {
        const VifSample& s = v[i];
        const VifGainRef want = ref_vif_gain(s.s1, s.s12, s.s2, limit);
        const vmafx_vif_gain got = vmafx_vif_gain_terms(s.s1, s.s12, s.s2, lim);
        const bool ok = got.sv_sq == want.sv_sq && got.gg == want.gg;
        bool ok_replay = true;
        if (replay_all) {
            const vmafx_vif_gain rep = vmafx_vif_gain_replay(s.s1, s.s12, s.s2, lim);
            ok_replay = rep.sv_sq == want.sv_sq && rep.gg == want.gg;
        }
        if ((!ok || !ok_replay) && st.bad + st.bad_replay < 8) {
            char line[256];
            std::snprintf(line, sizeof line,
                          "  limit %.17g {%d, %d, %d}: sv %d gg %" PRId64 " (replayed %d), reference sv %d gg %" PRId64
                          "\n",
                          limit, s.s1, s.s12, s.s2, got.sv_sq, got.gg, got.replayed, want.sv_sq, want.gg);
            st.repro += line;
        }
        st.bad += !ok;
        st.bad_replay += !ok_replay;
        st.undecided += got.replayed;
        st.clamped += !(s.s12 / (s.s1 + 65536 * 1.0e-10) < limit);
        ++st.n;
    }
}

class VifGain : public ::testing::TestWithParam<int> {};

TEST_P(VifGain, MatchesReferenceExpression)
{
    const int depth = GetParam();
    const size_t n = env_count("VMAFX_EXACT_WINDOWS", 1000000);
    const std::vector<VifSample> v = vif_vectors(depth, n);
    ASSERT_GE(v.size(), n);
    const std::vector<uint64_t> limits = vif_limits();
    for (size_t li = 0; li < limits.size(); ++li) {
        VifStats st;
        // every sample at the default limit and at 1.0 (the shipped models'),
        // the first 100000 at each other limit
        check(v, li < 2 ? v.size() : 100000, limits[li], li == 0, st);
        EXPECT_EQ(st.bad, 0u) << "of " << st.n << " samples at " << depth << " bits:\n" << st.repro;
        EXPECT_EQ(st.bad_replay, 0u) << st.repro;
        if (li < 2)
            std::printf("[ depth %2d ] limit %-6g %zu samples, %zu undecided (replayed), %zu clamped\n", depth,
                        dval(limits[li]), st.n, st.undecided, st.clamped);
        EXPECT_GT(st.clamped, 0u);
    }
}

TEST_P(VifGain, RealisticSamplesAreRarelyUndecided)
{
    // the plane statistics (the tail of the vectors) need the replay rarely
    const int depth = GetParam();
    const std::vector<VifSample> v = vif_vectors(depth, 600000);
    const vmafx_vif_limit lim = vmafx_vif_limit_make(VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS);
    size_t undecided = 0, n = 0;
    for (size_t i = 400000; i < v.size(); ++i, ++n)
        undecided += !vmafx_vif_gain_integer(v[i].s1, v[i].s12, v[i].s2, lim).decided;
    EXPECT_LT(undecided, n / 10000 + 2) << undecided << " of " << n;
    std::printf("[ depth %2d ] plane statistics: %zu of %zu undecided\n", depth, undecided, n);
}

INSTANTIATE_TEST_SUITE_P(Depths, VifGain, ::testing::Values(8, 10, 12, 16),
                         [](const ::testing::TestParamInfo<int>& i) { return "bpc" + std::to_string(i.param); });

TEST(VifGainLimits, RandomLimitsMatchReference)
{
    Rng r(seed_of(0x11A, 0));
    const std::vector<VifSample> v = vif_vectors(8, 300000);
    VifStats st;
    for (int k = 0; k < 1500; ++k) {
        // any double in [1, 128), integers and near-integers included
        uint64_t lb = make_bits(0, 1023 + r.below(7), r.next());
        if (k % 5 == 0) lb = dbits((double)(1 + r.below(127)));
        if (k % 5 == 1) lb = dbits((double)(1 + r.below(127))) + (uint64_t)r.range(-2, 2);
        std::vector<VifSample> sub;
        const double L = dval(lb);
        for (int i = 0; i < 200; ++i) {
            VifSample s = v[r.below(v.size())];
            if (i & 1) { // sigma12 near L * sigma1: the clamp boundary
                const int64_t s1 = r.range(131072, (int64_t)(2147483647 / (L + 1)));
                const int64_t s12 = (int64_t)(L * s1) + r.range(-2, 2);
                if (s12 >= 1 && s12 <= 2147483647) s = {(int32_t)s1, (int32_t)s12, s.s2};
            }
            sub.push_back(s);
        }
        check(sub, sub.size(), lb, true, st);
    }
    EXPECT_EQ(st.bad, 0u) << st.repro;
    EXPECT_EQ(st.bad_replay, 0u) << st.repro;
    EXPECT_GT(st.clamped, st.n / 10);
}

} // namespace
