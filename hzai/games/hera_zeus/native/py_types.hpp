// The Python-facing handles of the native core, shared by the binding files.
#pragma once

#include <memory>

#include "core.hpp"

namespace hzn {

struct PyGame {
  std::shared_ptr<const GameDef> def;
};

struct PyState {
  std::shared_ptr<const GameDef> def;
  State s;
};

}  // namespace hzn
