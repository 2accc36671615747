// The games with a C++ twin, listed once (NativeGames). search_bindings.cpp and
// arena_bindings.cpp bind the same things on every game of the list: its searches
// (search, pimc, mo_search on the game handle, classes named from `prefix`), its light
// playout move and its arena. A new twin is one entry in the list, one Binding below and
// its arena (arena_bindings.cpp: bind_game_arena<G>, a link error until it is written).
#pragma once

#include <memory>
#include <type_traits>

#include <pybind11/pybind11.h>

#include "hera_zeus.hpp"
#include "legends_py.hpp"
#include "py_types.hpp"

namespace hzn {

// How one native game meets Python: its handle types and names, and how a search gets
// the game and the game's own view from them.
template <class G>
struct Binding;

template <>
struct Binding<HeraZeus> {
  using Handle = PyGame;     // module attribute `handle`: the game handle (Game.native)
  using ViewArg = ViewSpec;  // the typed view its searches take
  static constexpr const char* handle = "Game";
  static constexpr const char* prefix = "";  // Search, Pimc, MoSearch
  static std::shared_ptr<const GameDef> game(const Handle& h, const ViewArg&) { return h.def; }
  static Sampler view(const GameDef& g, const ViewArg& v) { return Sampler(g, v); }
};

template <>
struct Binding<lg::Legends> {
  using Handle = lg::LgGameHandle;
  using ViewArg = lg::LgViewHandle;
  static constexpr const char* handle = "LegendsGame";
  static constexpr const char* prefix = "Legends";  // LegendsSearch, LegendsPimc, LegendsMoSearch
  static std::shared_ptr<const lg::LgGame> game(const Handle&, const ViewArg& v) { return v.g; }
  static const lg::LgView& view(const lg::LgGame& g, const ViewArg& v) {
    if (v.g.get() != &g) throw pybind11::value_error("the view is of another game than the search's");
    return v.v;
  }
};

template <class... G>
struct GameList {};

// The list itself.
using NativeGames = GameList<HeraZeus, lg::Legends>;

template <class G>
struct GameTag {
  using type = G;
};

// f(GameTag<G>{}) for every game of the list, in order.
template <class... G, class F>
void for_each_native_game(GameList<G...>, F&& f) {
  (f(GameTag<G>{}), ...);
}

}  // namespace hzn
