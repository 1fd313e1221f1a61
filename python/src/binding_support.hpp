// What both extension modules (bfly._core, bfly._distributed) need alike:
// the plan options they plan with, and bfly::Error as a Python exception.
#pragma once

#include <cstdint>

#include <nanobind/nanobind.h>

#include <bfly/bfly.hpp>

#include <string>

namespace bfly::python {

// A plan that waits for its kernels to compile past a second says so
// through Python's logging (logger "bfly", level INFO; issue 40), never
// print. Plans are made with the GIL released (the bindings' call guards),
// so the notice's thread takes it to log.
inline PlanOptions options_with_logged_waits(Tier tier) {
  PlanOptions options;
  options.tier = tier;
  options.on_wait = [](const std::string& message) {
    nanobind::gil_scoped_acquire gil;
    try {
      nanobind::module_::import_("logging").attr("getLogger")("bfly").attr("info")(message);
    } catch (const nanobind::python_error&) {
      // (Logging failed: nothing to say it with.)
    }
  };
  return options;
}

// Sets the Python error of a bfly::Error. (A translator sets it and returns:
// one that throws nb::python_error instead has it wrapped in a RuntimeError
// by the next translator, which is how MemoryError once read.)
inline void set_python_error(const Error& e) {
  switch (e.code()) {
    case ErrorCode::InvalidArgument:
      PyErr_SetString(PyExc_ValueError, e.what());
      return;
    case ErrorCode::Unsupported:
      PyErr_SetString(PyExc_NotImplementedError, e.what());
      return;
    case ErrorCode::OutOfMemory:
      PyErr_SetString(PyExc_MemoryError, e.what());
      return;
    default:
      // (to_string names the kind: "device error", "kernel build failed", "I/O error".)
      PyErr_SetString(PyExc_RuntimeError, (std::string(to_string(e.code())) + ": " + e.what()).c_str());
  }
}

// The translator every module registers: bfly::Error as above.
inline void register_error_translator() {
  nanobind::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      set_python_error(e);
    }
  });
}

// An address Python passed (a NumPy array's data, a DLPack pointer) as a T*.
template <class T>
T* ptr(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

}  // namespace bfly::python
