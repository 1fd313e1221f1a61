// What the DCT and DST pieces share (pieces/r2r.cpp, r2r_packed.cpp): the
// read of the transform's input u (the DSTs' signs and reversal, scipy's
// orthogonalize factors) and the write of its output y (the same, at the
// output's end). Both read KernelSpec::r2r_type, r2r_sine,
// r2r_orthogonalize and r2r_points, and index the axis from its point 0
// (axis_off on the input, a given base on the output).
#pragma once

#include <cstdint>
#include <string>

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::pieces {

// Declares `name` = u[q], q an expression of the axis index (the source's
// element, its sign and its orthogonalize factor).
void emit_u(codegen::PassWriter& w, const std::string& name, const std::string& q);

// Writes the real `y` (declared, non-const) as output element `at`
// (declared): the DSTs' (-1)^at of types 3 and 4, orthogonalize's factor,
// the norm (out_re), at out[base + at * step].
void emit_y_store(codegen::PassWriter& w, const std::string& base, std::int64_t step);

// Type 4's table, w_8n^e for e < 2n, as both pieces read it (one device
// copy a length and precision: the kind "r2r_w8n").
void w8n_table(std::int64_t n, TableSource& t);

}  // namespace bfly::pieces
