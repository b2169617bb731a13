// Raising nardy's own exceptions (nardy.errors) from the bindings, so that every binding file
// reports bad input through the same classes and none keeps its own copy of the lookup.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace nardy_py {

// Throws nardy.errors.<error_class>(msg) into Python, for pybind11-style bindings.
[[noreturn]] inline void raise_error(const char* error_class, const std::string& msg) {
  pybind11::object cls = pybind11::module_::import("nardy.errors").attr(error_class);
  PyErr_SetString(cls.ptr(), msg.c_str());
  throw pybind11::error_already_set();
}

// Sets nardy.errors.<error_class>(msg) and returns nullptr, for raw C-API functions that
// report failure by return value.
inline PyObject* set_error(const char* error_class, const std::string& msg) {
  PyObject* mod = PyImport_ImportModule("nardy.errors");
  if (!mod) return nullptr;
  PyObject* cls = PyObject_GetAttrString(mod, error_class);
  Py_DECREF(mod);
  if (!cls) return nullptr;
  PyErr_SetString(cls, msg.c_str());
  Py_DECREF(cls);
  return nullptr;
}

}  // namespace nardy_py
