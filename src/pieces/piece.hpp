// A load or store piece of a pass kernel, whole in one file: its words in
// the kernel's name, what it asks of the launch, its kernel parameters and
// their values at launch, and the code it writes. The layers reach the
// pieces only through this header: the plan (kernel_spec.cpp) for the
// name and the stores, the generator (codegen/kernel_params.cpp,
// pass_io.cpp, pass_kernel.cpp) for the parameters and the code, the
// runtime (runtime/plan_impl.cpp) for the arguments. A new piece is a new
// file here and a row in pieces.cpp; the solver that uses it sets the
// KernelSpec fields that make it active (plan/solvers/).
#pragma once

#include <complex>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "backends/device_impl.hpp"
#include "codegen/kernel_params.hpp"
#include "plan/plan.hpp"

namespace bfly::codegen {
class PassWriter;
}

namespace bfly::pieces {

// What a piece's arguments are bound from when its pass launches.
struct LaunchFacts {
  const plan::Pass& pass;
  bool inverse = false;
  double scale = 1;                                     // the problem's norm factor
  std::function<detail::KernelArg(plan::Slot)> buffer;  // a slot's buffer
  std::function<detail::KernelArg(double)> real;        // a real of the working precision
  // The callbacks' data (pieces/callback.cpp): the first loads', the last stores'.
  const detail::BufferImpl* load_data = nullptr;
  const detail::BufferImpl* store_data = nullptr;
};

// The host table a piece's kernels read as `tables`: the runtime keeps one
// device copy a key and precision and, where `disk` names an entry, the
// long ones (0.1-2 s to compute) in the disk cache beside the kernels
// (runtime/table_cache.hpp).
struct TableSource {
  std::string kind;      // "rader": with the precision and `size`, the device copy's key ("rader:f32:1009")
  std::string size;      // "1009", or "1024:5"
  bool on_disk = false;  // kept in the disk cache as "rader_f32_1009"; else computed every time
  std::string format;    // how its entries are laid out (part of the disk entry's key)
  std::function<std::vector<std::complex<float>>()> f32;
  std::function<std::vector<std::complex<double>>()> f64;
};

class Piece {
 public:
  virtual ~Piece() = default;
  virtual const char* name() const = 0;
  // Whether a pass has this piece (its KernelSpec fields say so).
  virtual bool active(const plan::KernelSpec& spec) const = 0;

  // The plan's: the launch forms it admits (plan::Form bits,
  // plan/pass_modes.hpp; none by default: a new piece opts in to each);
  // its words in the geometry text (and so in the kernel's
  // name); whether its stores index the output themselves (never through
  // local memory).
  virtual unsigned admits(const plan::KernelSpec&) const { return 0; }
  // Registers a thread needs beyond the pass's estimate
  // (plan/launch_model.cpp), where the piece holds more.
  virtual int extra_registers(const plan::KernelSpec&) const { return 0; }
  virtual void describe(const plan::KernelSpec&, std::ostream&) const {}
  // Its word for the kind of kernel, before the geometry's hash ("_real").
  virtual void name_kind(const plan::KernelSpec&, std::ostream&) const {}
  // Its part of the name past the geometry's hash ("_mul4096").
  virtual void name_part(const plan::KernelSpec&, std::ostream&) const {}
  virtual bool owns_store(const plan::KernelSpec&) const { return false; }
  // Whether a store it owns may go through local memory by columns
  // (KernelSpec::store_columns_via_local: the group's transforms adjacent
  // in the output); column_store then writes each element.
  virtual bool stores_from_local(const plan::KernelSpec&) const { return false; }
  // Whether it needs the exchange array in local memory (for its stores).
  virtual bool needs_exchange(const plan::KernelSpec&) const { return false; }

  // The generator's: its parameters, after the pass's own.
  virtual void add_params(const plan::KernelSpec&, std::vector<codegen::Param>&) const {}
  // Whether the source (the destination) holds reals, not complex points.
  virtual bool reads_reals(const plan::KernelSpec&) const { return false; }
  virtual bool writes_reals(const plan::KernelSpec&) const { return false; }
  // The source's (the destination's) element type where the piece sets it
  // (half storage's "hcpx"); nullptr: the pass's own (real or cpx).
  virtual const char* element_type(const plan::KernelSpec&, bool /*source*/) const { return nullptr; }
  // Functions it calls, written before the kernel (after the preamble).
  virtual std::string helpers(const plan::KernelSpec&, const codegen::Dialect&) const { return ""; }
  // Whether the open dim's strides are run-time arguments (one kernel for
  // every N of Bluestein's M), not constants.
  virtual bool open_dim(const plan::KernelSpec&) const { return false; }
  // Whether its loads need the offset of the axis's point 0 (axis_off).
  virtual bool reads_axis_origin(const plan::KernelSpec&) const { return false; }
  // Its lines among the offsets, given each dim's index variable.
  virtual void emit_offsets(codegen::PassWriter&, const std::vector<std::string>& /*index*/) const {}
  // Its lines after the indexing, before the first loads (a block of the
  // group's rows into local memory), and whether the first stage then reads
  // its points from local memory (the exchange that follows must wait).
  virtual void emit_prologue(codegen::PassWriter&) const {}
  virtual bool loads_from_local(const plan::KernelSpec&) const { return false; }
  // The load of point n into v (with its conjugation and factors), the read
  // of point n alone (`at` its offset from in_off), the stores of the last
  // stage (radix r): each returns whether the piece wrote them.
  virtual bool emit_load_point(codegen::PassWriter&, const std::string& /*v*/, const std::string& /*n*/) const {
    return false;
  }
  virtual bool emit_read(codegen::PassWriter&, const std::string& /*v*/, const std::string& /*n*/,
                         const std::string& /*at*/) const {
    return false;
  }
  virtual bool emit_store(codegen::PassWriter&, int /*r*/) const { return false; }
  // Where it stores from local memory by columns: the statement that
  // stores value `v` (code) of point n (code) of the group's transform
  // whose index along dims[0] is `column` (code) to `target` (an lvalue);
  // empty where the piece does not.
  virtual std::string column_store(const codegen::PassWriter&, const std::string& /*v*/, const std::string& /*column*/,
                                   const std::string& /*n*/, const std::string& /*target*/) const {
    return "";
  }
  // Where point n (code) of a sub-transform goes, as an offset (code) from
  // its output origin, where the piece places it (PassWriter::out_at);
  // empty where it does not.
  virtual std::string store_offset(const codegen::PassWriter&, const std::string& /*n*/) const { return ""; }
  // The value stored at output element `at` in place of v.
  virtual std::string stored(const codegen::PassWriter&, const std::string& v, const std::string& /*at*/) const {
    return v;
  }
  // A source element (code) as the value it holds (a real where `real`),
  // the value (code) read at input offset `at` (code) as the load's
  // callback changes it, and the real stored in place of v at output
  // offset `at` (PassWriter::loaded, real_stored).
  virtual std::string loaded(const codegen::PassWriter&, const std::string& element, bool /*real*/) const {
    return element;
  }
  virtual std::string load_op(const codegen::PassWriter&, const std::string& v, const std::string& /*at*/) const {
    return v;
  }
  virtual std::string real_stored(const codegen::PassWriter&, const std::string& v, const std::string& /*at*/) const {
    return v;
  }

  // The runtime's: the host table its kernels read (has_tables() says,
  // for the parameter list, that it has one), and the value of one of its
  // parameters.
  virtual bool has_tables(const plan::KernelSpec&) const { return false; }
  virtual bool tables(const plan::KernelSpec&, TableSource&) const { return false; }
  virtual detail::KernelArg bind(const codegen::Param& param, const LaunchFacts& facts) const;
};

// Every piece, in the order their words appear in the geometry text.
const std::vector<const Piece*>& all();
// The pieces `spec` has, in that order.
std::vector<const Piece*> of(const plan::KernelSpec& spec);
// Whether one of them has the open dim's strides as arguments, reads or
// writes reals, or needs the exchange array.
bool open_dim(const plan::KernelSpec& spec);
bool reads_reals(const plan::KernelSpec& spec);
bool writes_reals(const plan::KernelSpec& spec);
bool need_exchange(const plan::KernelSpec& spec);
bool loads_from_local(const plan::KernelSpec& spec);
// The source's (destination's) element type in the kernel's source: a
// piece's (element_type), else reals or complex points.
std::string element_type(const plan::KernelSpec& spec, bool source);
bool has_tables(const plan::KernelSpec& spec);
// The host table of the first of spec's pieces that has one.
bool host_table(const plan::KernelSpec& spec, TableSource& table);
// A pass kernel's parameters (codegen::pass_params), each with the first of
// spec's pieces that names it among its own (nullptr: the runtime's).
std::vector<std::pair<codegen::Param, const Piece*>> bound_params(const plan::KernelSpec& spec);

}  // namespace bfly::pieces
