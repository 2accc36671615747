// Python bindings of the service's hot path (replay.hpp): record move texts replayed in
// the core and the view of the seat to decide, built without a reference State.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "py_types.hpp"
#include "replay.hpp"

namespace py = pybind11;
using namespace hzn;

namespace {

const char* const ZONES[] = {"deck", "hand", "field", "discard", "limbo"};
const char* const EVENT_KINDS[] = {"dealt", "move", "reveal", "show_hand", "act"};

py::object place(int zone, int player) {
  if (zone < 0) return py::none();
  return py::make_tuple(ZONES[zone], player);
}

// An event as the tuple (kind, card, src, dst, to) of the reference engine's Event.
py::tuple event_tuple(const Event& e) {
  return py::make_tuple(EVENT_KINDS[e.kind], (int)e.card, place(e.src_zone, e.src_p), place(e.dst_zone, e.dst_p),
                        e.to < 0 ? py::object(py::none()) : py::object(py::int_((int)e.to)));
}

// The moves as UTF-8, up to the first that is not text or cannot be encoded (a lone
// surrogate): `unreadable` is its index, -1 when there is none.
std::vector<std::string> utf8_moves(const py::list& moves, int& unreadable) {
  std::vector<std::string> out;
  unreadable = -1;
  for (const py::handle item : moves) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_Check(item.ptr()) ? PyUnicode_AsUTF8AndSize(item.ptr(), &size) : nullptr;
    if (data == nullptr) {
      PyErr_Clear();
      unreadable = (int)out.size();
      break;
    }
    out.emplace_back(data, (size_t)size);
  }
  return out;
}

}  // namespace

void bind_replay(py::module_& m) {
  m.def("action_of_text", [](const PyGame& g, const std::string& text) { return action_of_text(*g.def, text); },
        py::arg("game"), py::arg("text"), "the action id whose notation is exactly `text`, or -1");
  m.def("replay_texts", [](const PyState& start, const py::list& texts) {
    int unreadable;
    const std::vector<std::string> moves = utf8_moves(texts, unreadable);
    PyState st = start;
    EventLog log;
    int stopped_at;
    {
      EventCapture capture(&log);
      stopped_at = replay_texts(*st.def, st.s, moves);
    }
    if (stopped_at < 0) stopped_at = unreadable;
    py::list events;
    for (const Event& e : log) events.append(event_tuple(e));
    return py::make_tuple(stopped_at, st, events);
  }, py::arg("start"), py::arg("moves"),
        "(index of the first move not played or -1, the state after the moves played, their events)");
  m.def("decide_after", [](const PyState& start, const py::list& texts) {
    int unreadable;
    const std::vector<std::string> moves = utf8_moves(texts, unreadable);
    Decision d;
    if (unreadable >= 0) {
      d.stopped_at = unreadable;  // the reference engine says what is wrong with it
    } else {
      py::gil_scoped_release release;
      d = decide_after(*start.def, start.s, moves);
    }
    PyState end{start.def, d.state};
    py::object view = d.view_built ? py::cast(std::move(d.view)) : py::object(py::none());
    return py::make_tuple(d.stopped_at, end, view);
  }, py::arg("start"), py::arg("moves"),
        "replay `moves` from a fresh deal: (index of the first move not played or -1, the state, "
        "the ViewSpec of the seat to decide or None when no seat decides or the tracker gave up)");
}
