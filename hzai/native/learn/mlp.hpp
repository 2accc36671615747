// Small multilayer perceptrons evaluated in plain C++ inside the search (docs/learning.md).
//
// A net is a trunk of ReLU layers over sparse 0/1 inputs (the active feature indices a
// game's encoder writes) and any number of linear heads over the trunk's last layer. The
// first layer sums the rows of its active inputs (as NNUE's accumulator does), the dense
// layers are axpy loops the compiler vectorizes; a head can be evaluated at a few of its
// outputs only (a policy over the legal actions). Nothing here knows a game: the weights
// come from hzai/native/model.py, which checks the file, its version and checksum.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hzn::learn {

constexpr int MAX_WIDTH = 1024;  // widest hidden layer a net may have (stack buffers)

// One affine layer. Trunk layers store w by input row ([in][out]): the first layer adds
// the rows of its active inputs, the next ones add each input times its row. Heads store
// w by output row ([out][in]): one output is one dot product.
struct Layer {
  int in = 0, out = 0;
  std::vector<float> w, b;
};

struct Net {
  int n_in = 0;
  std::vector<Layer> trunk;  // ReLU after each
  std::vector<Layer> heads;  // linear

  int width() const { return trunk.empty() ? n_in : trunk.back().out; }

  // std::invalid_argument naming the first layer whose sizes do not chain.
  void check() const {
    if (trunk.empty()) throw std::invalid_argument("a net needs at least one trunk layer");
    int in = n_in;
    for (size_t i = 0; i < trunk.size(); ++i) {
      const Layer& l = trunk[i];
      if (l.in != in) throw std::invalid_argument("trunk layer " + std::to_string(i) + " takes " + std::to_string(l.in) +
                                                  " inputs, the layer before gives " + std::to_string(in));
      if (l.out < 1 || l.out > MAX_WIDTH) throw std::invalid_argument("trunk layer " + std::to_string(i) + " is too wide");
      if (l.w.size() != (size_t)l.in * l.out || l.b.size() != (size_t)l.out)
        throw std::invalid_argument("trunk layer " + std::to_string(i) + " has weights of the wrong size");
      in = l.out;
    }
    for (size_t i = 0; i < heads.size(); ++i) {
      const Layer& l = heads[i];
      if (l.in != in) throw std::invalid_argument("head " + std::to_string(i) + " takes " + std::to_string(l.in) +
                                                  " inputs, the trunk gives " + std::to_string(in));
      if (l.w.size() != (size_t)l.in * l.out || l.b.size() != (size_t)l.out)
        throw std::invalid_argument("head " + std::to_string(i) + " has weights of the wrong size");
    }
  }

  // check(), and that the net reads `features` inputs (the message names the net, `which`,
  // and the game, `game`).
  void check_reads(int features, const std::string& which, const std::string& game) const {
    check();
    if (n_in != features)
      throw std::invalid_argument("the " + which + " net reads " + std::to_string(n_in) + " features, " + game +
                                  " has " + std::to_string(features));
  }

  // The trunk over the active inputs `idx` (n of them, each < n_in) into `h` (width()).
  void trunk_of(const int32_t* idx, int n, float* h) const {
    float a[MAX_WIDTH], z[MAX_WIDTH];
    const Layer& first = trunk[0];
    std::copy(first.b.begin(), first.b.end(), a);
    for (int k = 0; k < n; ++k) {
      const float* row = first.w.data() + (size_t)idx[k] * first.out;
      for (int o = 0; o < first.out; ++o) a[o] += row[o];
    }
    int width = first.out;
    for (int o = 0; o < width; ++o) a[o] = a[o] > 0.0f ? a[o] : 0.0f;
    for (size_t li = 1; li < trunk.size(); ++li) {
      const Layer& l = trunk[li];
      std::copy(l.b.begin(), l.b.end(), z);
      for (int i = 0; i < l.in; ++i) {
        const float x = a[i];
        if (x == 0.0f) continue;
        const float* row = l.w.data() + (size_t)i * l.out;
        for (int o = 0; o < l.out; ++o) z[o] += x * row[o];
      }
      width = l.out;
      for (int o = 0; o < width; ++o) a[o] = z[o] > 0.0f ? z[o] : 0.0f;
    }
    std::copy(a, a + width, h);
  }

  // Output `o` of head `k` from the trunk's `h`.
  float head_at(int k, const float* h, int o) const {
    const Layer& l = heads[(size_t)k];
    const float* row = l.w.data() + (size_t)o * l.in;
    float s = l.b[(size_t)o];
    for (int i = 0; i < l.in; ++i) s += row[i] * h[i];
    return s;
  }

  int head_size(int k) const { return heads[(size_t)k].out; }
};

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Softmax of `logits` (n) in place, as probabilities.
inline void softmax(double* logits, int n) {
  if (n <= 0) return;
  double top = *std::max_element(logits, logits + n), sum = 0.0;
  for (int i = 0; i < n; ++i) sum += (logits[i] = std::exp(logits[i] - top));
  for (int i = 0; i < n; ++i) logits[i] /= sum;
}

}  // namespace hzn::learn
