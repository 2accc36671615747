// The Python-facing handles of the Legends twin, shared by its binding files
// (legends_bindings.cpp, legends_search_bindings.cpp, legends_learn_bindings.cpp).
#pragma once

#include <memory>

#include "legends.hpp"
#include "legends_learn.hpp"

namespace hzn::lg {

struct LgGameHandle {
  std::shared_ptr<const LgGame> g;
};

struct LgStateHandle {
  std::shared_ptr<const LgGame> g;
  LgState s;
};

struct LgViewHandle {
  std::shared_ptr<const LgGame> g;
  LgView v;
};

}  // namespace hzn::lg
