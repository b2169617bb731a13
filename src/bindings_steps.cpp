// nardy._core.StepTurn: a turn played one checker step at a time over the variant's fixed step
// action space, with the exact legal-step mask (src/nardy/steps.hpp). Registered by
// register_steps() from src/bindings.cpp. Positions cross as the 32-byte keys of the rest of
// the module.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "bindings_errors.hpp"
#include "nardy/steps.hpp"

namespace py = pybind11;
using namespace nardy;

namespace {

using nardy_py::raise_error;

Position position_from(const py::bytes& key) {
  char* data = nullptr;
  Py_ssize_t n = 0;
  if (PyBytes_AsStringAndSize(key.ptr(), &data, &n) != 0 || n != 32) {
    PyErr_Clear();
    raise_error("InvalidPositionError", "a position key is 32 bytes");
  }
  uint64_t w[4];
  std::memcpy(w, data, 32);
  Position p;
  p.us.w[0] = w[0];
  p.us.w[1] = w[1];
  p.them.w[0] = w[2];
  p.them.w[1] = w[3];
  return p;
}

py::bytes key_of(const Position& p) {
  const uint64_t w[4] = {p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]};
  return py::bytes(reinterpret_cast<const char*>(w), 32);
}

int checked_action(const StepTurn& t, py::handle action) {
  if (PyBool_Check(action.ptr()) || !PyIndex_Check(action.ptr()))
    raise_error("InvalidArgumentError", "an action is an integer");
  const long long a = py::int_(py::reinterpret_borrow<py::object>(action)).cast<long long>();
  if (a < 0 || a >= t.space().size())
    raise_error("InvalidArgumentError", "action " + std::to_string(a) + " is outside 0.." +
                                            std::to_string(t.space().size() - 1));
  return static_cast<int>(a);
}

}  // namespace

void register_steps(py::module_& m) {
  m.def("greedy_index", [](Engine& e, const py::bytes& key, int d1, int d2, long long turn) -> long {
          if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
            raise_error("InvalidDiceError", "dice must be two integers from 1 to 6");
          if (turn < 0 && !(turn >= -4 && d1 == d2 && e.carry(d1, d2, kLateTurn, 1).left != 0))
            raise_error("InvalidArgumentError", "turn must be >= 0");
          if (turn != 0 && e.has_sequences()) {
            // the rollouts' choice, found in the whole turn's moves (Engine.turn_legal's order)
            const Position pos = position_from(key);
            const int t = static_cast<int>(turn < kLateTurn ? turn : kLateTurn);
            Position chosen;
            const int r = e.greedy_turn(pos, d1, d2, t, chosen);
            if (r == 0) return -1;
            thread_local TurnList turns;
            e.generate_turn(pos, d1, d2, t, turns);
            for (size_t i = 0; i < turns.size(); ++i)
              if (turns[i].result == chosen && turns[i].again == (r == 2))
                return static_cast<long>(i);
            raise_error("Error", "the greedy move is not among the turn's moves");
          }
          thread_local MoveList list;
          e.generate(position_from(key), d1, d2, list);
          return list.empty() ? -1 : static_cast<long>(e.choose_greedy(list));
        }, py::arg("engine"), py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn") = 0,
        "Index (in legal_moves order; with the mover's turn number `turn` in a variant with "
        "dice sequences, in Engine.turn_legal's order) of the move the greedy rollout policy "
        "plays; -1: pass.");
  py::class_<StepTurn>(m, "StepTurn", R"doc(A turn played one checker step at a time.

Actions are ``(from * 25 + to) * H + hit`` (from 0..24, 24 entering; to 0..24, 24 borne off;
H = 2 where the variant tells a hit from a non-hit on the same step, else 1), then
``pass_action`` (25 * 25 * H), the pass of a turn without a legal move, and in variants where
the player names dice (Acey-deucey) six more: ``name_action(d)`` names the double d-d, the
decision that follows the 1-2's steps. The mask allows exactly the actions that extend the
turn to a legal complete move.)doc")
      .def(py::init([](const Engine& e) { return e.step_turn(); }), py::arg("engine"))
      .def_property_readonly("size", [](const StepTurn& t) { return t.space().size(); },
                             "Number of actions.")
      .def_property_readonly("pass_action", [](const StepTurn& t) { return t.space().pass(); })
      .def_property_readonly("hit_flag", [](const StepTurn& t) { return t.space().hit_flag(); })
      .def_property_readonly("names_dice", [](const StepTurn& t) { return t.space().names_dice(); },
                             "The space has the six actions naming a double.")
      .def("name_action", [](const StepTurn& t, int d) {
             if (!t.space().names_dice())
               raise_error("InvalidArgumentError", "this variant names no dice");
             if (d < 1 || d > 6) raise_error("InvalidDiceError", "a named double is 1..6");
             return t.space().name_action(d);
           }, py::arg("d"), "The action naming the double d-d.")
      .def("named_die", [](const StepTurn& t, py::handle action) {
             return t.space().named_die(checked_action(t, action));
           }, py::arg("action"), "The double an action names (0: a step or the pass).")
      .def_property_readonly("named", &StepTurn::named,
                             "Once done: the double the move named (0: none).")
      .def_property_readonly("again", &StepTurn::again,
                             "Once done: the same player rolls again after the move.")
      .def("begin", [](StepTurn& t, const py::bytes& key, int d1, int d2, long long turn) {
             if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
               raise_error("InvalidDiceError", "dice must be two integers from 1 to 6");
             if (turn < -4) raise_error("InvalidArgumentError", "turn must be >= 0");
             try {
               t.begin(position_from(key), d1, d2,
                       static_cast<int>(turn < kLateTurn ? turn : kLateTurn));
             } catch (const std::invalid_argument& e) {
               raise_error("InvalidArgumentError", e.what());
             }
           }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn") = 0,
           "Starts the turn of the position (a key, mover's perspective) for the roll; `turn` "
           "(the mover's turn number) asks for the whole turn of a variant with dice sequences "
           "(Engine.turn_moves), 0 for the roll's moves (Engine.legal).")
      .def("mask", [](StepTurn& t, py::object out) -> py::object {
             const auto n = static_cast<py::ssize_t>(t.space().size());
             py::array arr;
             if (out.is_none()) {
               arr = py::array(py::dtype("bool"), std::vector<py::ssize_t>{n});
             } else {
               arr = py::reinterpret_borrow<py::array>(out);
               if (!py::isinstance<py::array>(out) || arr.ndim() != 1 || arr.shape(0) != n ||
                   arr.itemsize() != 1 || !(arr.flags() & py::array::c_style) ||
                   !arr.writeable())
                 raise_error("InvalidArgumentError",
                             "out must be a writable contiguous 1-byte array of " +
                                 std::to_string(n) + " entries");
             }
             t.mask(static_cast<uint8_t*>(arr.mutable_data()));
             return arr;
           }, py::arg("out") = py::none(),
           "The legal actions as a bool array (written into `out` when given).")
      .def("legal", [](StepTurn& t) {
             std::vector<int> out;
             t.legal(out);
             return out;
           }, "The legal actions, ascending.")
      .def("legal_actions", [](StepTurn& t) {
             thread_local std::vector<uint8_t> mask;
             thread_local std::vector<int32_t> list;
             mask.resize(static_cast<size_t>(t.space().size()));
             list.clear();
             t.mask_and_list(mask.data(), list);
             py::array_t<int32_t> out(static_cast<py::ssize_t>(list.size()));
             if (!list.empty())
               std::memcpy(out.mutable_data(), list.data(), list.size() * sizeof(int32_t));
             return out;
           }, "The legal actions, ascending, as an int32 array (the mask's set bits, listed in "
              "C++).")
      .def("play", [](StepTurn& t, py::handle action) { return t.play(checked_action(t, action)); },
           py::arg("action"), "Plays the action; False (nothing changed) when it is not legal.")
      .def("undo", &StepTurn::undo, "Takes back the last action; False when there is none.")
      .def_property_readonly("done", &StepTurn::done)
      .def_property_readonly("played", &StepTurn::played)
      .def_property_readonly("length", &StepTurn::length,
                             "Steps of every legal move of the turn (0: it passes).")
      .def_property_readonly("key", [](const StepTurn& t) { return key_of(t.position()); },
                             "The position after the steps so far (the result once done).")
      .def_property_readonly("n_moves", [](const StepTurn& t) { return t.results().size(); })
      .def("results", [](const StepTurn& t) {
             py::list out;
             for (const Position& r : t.results()) out.append(key_of(r));
             return out;
           }, "The keys of the legal complete moves' results.")
      .def("decode", [](const StepTurn& t, py::handle action) -> py::object {
             const int a = checked_action(t, action);
             if (a >= t.space().pass()) return py::none();
             const Step s = t.space().decode(a);
             return py::make_tuple(int(s.from), int(s.to), bool(s.hit));
           }, py::arg("action"), "(from, to, hit) of a step action (to -1: borne off); None for the pass and the "
           "actions naming a double.")
      .def("encode", [](const StepTurn& t, int from, int to, bool hit) {
             if (from < 0 || from > kEnterFrom || to < kBearOffTo || to >= kPoints)
               raise_error("InvalidArgumentError", "a step goes from 0..24 to -1..23");
             return t.space().encode(Step{int8_t(from), int8_t(to), uint8_t(hit && t.space().hit_flag())});
           }, py::arg("from_"), py::arg("to"), py::arg("hit") = false);
}
