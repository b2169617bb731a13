// pybind11 module nardy._core: a thin layer over the C++ engine. Positions cross the boundary
// as "keys", tuples of the four packed count words (us.lo, us.hi, them.lo, them.hi), or as
// side arrays of 26 counts; validation of user input happens in Python before anything
// reaches here, except for the batch functions, which validate their arrays themselves.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "interrupt.hpp"
#include "bindings_errors.hpp"
#include "nardy/engine.hpp"
#include "nardy/registry.hpp"
#include "nardy/rollout.hpp"

namespace py = pybind11;
using namespace nardy;

// A position key crosses the boundary as 32 bytes: the four packed count words (us.w[0],
// us.w[1], them.w[0], them.w[1]) in native byte order. Bytes hash and compare in C inside
// Python and convert here with one memcpy.
struct Key {
  uint64_t w[4];
};

namespace pybind11::detail {
template <>
struct type_caster<Key> {
  PYBIND11_TYPE_CASTER(Key, const_name("bytes"));
  bool load(handle src, bool) {
    if (!PyBytes_Check(src.ptr()) || PyBytes_GET_SIZE(src.ptr()) != 32) return false;
    std::memcpy(value.w, PyBytes_AS_STRING(src.ptr()), 32);
    return true;
  }
  static handle cast(const Key& k, return_value_policy, handle) {
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(k.w), 32);
  }
};
}  // namespace pybind11::detail

namespace {

Side side_from_words(uint64_t lo, uint64_t hi) {
  Side s;
  s.w[0] = lo;
  s.w[1] = hi;
  return s;
}

Position from_key(const Key& k) {
  return Position{side_from_words(k.w[0], k.w[1]), side_from_words(k.w[2], k.w[3])};
}

Key to_key(const Position& p) { return Key{{p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]}}; }

void check_dice(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
    nardy_py::raise_error("InvalidDiceError", "dice must be two integers from 1 to 6");
}

// The core's turn number for a turn asked from Python: the mover's turn number (>= 1), or
// -left (1..4) for the play of `left` dice of the double (d1, d2) that the opponent's
// stopped cascade left (carried_turn), where the rules pass such dice on.
int core_turn(const Engine& e, int turn, int d1, int d2) {
  if (turn >= 1) return std::min(turn, kLateTurn);
  if (turn >= -4 && turn <= -1 && d1 == d2 && e.carry(d1, d1, kLateTurn, 1).left != 0)
    return carried_turn(-turn);
  nardy_py::raise_error("Error",
                        "turn must be >= 1 (or -1..-4 with a double where the rules pass the "
                        "dice a stopped cascade left to the opponent)");
}

// A whole turn's move chosen by a rollout policy (Engine::pick_turn, greedy_turn), asked for
// `turn` (core_turn): (key, same player rolls again), or None when the turn passes.
template <class Choose>
py::object chosen_turn(const Engine& e, int d1, int d2, int turn, Choose&& choose) {
  check_dice(d1, d2);
  const int t = core_turn(e, turn, d1, d2);
  Position result;
  const int r = choose(t, result);
  return r == 0 ? py::none() : py::object(py::make_tuple(to_key(result), r == 2));
}

template <class M>
py::tuple steps_of_move(const M& m) {
  py::tuple t(m.n_steps);
  for (int k = 0; k < m.n_steps; ++k)
    t[k] = py::make_tuple(int(m.steps[k].from), int(m.steps[k].to), bool(m.steps[k].hit));
  return t;
}
py::tuple steps_tuple(const Move& m) { return steps_of_move(m); }
py::tuple turn_steps_tuple(const TurnMove& m) { return steps_of_move(m); }

// The legal moves of one (position, roll): nardy.LegalMoves. An exact-size copy of the
// enumerator's list (lookups scan it: for a few dozen moves as fast as hashing), the position
// it belongs to, and the Move objects once someone asks for them.
struct MoveSet {
  std::vector<Move> moves;
  py::object position = py::none();  // nardy.Position, or None for raw engine calls
  py::object variant = py::none();   // keeps the engine alive
  const Engine* engine = nullptr;
  int d1 = 0, d2 = 0;
  py::object materialised;

  long find(const Position& p) const noexcept {
    for (size_t i = 0; i < moves.size(); ++i)
      if (moves[i].result == p) return static_cast<long>(i);
    return -1;
  }
};

// The moves of a whole turn (Engine.turn_legal), listed when first asked for and shared so
// that copies are cheap. Until then the dice played and a move's resolution by its result
// (resolve) come from the core without listing: a cascade can have millions of moves.
struct TurnMoveSet {
  py::object engine_ref;  // keeps `engine` alive
  Engine* engine = nullptr;
  Position pos;
  int d1 = 0, d2 = 0, turn = 1, core_turn = 1;
  mutable std::shared_ptr<TurnList> list_;
  mutable int played_ = -1;

  const TurnList& list() const {
    if (!list_) {
      auto l = std::make_shared<TurnList>();
      engine->generate_turn(pos, d1, d2, core_turn, *l);
      list_ = std::move(l);
    }
    return *list_;
  }
  int played() const {
    if (list_) return list_->dice_played();
    if (played_ < 0) played_ = engine->turn_dice_played(pos, d1, d2, core_turn);
    return played_;
  }
  // `named` < 0: any named die (a move is told apart by its result and its named die)
  long find(const Position& p, int named = -1) const {
    const TurnList& l = list();
    for (size_t i = 0; i < l.size(); ++i)
      if (l[i].result == p && (named < 0 || l[i].named == named)) return static_cast<long>(i);
    return -1;
  }
  const TurnMove& at(size_t i) const {
    const TurnList& l = list();
    if (i >= l.size()) throw py::index_error();
    return l[i];
  }
};

// An interned attribute name that lives as long as the process (see g_move_type).
const py::str& attr_name(const char* name) {
  return *new py::str(name);
}

// nardy.Move objects are immutable values made here without calling Python: each Step
// (at most 25 x 26 x 2 of them) is created once and shared, a Move is allocated from its
// type and given its tuple of Steps. Neither can take part in a reference cycle, so they are
// untracked by the garbage collector. Equal step lists share one Move through a bounded
// cache (cleared when full, so memory stays flat in long runs). Module-lifetime objects are
// deliberately leaked: C++ static destructors would run after the interpreter is gone.
PyTypeObject* g_move_type = nullptr;
py::object& g_step_type = *new py::object();
PyObject* g_steps[25 * 26 * 2] = {};
std::unordered_map<uint64_t, PyObject*>* g_move_cache = nullptr;
constexpr size_t kMoveCacheLimit = size_t{1} << 18;  // a few tens of MB at most

uint64_t pack_steps(const Move& m) noexcept {
  uint64_t code = 0;
  for (int k = 0; k < m.n_steps; ++k) {
    const Step& s = m.steps[k];
    const uint64_t bits = 0x800u | (uint64_t(s.from) << 6) | (uint64_t(s.to + 1) << 1) | s.hit;
    code |= bits << (12 * k);
  }
  return code;
}

PyObject* step_object(const Step& s) {
  PyObject*& slot = g_steps[(s.from * 26 + (s.to + 1)) * 2 + (s.hit ? 1 : 0)];
  if (!slot) slot = g_step_type(int(s.from), int(s.to), bool(s.hit)).release().ptr();
  return slot;
}

py::object new_move(const Move& m) {
  if (!g_move_type) throw std::runtime_error("nardy._core: Move and Step types not registered");
  py::tuple steps(m.n_steps);
  for (int k = 0; k < m.n_steps; ++k) {
    PyObject* st = step_object(m.steps[k]);
    Py_INCREF(st);
    PyTuple_SET_ITEM(steps.ptr(), k, st);
  }
  py::object obj = py::reinterpret_steal<py::object>(g_move_type->tp_alloc(g_move_type, 0));
  if (!obj) throw py::error_already_set();
  static const py::str& s_steps = attr_name("_steps");
  if (PyObject_SetAttr(obj.ptr(), s_steps.ptr(), steps.ptr()) != 0) throw py::error_already_set();
  PyObject_GC_UnTrack(steps.ptr());
  if (PyObject_IS_GC(obj.ptr())) PyObject_GC_UnTrack(obj.ptr());
  return obj;
}

py::object move_object(const Move& m) {
  if (!g_move_cache) g_move_cache = new std::unordered_map<uint64_t, PyObject*>();
  const uint64_t code = pack_steps(m);
  auto it = g_move_cache->find(code);
  if (it != g_move_cache->end()) return py::reinterpret_borrow<py::object>(it->second);
  if (g_move_cache->size() >= kMoveCacheLimit) {
    for (auto& [c, o] : *g_move_cache) Py_DECREF(o);
    g_move_cache->clear();
  }
  py::object obj = new_move(m);
  g_move_cache->emplace(code, py::object(obj).release().ptr());
  return obj;
}

using nardy_py::raise_error;

// Dice from any Python object, with nardy.InvalidDiceError for anything but two ints 1..6.
// The common case (a tuple of two small ints) is read here; everything else goes through
// nardy._validate.dice, so the rules (numpy integers yes, bool and float no) and the message
// are those of the Python side, and no conversion error is ever left set.
std::pair<int, int> dice_from(py::handle dice) {
  PyObject* o = dice.ptr();
  if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
    PyObject* a = PyTuple_GET_ITEM(o, 0);
    PyObject* b = PyTuple_GET_ITEM(o, 1);
    if (PyLong_CheckExact(a) && PyLong_CheckExact(b)) {
      int overflow_a = 0, overflow_b = 0;
      const long x = PyLong_AsLongAndOverflow(a, &overflow_a);
      const long y = PyLong_AsLongAndOverflow(b, &overflow_b);
      if (!overflow_a && !overflow_b && x >= 1 && x <= 6 && y >= 1 && y <= 6)
        return {int(x), int(y)};
      if (PyErr_Occurred()) throw py::error_already_set();
    }
  }
  static PyObject* check = py::object(py::module_::import("nardy._validate").attr("dice")).release().ptr();
  py::tuple pair = py::handle(check)(dice);  // raises nardy.InvalidDiceError
  return {pair[0].cast<int>(), pair[1].cast<int>()};
}

Key key_of(py::handle position) {
  static const py::str& s_key = attr_name("_key");
  return position.attr(s_key).cast<Key>();
}

py::list materialise(MoveSet& s) {
  if (!s.materialised) {
    py::list out(s.moves.size());
    for (size_t i = 0; i < s.moves.size(); ++i) {
      py::object o = move_object(s.moves[i]);
      PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), o.release().ptr());
    }
    s.materialised = std::move(out);
  }
  return s.materialised.cast<py::list>();
}

const char* outcome_kind(Variant v, const Outcome& o) {
  const auto kinds = variant_entry(v).kinds;
  if (o.winner == -1 || o.kind < 0 || static_cast<size_t>(o.kind) >= kinds.size()) return "draw";
  return kinds[static_cast<size_t>(o.kind)];
}

Position position_from_row(const int8_t* row, Variant variant, size_t index) {
  SideArray us{}, them{};
  for (int k = 0; k < kSlots; ++k) {
    us[k] = row[k];
    them[k] = row[kSlots + k];
  }
  const std::string err = validate(variant, us, them);
  if (!err.empty())
    raise_error("InvalidPositionError", "position " + std::to_string(index) + ": " + err);
  const VariantEntry& e = variant_entry(variant);
  return Position{e.make_side(us), e.make_side(them)};
}

}  // namespace

void register_batch(py::module_& m);  // src/bindings_batch.cpp
// The table tied to the engine's variant and rules (nardy.InvalidArgumentError when another's).
PerftTable* bind_perft_table(PerftTable* table, const Engine& engine, bool ordered);
void register_moves(py::module_& m);  // src/bindings_moves.cpp
void register_vector(py::module_& m);  // src/bindings_vector.cpp
void register_steps(py::module_& m);  // src/bindings_steps.cpp
void register_codecs(py::module_& m);  // src/bindings_codecs.cpp

PYBIND11_MODULE(_core, m) {
  m.doc() = "nardy's C++ core: packed positions, the full-move enumerator, perft";

  {
    // One member a registry line (registry.cpp), in the registry's order.
    py::enum_<Variant> variant_enum(m, "Variant");
    for (size_t i = 0; i < variants().size(); ++i)
      variant_enum.value(variants()[i].key, static_cast<Variant>(i));
  }
  py::enum_<HeadRule>(m, "HeadRule")
      .value("FEDERATION", HeadRule::Federation)
      .value("CLASSIC", HeadRule::Classic)
      .value("EXTENDED", HeadRule::Extended);
  py::enum_<FevgaFirst>(m, "FevgaFirst")
      .value("PAST_START", FevgaFirst::PastStart)
      .value("OPPONENT_QUARTER", FevgaFirst::OpponentQuarter);
  py::enum_<FevgaPrime>(m, "FevgaPrime")
      .value("ONE_POINT_BEHIND", FevgaPrime::OnePointBehind)
      .value("ALL_BEHIND", FevgaPrime::AllBehind)
      .value("FREE", FevgaPrime::Free);
  py::enum_<ShlemStage>(m, "ShlemStage")
      .value("EITHER", ShlemStage::Either)
      .value("PER_PLAYER", ShlemStage::PerPlayer);
  py::enum_<ShlemEnd>(m, "ShlemEnd")
      .value("MOVE", ShlemEnd::Move)
      .value("CLAIM", ShlemEnd::Claim);

  // Side arrays <-> keys through the variant's traits (a variant may keep state beyond the
  // counts, written into its side arrays its own way: Shlem's prisoners as -1). Without a
  // variant only plain counts pass.
  m.def("encode", [](const SideArray& us, const SideArray& them, std::optional<Variant> v) {
    if (v) {
      const VariantEntry& e = variant_entry(*v);
      return to_key(Position{e.make_side(us), e.make_side(them)});
    }
    for (int k = 0; k < kSlots; ++k)
      if (us[k] < 0 || them[k] < 0 || us[k] > kMaxCount || them[k] > kMaxCount)
        raise_error("InvalidPositionError",
                    "a count outside 0..15 needs the variant that gives it a meaning");
    return to_key(Position{make_side(us), make_side(them)});
  }, py::arg("us"), py::arg("them"), py::arg("variant") = py::none(),
     "Packs two side arrays (validated by the caller) into a key.");
  m.def("decode", [](const Key& k, std::optional<Variant> v) {
    const Position p = from_key(k);
    if (v) {
      const VariantEntry& e = variant_entry(*v);
      return std::make_pair(e.side_array(p.us), e.side_array(p.them));
    }
    if ((p.us.w[1] | p.them.w[1]) >> (4 * (kSlots - 16)))
      raise_error("InvalidPositionError",
                  "this key holds state beyond the counts: decode it with its variant");
    return std::make_pair(side_array(p.us), side_array(p.them));
  }, py::arg("key"), py::arg("variant") = py::none(),
     "Unpacks a key into (mover, opponent) side arrays.");
  m.def("swap", [](const Key& k) {
    return Key{{k.w[2], k.w[3], k.w[0], k.w[1]}};
  });
  m.def("validate", [](Variant v, const SideArray& us, const SideArray& them) {
    return validate(v, us, them);
  }, "Empty string when (mover, opponent) is a valid position of the variant, else why not.");
  m.def("variant_info", [](Variant v) {
    const VariantEntry& e = variant_entry(v);
    py::list names, kinds;
    for (const VariantName& n : e.names) names.append(py::str(n.name.data(), n.name.size()));
    for (const char* k : e.kinds) kinds.append(k);
    py::dict d;
    d["key"] = e.key;
    d["names"] = py::tuple(names);
    d["checkers"] = e.checkers;
    d["has_bar"] = e.has_bar;
    d["start"] = e.start;
    d["kinds"] = py::tuple(kinds);
    return d;
  }, "The core's traits of a variant: key, names (name first, then aliases), checkers a side, "
     "has_bar, start (either side's starting array), kinds (rollout result kinds).");

  m.def("_set_move_types", [](py::object move_type, py::object step_type) {
    if (!PyType_Check(move_type.ptr()) || !PyType_Check(step_type.ptr()))
      throw py::type_error("expected the Move and Step classes");
    if (g_move_cache) {
      for (auto& [c, o] : *g_move_cache) Py_DECREF(o);
      g_move_cache->clear();
    }
    for (PyObject*& st : g_steps) Py_CLEAR(st);
    g_move_type = reinterpret_cast<PyTypeObject*>(move_type.release().ptr());
    g_step_type = std::move(step_type);
  }, "Registers nardy.Move and nardy.Step, which the core instantiates directly.");

  py::class_<MoveSet>(m, "LegalMoves", R"doc(The legal moves of one position and roll.

A sequence of nardy.Move, one per resulting position, created on first access;
``move in legal_moves`` tests legality by where the move leads without creating them.
Empty when the player cannot move (the turn passes).)doc")
      .def(py::init([](py::object position, py::object dice, const MoveSet& other) {
        const auto [d1, d2] = dice_from(dice);
        MoveSet s;
        s.moves = other.moves;
        s.position = position;
        s.variant = position.attr("_variant");
        s.engine = other.engine;
        s.d1 = d1;
        s.d2 = d2;
        return s;
      }))
      .def("__len__", [](const MoveSet& s) { return s.moves.size(); })
      .def("__bool__", [](const MoveSet& s) { return !s.moves.empty(); })
      .def("count", [](MoveSet& s, py::object value) -> size_t {
        if (value.is_none()) return s.moves.size();
        return materialise(s).attr("count")(value).cast<size_t>();
      }, py::arg("value") = py::none(), "Number of legal moves (with an argument: list.count).")
      .def("__iter__", [](MoveSet& s) { return materialise(s).attr("__iter__")(); })
      .def("__getitem__", [](MoveSet& s, py::object i) { return materialise(s)[i]; })
      .def("index_of", [](const MoveSet& s, py::object move) -> long {
        if (!s.engine || !py::hasattr(move, "_steps")) return -1;
        py::tuple steps = move.attr("_steps");
        if (steps.size() > kMaxSteps) return -1;
        Step st[kMaxSteps];
        for (size_t k = 0; k < steps.size(); ++k) {
          py::tuple t = steps[k];
          // hit is read by Shlem only (hit out vs take prisoner on the same (from, to))
          const bool hit = t.size() > 2 && t[2].cast<bool>();
          st[k] = Step{int8_t(t[0].cast<int>()), int8_t(t[1].cast<int>()), uint8_t(hit)};
        }
        if (steps.size() == 0) return -1;
        const Key key = key_of(s.position);
        Position result;
        if (!s.engine->apply_steps(from_key(key), st, int(steps.size()), result)) return -1;
        return s.find(result);
      }, "Index of the legal move leading where `move` leads, or -1.")
      .def("__contains__", [](py::object self, py::object move) {
        return self.attr("index_of")(move).cast<long>() >= 0;
      })
      .def_property_readonly("dice", [](const MoveSet& s) { return py::make_tuple(s.d1, s.d2); })
      .def_property_readonly("position", [](const MoveSet& s) { return s.position; })
      .def_property_readonly("_set", [](py::object self) { return self; })
      .def("results", [](const MoveSet& s) {
        py::object raw = s.position.attr("_raw");
        const int turn = s.position.attr("_turn").cast<int>();
        py::list out(s.moves.size());
        for (size_t i = 0; i < s.moves.size(); ++i)
          out[i] = raw(s.variant, to_key(s.moves[i].result.swapped()), 1 - turn);
        return out;
      }, "The resulting positions, opponent on roll, in move order.")
      .def("__repr__", [](MoveSet& s) {
        std::string text = "<LegalMoves " + std::to_string(s.d1) + "-" + std::to_string(s.d2) +
                           ": " + std::to_string(s.moves.size());
        if (!s.position.is_none()) {
          py::list ms = materialise(s);
          py::object turn = s.position.attr("_turn");
          text += " (";
          for (size_t i = 0; i < ms.size() && i < 8; ++i) {
            if (i) text += ", ";
            text += ms[i].attr("notation")(s.variant, turn).cast<std::string>();
          }
          text += ms.size() > 8 ? ", ...)" : ")";
        }
        return text + ">";
      })
      .def("key", [](const MoveSet& s, size_t i) {
        if (i >= s.moves.size()) throw py::index_error();
        return to_key(s.moves[i].result);
      })
      .def("steps", [](const MoveSet& s, size_t i) {
        if (i >= s.moves.size()) throw py::index_error();
        return steps_tuple(s.moves[i]);
      })
      .def("keys", [](const MoveSet& s) {
        py::list out(s.moves.size());
        for (size_t i = 0; i < s.moves.size(); ++i) out[i] = py::cast(to_key(s.moves[i].result));
        return out;
      })
      .def("all_steps", [](const MoveSet& s) {
        py::list out(s.moves.size());
        for (size_t i = 0; i < s.moves.size(); ++i) out[i] = steps_tuple(s.moves[i]);
        return out;
      })
      .def("moves", &materialise, "The moves as a list of nardy.Move (cached).")
      .def("find", [](const MoveSet& s, const Key& k) { return s.find(from_key(k)); },
           "Index of the move leading to the key, or -1.");

  // The moves of a whole turn (Engine.turn_legal): nardy.TurnMoves reads them by index.
  // A cascade can list millions, so nothing here makes Python objects for all of them.
  py::class_<TurnMoveSet>(m, "TurnMoveSet", "The legal moves of a whole turn, in the core.")
      .def("__len__", [](const TurnMoveSet& s) { return s.list().size(); })
      .def_property_readonly("played", &TurnMoveSet::played,
                             "Dice the moves play (0: the turn passes), known without listing.")
      .def_property_readonly("listed", [](const TurnMoveSet& s) { return bool(s.list_); },
                             "Whether the moves are listed yet.")
      .def_property_readonly("dice", [](const TurnMoveSet& s) { return py::make_tuple(s.d1, s.d2); })
      .def_property_readonly("turn", [](const TurnMoveSet& s) { return s.turn; })
      .def("key", [](const TurnMoveSet& s, size_t i) { return to_key(s.at(i).result); })
      .def("steps", [](const TurnMoveSet& s, size_t i) { return turn_steps_tuple(s.at(i)); })
      .def("keys", [](const TurnMoveSet& s) {
        const TurnList& l = s.list();
        py::list out(l.size());
        for (size_t i = 0; i < l.size(); ++i) out[i] = py::cast(to_key(l[i].result));
        return out;
      })
      .def("named", [](const TurnMoveSet& s, size_t i) { return int(s.at(i).named); },
           "The die move i names (Acey-deucey's double after a 1-2; 0: none).")
      .def("again", [](const TurnMoveSet& s, size_t i) { return bool(s.at(i).again); },
           "Whether the same player rolls again after move i.")
      .def("find", [](const TurnMoveSet& s, const Key& k, int named) {
        return s.find(from_key(k), named);
      }, py::arg("key"), py::arg("named") = -1,
         "Index of the move leading to the key (naming `named`; -1: any), or -1 (lists the "
         "moves).")
      .def("resolve", [](const TurnMoveSet& s, const Key& k, int named) -> py::object {
        const Position target = from_key(k);
        if (s.list_) {
          const long i = s.find(target, named);
          if (i < 0) return py::none();
          const TurnMove& m = (*s.list_)[static_cast<size_t>(i)];
          return py::make_tuple(turn_steps_tuple(m), int(m.named), bool(m.again));
        }
        TurnMove m;
        if (!s.engine->find_turn_move(s.pos, s.d1, s.d2, s.core_turn, target, named, m))
          return py::none();
        return py::make_tuple(turn_steps_tuple(m), int(m.named), bool(m.again));
      }, py::arg("key"), py::arg("named") = -1,
         "The legal move leading to the key (naming `named`; -1: any) as (steps, named die, "
         "again), or None; found without listing the moves when they are not listed yet.");

  py::class_<Engine>(m, "Engine")
      .def(py::init([](Variant v, HeadRule head, bool block_at_end, ShlemStage stage,
                       ShlemEnd end, int pass_limit, bool no_hit_and_hide,
                       int cascade_from_turn, bool pinned_bear_off, FevgaFirst fevga_first,
                       FevgaPrime fevga_prime, bool fevga_start_quarter, int fevga_their_quarter,
                       bool no_hit_and_run, bool cascade_counts_rolls,
                       bool stopped_cascade_to_opponent) {
             Rules r;
             if (cascade_from_turn < 0 || cascade_from_turn > 255)
               nardy_py::raise_error("InvalidRuleError", "cascade_from_turn must be 0..255");
             r.cascade_from_turn = static_cast<uint8_t>(cascade_from_turn);
             r.cascade_counts_rolls = cascade_counts_rolls;
             r.stopped_cascade_to_opponent = stopped_cascade_to_opponent;
             r.no_hit_and_hide = no_hit_and_hide;
             r.no_hit_and_run = no_hit_and_run;
             r.plakoto_pinned_bear_off = pinned_bear_off;
             r.head_rule = head;
             r.block_check_at_end = block_at_end;
             r.shlem_stage = stage;
             r.shlem_end = end;
             if (pass_limit < 0 || pass_limit > 255)
               nardy_py::raise_error("InvalidRuleError", "shlem_pass_limit must be 0..255");
             r.shlem_pass_limit = static_cast<uint8_t>(pass_limit);
             r.fevga_first = fevga_first;
             r.fevga_prime = fevga_prime;
             r.fevga_start_quarter = fevga_start_quarter;
             if (fevga_their_quarter < 1 || fevga_their_quarter > 6)
               nardy_py::raise_error("InvalidRuleError", "fevga_their_quarter must be 1..6");
             r.fevga_their_quarter = static_cast<uint8_t>(fevga_their_quarter);
             return std::make_unique<Engine>(v, r);
           }),
           py::arg("variant"), py::arg("head_rule") = HeadRule::Federation,
           py::arg("block_check_at_end") = false, py::arg("shlem_stage") = ShlemStage::Either,
           py::arg("shlem_end") = ShlemEnd::Move, py::arg("shlem_pass_limit") = 4,
           py::arg("no_hit_and_hide") = false, py::arg("cascade_from_turn") = 3,
           py::arg("pinned_bear_off") = false,
           py::arg("fevga_first") = FevgaFirst::PastStart,
           py::arg("fevga_prime") = FevgaPrime::OnePointBehind,
           py::arg("fevga_start_quarter") = true, py::arg("fevga_their_quarter") = 6,
           py::arg("no_hit_and_run") = false, py::arg("cascade_counts_rolls") = false,
           py::arg("stopped_cascade_to_opponent") = false)
      .def_property_readonly("has_sequences", &Engine::has_sequences,
                             "Whether a roll may give a turn of several groups of dice.")
      .def("turn_at", [](const Engine& e, int first_turn, int ply) {
        if (first_turn < 1) raise_error("Error", "first_turn must be >= 1");
        if (ply < 0) raise_error("Error", "ply must be >= 0");
        return e.turn_at(std::min(first_turn, kLateTurn), std::min(ply, 2 * kLateTurn));
      }, py::arg("first_turn"), py::arg("ply"),
         "The mover's turn number, as the rules read it, at ply `ply` of a game whose player "
         "on roll at ply 0 rolled first there, on his turn `first_turn` (first_turn + ply // 2 "
         "unless the rules count turns over the game's rolls).")
      .def("turn_moves", [](Engine& e, const Key& k, int d1, int d2, int turn, bool again) {
        check_dice(d1, d2);
        const int t = core_turn(e, turn, d1, d2);
        thread_local TurnList list;
        e.generate_turn(from_key(k), d1, d2, t, list);
        py::list out;
        for (const TurnMove& m : list) {
          py::tuple steps(m.n_steps);
          for (int j = 0; j < m.n_steps; ++j)
            steps[j] = py::make_tuple(int(m.steps[j].from), int(m.steps[j].to),
                                      bool(m.steps[j].hit));
          if (again)
            out.append(py::make_tuple(to_key(m.result), steps, int(m.named), bool(m.again)));
          else
            out.append(py::make_tuple(to_key(m.result), steps, int(m.named)));
        }
        return py::make_tuple(list.dice_played(), out);
      }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn"), py::arg("again") = false,
         "(dice played, [(key, steps, named die), ...]): every legal move of the whole turn "
         "the roll gives on the mover's turn number `turn` (1 = the first; -k: the play of k "
         "dice of the double that the opponent's stopped cascade left); with again=True "
         "each move also says whether the same player rolls again after it.")
      .def("carry", [](const Engine& e, int d1, int d2, int turn, int played) -> py::object {
        check_dice(d1, d2);
        const int t = core_turn(e, turn, d1, d2);
        if (played < 0 || played > 4 * kMaxGroups)
          raise_error("Error", "played must be 0..24");
        const DiceCarry c = e.carry(d1, d2, t, played);
        if (c.left == 0) return py::none();
        return py::make_tuple(c.die, c.left);
      }, py::arg("d1"), py::arg("d2"), py::arg("turn"), py::arg("played"),
         "The dice a turn that played `played` dice leaves to the opponent, as (die, left): he "
         "plays `left` dice of die-die (the turn -left) before his own roll; None when it "
         "leaves none (Gul bara's stopped_cascade=\"to-opponent\").")
      .def("turn_pick", [](Engine& e, const Key& k, int d1, int d2, int turn, uint64_t word) {
        return chosen_turn(e, d1, d2, turn, [&](int t, Position& result) {
          return e.pick_turn(from_key(k), d1, d2, t, word, result);
        });
      }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn"), py::arg("word"),
         "The random rollout policy's move of the whole turn the roll gives on turn number "
         "`turn`, from the ply's 64-bit word: (key, same player rolls again), or None when the "
         "turn passes (nardy/rollout.hpp).")
      .def("greedy_score", [](const Engine& e, const Key& k) {
        return e.greedy_score(from_key(k));
      }, py::arg("key"),
         "The greedy rollout policy's score of a resulting position (unswapped: the mover's "
         "view after his move; nardy/rollout.hpp).")
      .def("turn_greedy", [](Engine& e, const Key& k, int d1, int d2, int turn) {
        return chosen_turn(e, d1, d2, turn, [&](int t, Position& result) {
          return e.greedy_turn(from_key(k), d1, d2, t, result);
        });
      }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn"),
         "The greedy rollout policy's move of the whole turn the roll gives on turn number "
         "`turn` (a cascade chosen group by group, without listing it): (key, same player "
         "rolls again), or None when the turn passes (nardy/rollout.hpp).")
      .def("turn_legal", [](Engine& e, const Key& k, int d1, int d2, int turn) {
        check_dice(d1, d2);
        const int t = core_turn(e, turn, d1, d2);
        TurnMoveSet s;
        s.engine_ref = py::cast(&e, py::return_value_policy::reference);
        s.engine = &e;
        s.pos = from_key(k);
        s.d1 = d1;
        s.d2 = d2;
        s.turn = turn;
        s.core_turn = t;
        return s;
      }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("turn"),
         "The legal moves of the whole turn the roll gives on the mover's turn number `turn` "
         "(a TurnMoveSet: listed when first read by index, nothing made in Python until "
         "asked).")
      .def("perft_turn", [](Engine& e, const Key& k, int depth, bool ordered, int first_turn,
                            const nardy_py::CancelToken* token, int carried_die,
                            int carried_left, int threads) {
        if (depth < 0) nardy_py::raise_error("InvalidArgumentError", "depth must be >= 0");
        if (first_turn < 1) raise_error("Error", "first_turn must be >= 1");
        if (threads < 0) raise_error("InvalidArgumentError", "threads must be >= 0");
        DiceCarry carried;
        if (carried_left != 0) {
          check_dice(carried_die, carried_die);
          core_turn(e, -carried_left, carried_die, carried_die);
          carried = {carried_die, carried_left};
        }
        const auto cancel = nardy_py::cancel_for(token);
        const int turn = std::min(first_turn, kLateTurn);
        return nardy_py::run_released([&] {
          if (threads != 1 && carried.left == 0 && e.has_sequences())
            return perft_turn_parallel(e.variant(), e.rules(), from_key(k), depth, ordered, turn,
                                       threads, cancel.get());
          Engine local(e.variant(), e.rules());
          CancelPoll poll(cancel.get(), true, 1);
          return local.perft_turn(from_key(k), depth, ordered, turn, &poll, carried);
        });
      }, py::arg("key"), py::arg("depth"), py::arg("ordered") = false, py::arg("first_turn") = 1,
         py::arg("cancel") = nullptr, py::arg("carried_die") = 0, py::arg("carried_left") = 0,
         py::arg("threads") = 1,
         "perft with the root's mover on turn `first_turn` (ply p on turn first_turn + p // 2); "
         "carried_left > 0: he first plays that many dice of carried_die-carried_die that the "
         "opponent's stopped cascade left (Engine.carry), as part of his ply. threads: C++ "
         "threads (0: all cores; a root with carried dice is counted on one).")
      .def("legal", [](Engine& e, const Key& k, int d1, int d2) {
        check_dice(d1, d2);
        thread_local MoveList list;
        e.generate(from_key(k), d1, d2, list);
        MoveSet s;
        s.moves.assign(list.begin(), list.end());
        s.engine = &e;
        s.d1 = d1;
        s.d2 = d2;
        return s;
      }, "All legal complete moves of the position (a key) for the roll.")
      .def("pick", [](Engine& e, const Key& k, int d1, int d2, long long index) -> py::tuple {
        check_dice(d1, d2);
        if (index < 0) raise_error("Error", "index must be >= 0");
        size_t n = 0;
        Position result;
        const bool moved = e.pick(from_key(k), d1, d2, [&](size_t count) {
          n = count;
          return static_cast<size_t>(index) % count;
        }, result);
        if (!moved) return py::make_tuple(0, py::none());
        return py::make_tuple(n, to_key(result));
      }, py::arg("key"), py::arg("d1"), py::arg("d2"), py::arg("index"),
         "(n, key): the number of legal moves and the result of move index % n, made alone "
         "(what a random rollout player does); (0, None) when the turn passes.")
      .def("count", [](Engine& e, const Key& k, int d1, int d2) {
        check_dice(d1, d2);
        return e.count(from_key(k), d1, d2);
      }, "The number of legal moves, counted without making them where the variant allows.")
      .def("apply", [](const Engine& e, const Key& k, const std::vector<std::vector<int>>& steps)
               -> py::object {
        if (steps.size() > kMaxTurnSteps) return py::none();
        Step st[kMaxTurnSteps];
        for (size_t i = 0; i < steps.size(); ++i) {
          if (steps[i].size() != 2 && steps[i].size() != 3)
            nardy_py::raise_error("InvalidArgumentError", "a step is (from, to) or (from, to, hit)");
          const int from = steps[i][0], to = steps[i][1];
          const int hit = steps[i].size() == 3 ? steps[i][2] : 0;  // read by Shlem only
          if (from < 0 || from > kBar || to < kBearOffTo || to >= kPoints) return py::none();
          st[i] = Step{int8_t(from), int8_t(to), uint8_t(hit != 0)};
        }
        Position result;
        if (!e.apply_steps(from_key(k), st, int(steps.size()), result)) return py::none();
        return py::cast(to_key(result));
      }, "Applies (from, to) or (from, to, hit) steps; None if one is not a possible single "
         "step. Shlem reads `hit` (hit out vs take prisoner); the other variants ignore it.")
      .def("game_end", [](const Engine& e, const Key& k, int passes) -> py::object {
        if (passes < 0) raise_error("Error", "passes must be >= 0");
        Outcome out;
        if (!e.game_end(from_key(k), 0, passes, out)) return py::none();
        const int winner = out.winner == -1 ? 0 : out.winner == 0 ? 1 : -1;
        return py::make_tuple(winner, outcome_kind(e.variant(), out), out.points);
      }, py::arg("key"), py::arg("passes") = 0,
         "None while the game goes on with the key's mover on roll, else (winner: +1 the mover, "
         "-1 the other player, 0 a draw; result kind; points). `passes` = consecutive passed "
         "turns just before.")
      .def("status", [](const Engine& e, const Key& k, int passes) {
        if (passes < 0) raise_error("Error", "passes must be >= 0");
        StatusFields f;
        e.status(from_key(k), passes, f);
        py::dict d;
        for (int i = 0; i < f.n; ++i) {
          const StatusField& x = f.field[i];
          if (x.word)
            d[x.name] = py::str(x.word);
          else if (x.flag)
            d[x.name] = py::bool_(x.value != 0);
          else
            d[x.name] = py::int_(x.value);
        }
        return d;
      }, py::arg("key"), py::arg("passes") = 0,
         "Where the game stands with the key's mover on roll, in the variant's own fields "
         "(always `over` and `winner`: +1 the mover, -1 the other player, 0 none or a draw). "
         "`passes` = consecutive passed turns just before.")
      .def("perft", [](Engine& e, const Key& k, int depth, bool ordered,
                       const nardy_py::CancelToken* token, PerftTable* table) {
        if (depth < 0) nardy_py::raise_error("InvalidArgumentError", "depth must be >= 0");
        const auto cancel = nardy_py::cancel_for(token);
        table = bind_perft_table(table, e, ordered);
        return nardy_py::run_released([&] {
          Engine local(e.variant(), e.rules());  // GIL released: other threads may use `e`
          CancelPoll poll(cancel.get(), true, 1);  // a Shlem node can take 100 ms
          return local.perft(from_key(k), depth, ordered, &poll, table);
        });
      }, py::arg("key"), py::arg("depth"), py::arg("ordered") = false,
         py::arg("cancel") = nullptr, py::arg("table") = nullptr,
         "perft (with a PerftTable if given); Ctrl-C or the token stops it "
         "(KeyboardInterrupt).")
      .def("divide", [](Engine& e, const Key& k, int depth, bool ordered,
                        const nardy_py::CancelToken* token, PerftTable* table) {
        if (depth < 1) nardy_py::raise_error("InvalidArgumentError", "depth must be >= 1");
        const auto cancel = nardy_py::cancel_for(token);
        table = bind_perft_table(table, e, ordered);
        const std::vector<DivideEntry> d = nardy_py::run_released([&] {
          Engine local(e.variant(), e.rules());  // GIL released: other threads may use `e`
          CancelPoll poll(cancel.get(), true, 1);
          return local.divide(from_key(k), depth, ordered, &poll, table);
        });
        py::list out;
        for (const auto& x : d) out.append(py::make_tuple(x.d1, x.d2, x.nodes));
        return out;
      }, py::arg("key"), py::arg("depth"), py::arg("ordered") = false,
         py::arg("cancel") = nullptr, py::arg("table") = nullptr)
      // No cast at all: a cast from a wider integer type would wrap bad counts into good ones.
      .def("enumerate_loop", [](Engine& e, const py::array& boards, int repeat) {
        if (boards.dtype().kind() != 'i' || boards.itemsize() != 1)
          raise_error("InvalidPositionError", "positions must be an int8 array, got dtype " +
                                                  std::string(py::str(boards.dtype())));
        if (boards.ndim() != 3 || boards.shape(1) != 2 || boards.shape(2) != kSlots)
          raise_error("InvalidPositionError", "positions must have shape (N, 2, 26)");
        if (repeat < 0) raise_error("Error", "repeat must be >= 0");
        // int8 already: this only copies a strided view into C order, it changes no value
        const auto contiguous =
            py::array_t<int8_t, py::array::c_style | py::array::forcecast>::ensure(boards);
        if (!contiguous) throw py::error_already_set();
        const int8_t* rows = contiguous.data();
        const size_t n = static_cast<size_t>(boards.shape(0));
        std::vector<Position> positions(n);
        for (size_t i = 0; i < n; ++i)
          positions[i] = position_from_row(rows + i * 2 * kSlots, e.variant(), i);
        const auto cancel = nardy_py::cancel_for(nullptr);
        const EnumerationStats st = nardy_py::run_released([&] {
          Engine local(e.variant(), e.rules());  // GIL released: other threads may use `e`
          // Slices of a few positions between polls: a slice is microseconds of work (a
          // Shlem position up to 100 ms); the kernel's own timing adds the slices up.
          constexpr size_t kSlice = 16;
          CancelPoll poll(cancel.get(), true, 1);
          EnumerationStats total;
          std::vector<Position> slice;
          for (int r = 0; r < repeat; ++r)
            for (size_t i = 0; i < n; i += kSlice) {
              poll();
              slice.assign(positions.begin() + static_cast<std::ptrdiff_t>(i),
                           positions.begin() + static_cast<std::ptrdiff_t>(std::min(n, i + kSlice)));
              const EnumerationStats st = enumerate_all(local, slice, 1);
              total.enumerations += st.enumerations;
              total.results += st.results;
              total.seconds += st.seconds;
            }
          return total;
        });
        return std::make_tuple(st.enumerations, st.results, st.seconds);
      }, py::arg("positions"), py::arg("repeat") = 1,
         "Benchmark kernel: enumerates every (position, 21 rolls) `repeat` times in C++; returns "
         "(enumerations, resulting positions, seconds).");

  py::class_<nardy_py::CancelToken>(m, "CancelToken", R"doc(A flag that stops the long calls
given it (perft, divide, rollouts, batches) at their next poll, from any thread: they raise
KeyboardInterrupt. Ctrl-C stops them without one.)doc")
      .def(py::init<>())
      .def("cancel", [](nardy_py::CancelToken& t) { t.cancel->request(); },
           "Stops every call polling this token (now and later).")
      .def_property_readonly("cancelled",
                             [](const nardy_py::CancelToken& t) { return t.cancel->requested(); });

  register_batch(m);
  register_moves(m);
  register_vector(m);
  register_steps(m);
  register_codecs(m);
}
