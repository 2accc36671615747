// SplitMix64, the one generator of the project (hzai/rng.py bit for bit): deals,
// playouts, samplers and the search all draw from it.
#pragma once

#include <cstdint>
#include <utility>

namespace hzn {

struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next_u64() {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;  // 2^64 mod n, without 128-bit division
    for (;;) {
      uint64_t x = next_u64();
      if (x <= limit) return x % n;
    }
  }
  double unit() { return (double)(next_u64() >> 11) * 0x1.0p-53; }  // uniform in [0, 1)
  template <class T>
  void shuffle(T* items, int n) {
    for (int i = n - 1; i > 0; --i) {
      int j = (int)below((uint64_t)i + 1);
      std::swap(items[i], items[j]);
    }
  }
};

// A sub-seed derived from `seed` and a salt (hzai.rng.mix_seed bit for bit): the salt is
// folded in and scrambled by one SplitMix64 step, so nearby seeds and salts give
// unrelated sub-seeds.
inline uint64_t mix_seed(uint64_t seed, uint64_t salt) { return SplitMix64(seed ^ salt).next_u64(); }

}  // namespace hzn
