// nardy._core.VectorEnv: N games stepped together in C++ (src/nardy/vector_env.hpp), for
// python/nardy/vector.py. The fixed-size outputs are numpy views of the env's own vectors
// (they never move); the afterstates are views of a shared block that stays alive as long as
// an array uses it. Every view is overwritten by the next reset/step. The loops run with the
// GIL released; a second call on the same env while one runs is refused.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "bindings_errors.hpp"
#include "nardy/features.hpp"
#include "nardy/vector_env.hpp"

namespace py = pybind11;
using namespace nardy;

namespace {

using nardy_py::raise_error;

struct PyVectorEnv {
  std::unique_ptr<VectorEnv> env;
  std::atomic<bool> busy{false};
  bool started = false;

  struct Guard {
    std::atomic<bool>& flag;
    explicit Guard(std::atomic<bool>& f) : flag(f) {
      if (flag.exchange(true))
        raise_error("GameStateError", "this VectorEnv is in use by another thread");
    }
    ~Guard() { flag.store(false); }
  };
};

// A view of `data` that keeps `owner` (the Python env) alive.
template <class T>
py::array view(const T* data, std::vector<py::ssize_t> shape, py::handle owner) {
  py::array_t<T> a(shape, data, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

// A view of a shared block, holding its own reference to the block.
template <class T>
py::array block_view(const SharedBlock<T>& block, std::vector<py::ssize_t> shape) {
  auto* keep = new std::shared_ptr<T[]>(block.data);
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<T[]>*>(p); });
  const T* data = block.data ? block.data.get() : nullptr;
  static T empty_storage[1] = {};
  py::array_t<T> a(shape, data ? data : empty_storage, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

template <class T>
T* out_array(const py::array& a, size_t n, char kind, const char* what) {
  if (a.dtype().kind() != kind || a.itemsize() != sizeof(T) || a.ndim() != 1 ||
      static_cast<size_t>(a.shape(0)) != n || !(a.flags() & py::array::c_style) ||
      !a.writeable())
    raise_error("InvalidArgumentError", std::string(what) + ": wrong output array");
  return static_cast<T*>(const_cast<void*>(a.data()));
}

}  // namespace

void register_vector(py::module_& m) {
  py::class_<PyVectorEnv>(m, "VectorEnv")
      .def(py::init([](const Engine& engine, size_t n, int threads, uint32_t max_plies,
                       bool boards, py::object encoding, bool steps) {
             VectorObservation obs;
             obs.steps = steps;
             obs.boards = boards && !steps;
             if (!encoding.is_none()) {
               obs.features = true;
               const int e = encoding.cast<int>();
               if (e < 0 || e >= kEncodings)
                 raise_error("InvalidArgumentError", "encoding must be 0.." +
                                                         std::to_string(kEncodings - 1));
               obs.encoding = static_cast<Encoding>(e);
             }
             auto p = std::make_unique<PyVectorEnv>();
             try {
               p->env = std::make_unique<VectorEnv>(engine.variant(), engine.rules(), n,
                                                    threads, max_plies, obs);
             } catch (const std::invalid_argument& e) {
               raise_error("InvalidArgumentError", e.what());
             }
             return p;
           }),
           py::arg("engine"), py::arg("n"), py::arg("threads"), py::arg("max_plies"),
           py::arg("boards"), py::arg("encoding"), py::arg("steps") = false,
           "encoding: None or an Encoding number (0 tdgammon, 1 gnubg, 2 long, 3 shlem, 4 plakoto); "
           "steps: step mode (StepTurn's action space with masks) instead of afterstates.")
      .def("reset", [](PyVectorEnv& s, uint64_t seed) {
        PyVectorEnv::Guard g(s.busy);
        {
          py::gil_scoped_release release;
          s.env->reset(seed);
        }
        s.started = true;
      })
      .def("step", [](PyVectorEnv& s, const py::array& actions, const py::array& rewards,
                      const py::array& terminated, const py::array& truncated) {
        PyVectorEnv::Guard g(s.busy);
        if (!s.started) raise_error("GameStateError", "call reset() before step()");
        const size_t n = s.env->size();
        const int64_t* a = out_array<int64_t>(actions, n, 'i', "actions");
        float* r = out_array<float>(rewards, n, 'f', "rewards");
        uint8_t* te = out_array<uint8_t>(terminated, n, 'b', "terminated");
        uint8_t* tr = out_array<uint8_t>(truncated, n, 'b', "truncated");
        long bad;
        {
          py::gil_scoped_release release;
          bad = s.env->step(a, r, te, tr);
        }
        return bad;
      }, "Returns -1, or the first game whose action is out of range (nothing changed).")
      .def("afterstates", [](PyVectorEnv& s) {
        const VectorEnv& e = *s.env;
        return block_view(e.afterstate_rows(),
                          {static_cast<py::ssize_t>(e.total()), 2, kSlots});
      }, "(M, 2, 26) int8 afterstates of the last reset/step.")
      .def("afterstate_again", [](PyVectorEnv& s) {
        const VectorEnv& e = *s.env;
        return block_view(e.afterstate_again(), {static_cast<py::ssize_t>(e.total())});
      }, "(M,) uint8 of the last reset/step: 1 where the player who moved rolls again after "
         "that afterstate.")
      .def("features", [](PyVectorEnv& s) {
        const VectorEnv& e = *s.env;
        const size_t rows = e.observation().steps ? e.size() : e.total();
        return block_view(e.afterstate_features(),
                          {static_cast<py::ssize_t>(rows),
                           static_cast<py::ssize_t>(encoding_width(e.observation().encoding))});
      }, "(M, F) float32 afterstate features of the last reset/step; step mode: (N, F) of "
         "the positions on roll.")
      .def("legal_actions", [](PyVectorEnv& s) {
        const VectorEnv& e = *s.env;
        return block_view(e.legal_actions(), {static_cast<py::ssize_t>(e.legal_total())});
      }, "Step mode: (L,) int32 legal actions of the last reset/step, game i's at "
         "legal_offsets[i]:legal_offsets[i + 1], ascending.")
      .def("fixed_views", [](py::object self) {
        const VectorEnv& e = *self.cast<PyVectorEnv&>().env;
        const auto n = static_cast<py::ssize_t>(e.size());
        py::dict d;
        d["offsets"] = view(e.offsets().data(), {n + 1}, self);
        d["boards"] = view(e.boards().data(), {n, 2, kSlots}, self);
        d["dice"] = view(e.dice().data(), {n, 2}, self);
        d["to_play"] = view(e.to_play().data(), {n}, self);
        d["episodes"] = view(e.episodes().data(), {n}, self);
        d["plies"] = view(e.plies().data(), {n}, self);
        if (e.observation().steps) {
          d["masks"] = view(e.masks().data(), {n, static_cast<py::ssize_t>(e.actions())}, self);
          d["steps_played"] = view(e.steps_played().data(), {n}, self);
          d["legal_offsets"] = view(e.legal_offsets().data(), {n + 1}, self);
        }
        return d;
      }, "Read-only views of the per-game arrays (offsets, boards, dice, to_play, episodes, "
         "plies; step mode: masks, steps_played, legal_offsets), valid for the env's lifetime "
         "and updated by every reset/step.")
      .def_property_readonly("threads", [](PyVectorEnv& s) { return s.env->threads(); })
      .def_property_readonly("actions", [](PyVectorEnv& s) { return s.env->actions(); },
                             "Step mode: the size of the action space (0 in afterstate mode).");
}
