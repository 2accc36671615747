// Python bindings of the Legends twin's searches and arena: the generic searches on its
// handle (LegendsSearch, LegendsPimc, LegendsMoSearch: Binding below,
// hzai/native/game_bindings.hpp), its light move, its arena and the observation function
// of the multi-observer search.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "game_bindings.hpp"
#include "legends_py.hpp"
#include "legends_seats.hpp"
#include "search/arena.hpp"

namespace py = pybind11;
using namespace hzn;

namespace hzn {

// How Legends meets Python (game_bindings.hpp).
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

}  // namespace hzn

void bind_legends_search(py::module_& m) {
  bind::bind_native_searches<lg::Legends>(m);
  m.def("legends_observation", [](const lg::LgStateHandle& s, int action, int seat) {
    if (seat < 0 || seat >= s.g->seats) throw py::value_error("seat is not a seat of the game");
    if (action < 0 || action >= s.g->size) throw py::value_error("action id out of range");
    return lg::observation(*s.g, s.s, action, seat);
  }, py::arg("state"), py::arg("action"), py::arg("seat"), "the same for a Legends state");
}

// The arena on the handle (search/arena.hpp): the bot kinds it plays natively, whether it
// needs the notation's sort ranks, `arena(...)`, and the light bot's move.
void bind_legends_arena(py::module_& m) {
  using search::BOT_ISMCTS, search::BOT_LIGHT, search::BOT_PIMC, search::BOT_RANDOM;
  using search::BotSpec;
  py::object handle = m.attr(Binding<lg::Legends>::handle);
  handle.attr("arena_kinds") = std::vector<int>{BOT_LIGHT, BOT_ISMCTS, BOT_PIMC};
  handle.attr("arena_needs_text_ranks") = true;
  handle.attr("arena") = py::cpp_function(
      [](const lg::LgGameHandle& h, const std::vector<BotSpec>& bots, const std::vector<lg::LgStateHandle>& starts,
         const std::vector<uint64_t>& seeds, const std::vector<std::vector<int>>& seating, int threads,
         bool keep_actions, const std::vector<int32_t>& text_ranks, const std::vector<std::shared_ptr<lg::LgModel>>& models) {
        for (const BotSpec& b : bots)
          if (b.kind == BOT_RANDOM)
            throw py::value_error("the Legends twin does not list moves in the reference's order: "
                                  "its random bot plays in Python");
        auto g = std::make_shared<lg::LgGame>(*h.g);
        if (!text_ranks.empty() && (int)text_ranks.size() != g->size)
          throw py::value_error("text_ranks: one rank per action id");
        g->text_rank = text_ranks;
        std::vector<lg::LgState> states;
        for (const lg::LgStateHandle& st : starts) {
          if (st.g != h.g) throw py::value_error("a start state of another game");
          states.push_back(st.s);
        }
        std::shared_ptr<const lg::LgGame> shared = g, origin = h.g;
        return bind::play_games<lg::Legends>(shared, bots, std::move(states), seeds, seating, threads, keep_actions,
                                             [origin](const lg::LgState& s) { return lg::LgStateHandle{origin, s}; },
                                             std::vector<std::shared_ptr<const lg::LgModel>>(models.begin(), models.end()));
      },
      py::is_method(handle), py::arg("bots"), py::arg("starts"), py::arg("seeds"), py::arg("seating"),
      py::arg("threads") = 1, py::arg("keep_actions") = false, py::arg("text_ranks") = std::vector<int32_t>{},
      py::arg("models") = std::vector<std::shared_ptr<lg::LgModel>>{},
      "as Game.arena; text_ranks: where each action's notation sorts (the search's tie-break); models: what the "
      "guided bots search with (legends_learn.hpp)");
  bind::bind_light_move<lg::Legends>(handle);
}
