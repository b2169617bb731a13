// pybind11 module nardy._core: a thin layer over the C++ engine. Positions cross the boundary
// as "keys", tuples of the four packed count words (us.lo, us.hi, them.lo, them.hi), or as
// side arrays of 26 counts; validation of user input happens in Python before anything
// reaches here, except for the batch functions, which validate their arrays themselves.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "nardy/engine.hpp"

namespace py = pybind11;
using namespace nardy;

namespace {

using Key = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>;

Side side_from_words(uint64_t lo, uint64_t hi) {
  Side s;
  s.w[0] = lo;
  s.w[1] = hi;
  return s;
}

Position from_key(const Key& k) {
  return Position{side_from_words(std::get<0>(k), std::get<1>(k)),
                  side_from_words(std::get<2>(k), std::get<3>(k))};
}

Key to_key(const Position& p) { return Key{p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]}; }

void check_dice(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
    throw py::value_error("dice must be two integers from 1 to 6");
}

py::tuple steps_tuple(const Move& m) {
  py::tuple t(m.n_steps);
  for (int k = 0; k < m.n_steps; ++k)
    t[k] = py::make_tuple(int(m.steps[k].from), int(m.steps[k].to), bool(m.steps[k].hit));
  return t;
}

// The moves of one (position, roll), owned by Python.
struct MoveSet {
  MoveList list;
};

void fill_sides(const Position& p, int8_t* dst) {
  for (int k = 0; k < kSlots; ++k) dst[k] = static_cast<int8_t>(p.us.count(k));
  for (int k = 0; k < kSlots; ++k) dst[kSlots + k] = static_cast<int8_t>(p.them.count(k));
}

Position position_from_row(const int8_t* row, Variant variant, size_t index) {
  SideArray us{}, them{};
  for (int k = 0; k < kSlots; ++k) {
    us[k] = row[k];
    them[k] = row[kSlots + k];
  }
  const std::string err = validate(variant, us, them);
  if (!err.empty()) throw py::value_error("position " + std::to_string(index) + ": " + err);
  return Position{make_side(us), make_side(them)};
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "nardy's C++ core: packed positions, the full-move enumerator, perft";

  py::enum_<Variant>(m, "Variant")
      .value("BACKGAMMON", Variant::Backgammon)
      .value("LONG_NARDY", Variant::LongNardy);
  py::enum_<HeadRule>(m, "HeadRule")
      .value("FEDERATION", HeadRule::Federation)
      .value("CLASSIC", HeadRule::Classic)
      .value("EXTENDED", HeadRule::Extended);

  m.def("encode", [](const SideArray& us, const SideArray& them) {
    return to_key(Position{make_side(us), make_side(them)});
  }, "Packs two side arrays (validated by the caller) into a key.");
  m.def("decode", [](const Key& k) {
    const Position p = from_key(k);
    return std::make_pair(side_array(p.us), side_array(p.them));
  }, "Unpacks a key into (mover, opponent) side arrays.");
  m.def("swap", [](const Key& k) {
    return Key{std::get<2>(k), std::get<3>(k), std::get<0>(k), std::get<1>(k)};
  });
  m.def("validate", [](Variant v, const SideArray& us, const SideArray& them) {
    return validate(v, us, them);
  }, "Empty string when (mover, opponent) is a valid position of the variant, else why not.");

  py::class_<MoveSet>(m, "MoveSet")
      .def("__len__", [](const MoveSet& s) { return s.list.size(); })
      .def("key", [](const MoveSet& s, size_t i) {
        if (i >= s.list.size()) throw py::index_error();
        return to_key(s.list[i].result);
      })
      .def("steps", [](const MoveSet& s, size_t i) {
        if (i >= s.list.size()) throw py::index_error();
        return steps_tuple(s.list[i]);
      })
      .def("keys", [](const MoveSet& s) {
        py::list out(s.list.size());
        for (size_t i = 0; i < s.list.size(); ++i) out[i] = py::cast(to_key(s.list[i].result));
        return out;
      })
      .def("all_steps", [](const MoveSet& s) {
        py::list out(s.list.size());
        for (size_t i = 0; i < s.list.size(); ++i) out[i] = steps_tuple(s.list[i]);
        return out;
      })
      .def("find", [](const MoveSet& s, const Key& k) { return s.list.find(from_key(k)); },
           "Index of the move leading to the key, or -1.");

  py::class_<Engine>(m, "Engine")
      .def(py::init([](Variant v, HeadRule head, bool block_at_end) {
             Rules r;
             r.head_rule = head;
             r.block_check_at_end = block_at_end;
             return Engine(v, r);
           }),
           py::arg("variant"), py::arg("head_rule") = HeadRule::Federation,
           py::arg("block_check_at_end") = false)
      .def("legal", [](Engine& e, const Key& k, int d1, int d2) {
        check_dice(d1, d2);
        MoveSet s;
        e.generate(from_key(k), d1, d2, s.list);
        return s;
      }, "All legal complete moves of the position for the roll.")
      .def("count", [](Engine& e, const Key& k, int d1, int d2) {
        check_dice(d1, d2);
        MoveList list;
        e.generate(from_key(k), d1, d2, list);
        return list.size();
      })
      .def("apply", [](const Engine& e, const Key& k, const std::vector<std::tuple<int, int>>& steps)
               -> py::object {
        if (steps.size() > kMaxSteps) return py::none();
        Step st[kMaxSteps];
        for (size_t i = 0; i < steps.size(); ++i) {
          const auto [from, to] = steps[i];
          if (from < 0 || from > kBar || to < kBearOffTo || to >= kPoints) return py::none();
          st[i] = Step{int8_t(from), int8_t(to), 0};
        }
        Position result;
        if (!e.apply_steps(from_key(k), st, int(steps.size()), result)) return py::none();
        return py::cast(to_key(result));
      }, "Applies (from, to) steps; None if one is not a possible single step.")
      .def("perft", [](Engine& e, const Key& k, int depth, bool ordered) {
        if (depth < 0) throw py::value_error("depth must be >= 0");
        py::gil_scoped_release release;
        return e.perft(from_key(k), depth, ordered);
      }, py::arg("key"), py::arg("depth"), py::arg("ordered") = false)
      .def("divide", [](Engine& e, const Key& k, int depth, bool ordered) {
        if (depth < 1) throw py::value_error("depth must be >= 1");
        std::vector<DivideEntry> d;
        {
          py::gil_scoped_release release;
          d = e.divide(from_key(k), depth, ordered);
        }
        py::list out;
        for (const auto& x : d) out.append(py::make_tuple(x.d1, x.d2, x.nodes));
        return out;
      }, py::arg("key"), py::arg("depth"), py::arg("ordered") = false)
      .def("afterstates", [](Engine& e, py::array_t<int8_t, py::array::c_style | py::array::forcecast> boards,
                             py::array_t<int16_t, py::array::c_style | py::array::forcecast> dice) {
        if (boards.ndim() != 3 || boards.shape(1) != 2 || boards.shape(2) != kSlots)
          throw py::value_error("positions must have shape (N, 2, 26)");
        if (dice.ndim() != 2 || dice.shape(1) != 2 || dice.shape(0) != boards.shape(0))
          throw py::value_error("dice must have shape (N, 2) with the same N as positions");
        const size_t n = static_cast<size_t>(boards.shape(0));
        const int8_t* b = boards.data();
        const int16_t* d = dice.data();
        std::vector<Position> positions(n);
        for (size_t i = 0; i < n; ++i) {
          check_dice(d[2 * i], d[2 * i + 1]);
          positions[i] = position_from_row(b + i * 2 * kSlots, e.variant(), i);
        }
        auto* out = new std::vector<int8_t>();
        py::array_t<int64_t> offsets(static_cast<py::ssize_t>(n + 1));
        int64_t* off = offsets.mutable_data();
        {
          py::gil_scoped_release release;
          MoveList list;
          off[0] = 0;
          for (size_t i = 0; i < n; ++i) {
            e.generate(positions[i], d[2 * i], d[2 * i + 1], list);
            const size_t base = out->size();
            out->resize(base + list.size() * 2 * kSlots);
            for (size_t k = 0; k < list.size(); ++k)
              fill_sides(list[k].result, out->data() + base + k * 2 * kSlots);
            off[i + 1] = off[i] + static_cast<int64_t>(list.size());
          }
        }
        const py::ssize_t m_rows = static_cast<py::ssize_t>(out->size() / (2 * kSlots));
        py::capsule owner(out, [](void* p) { delete static_cast<std::vector<int8_t>*>(p); });
        py::array_t<int8_t> arr({m_rows, py::ssize_t{2}, py::ssize_t{kSlots}}, out->data(), owner);
        return py::make_tuple(arr, offsets);
      }, py::arg("positions"), py::arg("dice"),
         "For N positions (N, 2, 26) int8 and N rolls (N, 2): the resulting positions of every "
         "legal move (M, 2, 26) int8, unswapped, and CSR offsets (N + 1,) int64.")
      .def("enumerate_loop", [](Engine& e, py::array_t<int8_t, py::array::c_style | py::array::forcecast> boards,
                                int repeat) {
        if (boards.ndim() != 3 || boards.shape(1) != 2 || boards.shape(2) != kSlots)
          throw py::value_error("positions must have shape (N, 2, 26)");
        const size_t n = static_cast<size_t>(boards.shape(0));
        std::vector<Position> positions(n);
        for (size_t i = 0; i < n; ++i)
          positions[i] = position_from_row(boards.data() + i * 2 * kSlots, e.variant(), i);
        py::gil_scoped_release release;
        MoveList list;
        uint64_t enumerations = 0, results = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < repeat; ++r)
          for (const Position& p : positions)
            for (const Roll& roll : rolls(false)) {
              e.generate(p, roll.d1, roll.d2, list);
              ++enumerations;
              results += list.size();
            }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::make_tuple(enumerations, results, secs);
      }, py::arg("positions"), py::arg("repeat") = 1,
         "Benchmark kernel: enumerates every (position, 21 rolls) `repeat` times in C++; returns "
         "(enumerations, resulting positions, seconds).");
}
