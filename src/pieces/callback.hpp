// Callbacks' functions as kernel source (pieces/callback.cpp): the same
// text for the passes that fuse them and the kernels that apply them on
// their own (codegen/storage_kernel.hpp).
#pragma once

#include <string>

#include "codegen/dialect.hpp"
#include "plan/end_ops.hpp"

namespace bfly::pieces {

// After the preamble's types, cmake and cmul: `result bfly_load(value v,
// u64 o, global const real* data)` (bfly_store where !load), value cpx or
// real (EndOps::complex_values), result real where the ops end in one.
// Empty for no ops; guarded, so a program may include it twice.
std::string callback_function(const codegen::Dialect& dialect, const plan::EndOps& ops, bool load);

}  // namespace bfly::pieces
