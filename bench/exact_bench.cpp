// SPDX-License-Identifier: BSD-3-Clause
// Throughput of src/exact on the host: soft fp64 operations (items/s is ops/s)
// next to the hardware's fp64 operations, and the building blocks.
//   vmafx_bench_exact_bench --benchmark_filter=Soft
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "../tests/unit/exact/exact_vectors.h"
#include "exact/fixed_decimate.h"
#include "exact/softfp64.h"
#include "exact/ssim_term.h"
#include "exact/vif_gain.h"

namespace {

using namespace vmafx::exact_test;

constexpr size_t kN = 4096;

// Operands: 0 = finite values of moderate magnitude (the building blocks'
// case), 1 = the test generator's mix (specials, subnormals, cancellation).
struct Operands {
  std::vector<uint64_t> a, b;
  std::vector<vmafx_sd> sa, sb;
  Operands(int op, int kind) {
    a.resize(kN);
    b.resize(kN);
    if (kind == 1) {
      fill_binop_random(op, 7, kN, a.data(), b.data());
    } else {
      Rng r(seed_of(0xBE, (uint64_t)op));
      for (size_t i = 0; i < kN; ++i) {
        a[i] = make_bits(r.below(2), 1023 + r.below(61) - 30, r.next());
        b[i] = make_bits(r.below(2), 1023 + r.below(61) - 30, r.next());
      }
    }
    for (size_t i = 0; i < kN; ++i) {
      sa.push_back(vmafx_sd_from_bits(a[i]));
      sb.push_back(vmafx_sd_from_bits(b[i]));
    }
  }
};

template <int Op>
vmafx_sd soft(vmafx_sd x, vmafx_sd y) {
  if (Op == kAdd) return vmafx_sd_add(x, y);
  if (Op == kSub) return vmafx_sd_sub(x, y);
  if (Op == kMul) return vmafx_sd_mul(x, y);
  return vmafx_sd_div(x, y);
}

// One soft operation per item on unpacked values (a chain keeps values
// unpacked); range(0) picks the operand kind.
template <int Op>
void BM_Soft(benchmark::State& state) {
  const Operands o(Op, (int)state.range(0));
  for (auto _ : state) {
    uint64_t acc = 0;
    for (size_t i = 0; i < kN; ++i) {
      const vmafx_sd r = soft<Op>(o.sa[i], o.sb[i]);
      acc ^= r.m + (uint64_t)r.e;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}

// The same with unpacking and packing of the IEEE bits around it.
template <int Op>
void BM_SoftBits(benchmark::State& state) {
  const Operands o(Op, (int)state.range(0));
  for (auto _ : state) {
    uint64_t acc = 0;
    for (size_t i = 0; i < kN; ++i)
      acc ^= vmafx_sd_to_bits(soft<Op>(vmafx_sd_from_bits(o.a[i]), vmafx_sd_from_bits(o.b[i])));
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}

template <int Op>
void BM_Hardware(benchmark::State& state) {
  const Operands o(Op, (int)state.range(0));
  std::vector<double> x(kN), y(kN);
  for (size_t i = 0; i < kN; ++i) {
    x[i] = dval(o.a[i]);
    y[i] = dval(o.b[i]);
  }
  for (auto _ : state) {
    double acc = 0;
    for (size_t i = 0; i < kN; ++i) {
      double z;
      if (Op == kAdd)
        z = x[i] + y[i];
      else if (Op == kSub)
        z = x[i] - y[i];
      else if (Op == kMul)
        z = x[i] * y[i];
      else
        z = x[i] / y[i];
      benchmark::DoNotOptimize(z);
      acc += z;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}

BENCHMARK(BM_Soft<kAdd>)->Name("Soft/add")->Arg(0)->Arg(1);
BENCHMARK(BM_Soft<kSub>)->Name("Soft/sub")->Arg(0)->Arg(1);
BENCHMARK(BM_Soft<kMul>)->Name("Soft/mul")->Arg(0)->Arg(1);
BENCHMARK(BM_Soft<kDiv>)->Name("Soft/div")->Arg(0)->Arg(1);
BENCHMARK(BM_SoftBits<kAdd>)->Name("SoftBits/add")->Arg(0);
BENCHMARK(BM_SoftBits<kMul>)->Name("SoftBits/mul")->Arg(0);
BENCHMARK(BM_SoftBits<kDiv>)->Name("SoftBits/div")->Arg(0);
BENCHMARK(BM_Hardware<kAdd>)->Name("Hardware/add")->Arg(0);
BENCHMARK(BM_Hardware<kMul>)->Name("Hardware/mul")->Arg(0);
BENCHMARK(BM_Hardware<kDiv>)->Name("Hardware/div")->Arg(0);

void BM_SoftFromI64(benchmark::State& state) {
  Rng r(seed_of(0x164, 0));
  std::vector<int64_t> v(kN);
  for (auto& x : v) x = (int64_t)r.bits_upto(63) * (r.below(2) ? 1 : -1);
  for (auto _ : state) {
    uint64_t acc = 0;
    for (size_t i = 0; i < kN; ++i) acc ^= vmafx_sd_from_i64(v[i]).m;
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}
BENCHMARK(BM_SoftFromI64)->Name("Soft/from_i64");

void BM_SoftCompare(benchmark::State& state) {
  const Operands o(kSub, 0);
  for (auto _ : state) {
    int acc = 0;
    for (size_t i = 0; i < kN; ++i) acc += vmafx_sd_lt(o.sa[i], o.sb[i]);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}
BENCHMARK(BM_SoftCompare)->Name("Soft/lt");

// Building blocks: range(0) = bit depth.
void BM_SsimTerm(benchmark::State& state) {
  const int depth = (int)state.range(0);
  const std::vector<SsimMoments> v = ssim_vectors(depth, 70000);
  const uint64_t k1 = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS);
  const uint64_t k2 = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS);
  const size_t base = v.size() - kN;  // whole-plane windows
  for (auto _ : state) {
    uint64_t acc = 0;
    for (size_t i = base; i < v.size(); ++i) {
      const SsimMoments& m = v[i];
      acc ^= vmafx_ssim_term_bits(m.mux, m.muy, m.x2, m.xy, m.y2, m.w, k1, k2);
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}
BENCHMARK(BM_SsimTerm)->Arg(8)->Arg(12)->Arg(16);

void BM_SsimTermPlain(benchmark::State& state) {
  const int depth = (int)state.range(0);
  const std::vector<SsimMoments> v = ssim_vectors(depth, 70000);
  const uint64_t k1 = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K1_BITS);
  const uint64_t k2 = vmafx_ssim_factor_bits(depth, VMAFX_SSIM_K2_BITS);
  const size_t base = v.size() - kN;
  for (auto _ : state) {
    uint64_t acc = 0;
    for (size_t i = base; i < v.size(); ++i) {
      const SsimMoments& m = v[i];
      acc ^= vmafx_ssim_term_bits_plain(m.mux, m.muy, m.x2, m.xy, m.y2, m.w, k1, k2);
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}
BENCHMARK(BM_SsimTermPlain)->Arg(8);

// range(1): 0 = integer path with replay fallback, 1 = replay always
void BM_VifGain(benchmark::State& state) {
  const std::vector<VifSample> v = vif_vectors((int)state.range(0), 500000);
  const vmafx_vif_limit lim = vmafx_vif_limit_make(VMAFX_VIF_GAIN_LIMIT_DEFAULT_BITS);
  const size_t base = v.size() - kN;  // plane statistics
  const bool replay = state.range(1) != 0;
  for (auto _ : state) {
    int64_t acc = 0;
    for (size_t i = base; i < v.size(); ++i) {
      const vmafx_vif_gain g = replay ? vmafx_vif_gain_replay(v[i].s1, v[i].s12, v[i].s2, lim)
                                      : vmafx_vif_gain_terms(v[i].s1, v[i].s12, v[i].s2, lim);
      acc += g.gg ^ g.sv_sq;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * (int64_t)kN);
}
BENCHMARK(BM_VifGain)->Args({8, 0})->Args({8, 1});

// One output sample of the decimation at the given scale (items: outputs).
void BM_DecimateWindow(benchmark::State& state) {
  const int scale = (int)state.range(0);
  Rng r(seed_of(0xDE, (uint64_t)scale));
  std::vector<uint16_t> s((size_t)scale * scale * 256);
  for (auto& x : s) x = (uint16_t)r.below(256);
  const uint32_t tap = vmafx_decimate_tap_bits(scale);
  for (auto _ : state) {
    uint32_t acc = 0;
    for (size_t w = 0; w < 256; ++w) {
      uint64_t sum = 0;
      for (int i = 0; i < scale * scale; ++i)
        sum += vmafx_decimate_product_fx(vmafx_decimate_sample_fx(s[w * scale * scale + i], 8), tap);
      acc ^= vmafx_decimate_round_fx(sum);
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed((int64_t)state.iterations() * 256);
}
BENCHMARK(BM_DecimateWindow)->Arg(3)->Arg(4)->Arg(8);

}  // namespace

BENCHMARK_MAIN();
