// Ctrl-C for the bindings' long calls: the work runs with the GIL released and polls a
// nardy::Cancel (src/nardy/cancel.hpp); on the calling thread the poll re-takes the GIL
// every few milliseconds to run Python's signal handlers. A cancelled call raises the error
// the handler raised (KeyboardInterrupt for Ctrl-C), or KeyboardInterrupt when a CancelToken
// stopped it.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <utility>

#include "nardy/cancel.hpp"

namespace nardy_py {

// True when a Python signal handler raised; its exception stays set for the caller to raise.
// PyErr_CheckSignals does nothing off the main thread, so there the poll costs the GIL only.
inline bool python_signal_raised(void*) {
  pybind11::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// A cancel flag Python can set (nardy.parallel cancels its shards with one), shared by the
// calls that were given it.
struct CancelToken {
  std::shared_ptr<nardy::Cancel> cancel = [] {
    auto c = std::make_shared<nardy::Cancel>();
    c->check = &python_signal_raised;
    return c;
  }();
};

// The Cancel a call polls: the token's, or a fresh one of its own.
inline std::shared_ptr<nardy::Cancel> cancel_for(const CancelToken* token) {
  if (token) return token->cancel;
  return CancelToken{}.cancel;
}

// f() with the GIL released; a cancelled run becomes the pending Python exception.
template <class F>
auto run_released(F&& f) -> decltype(f()) {
  try {
    pybind11::gil_scoped_release release;
    return std::forward<F>(f)();
  } catch (const nardy::Cancelled&) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw pybind11::error_already_set();
  }
}

}  // namespace nardy_py
