// The writer of one pass kernel's source (codegen/pass_kernel.hpp's
// generate): a KernelSpec in, the kernel's text in one dialect out. Its
// methods live by part, one file each (the comments below name them): the
// stages and exchanges every pass has, the plain loads and stores, and the
// forms a pass may take (real loads and stores, Rader's one kernel,
// staging, clusters, planes). The load and store pieces of src/pieces/
// (Bluestein's chirp, Rader past one kernel) write with its public
// toolkit. Internal to src/codegen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/dialect.hpp"
#include "codegen/emitter.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::codegen {

class PassWriter {
 public:
  PassWriter(const plan::KernelSpec& spec, const Dialect& d, Emitter& e) : s_(spec), d_(d), e_(e) {
    radices_ = spec.radices.empty() ? std::vector<int>{1} : spec.radices;
  }

  std::string write(bool preamble);

  // What the pieces (pieces/) write their code with: the pass, the text,
  // the index type, the points' registers, the output's scale, the
  // butterfly slots and the axis index j.
  const plan::KernelSpec& spec() const { return s_; }
  Emitter& out() { return e_; }
  std::string idx() const { return s_.wide ? d_.u64 : d_.u32; }
  std::string x(int i) const { return "x" + std::to_string(i); }
  std::string scaled(const std::string& v) const { return "cmake(" + v + ".x * out_re, " + v + ".y * out_im)"; }
  std::string half(const std::string& v) const { return "(real)0.5 * (" + v + ")"; }
  std::string u32() const { return d_.u32; }
  std::string u64() const { return d_.u64; }
  const Dialect& dialect() const { return d_; }
  std::string out_type() const;
  // Local-memory address of point n of this group's transform m.
  std::string local(const std::string& m, const std::string& n) const;
  // The value stored at output element `at`: v as the pieces change it.
  std::string product(const std::string& v, const std::string& at) const;
  // A source element `element` (code: src[..], in[..]) at offset `at`
  // (code: from the input buffer's start) as a value: a real (`real`) or a
  // complex point, as the pieces read it (half storage's conversion, then
  // the load's callback); the conversion alone (a pair of reals read at
  // once) and the callback alone; and a real stored to the destination at
  // output offset `at`.
  std::string loaded(const std::string& element, bool real, const std::string& at) const;
  std::string converted(const std::string& element, bool real) const;
  std::string load_op(const std::string& v, const std::string& at) const;
  std::string real_stored(const std::string& v, const std::string& at) const;
  // The output offset (code, from the sub-transform's origin) of its point
  // n (code): `plain` (n times the point stride, as the caller writes it),
  // or where a piece places the point (an output split's blocks).
  std::string out_at(const std::string& n, const std::string& plain) const;
  void emit_axis_index(const std::string& n);
  void emit_rader_index(const std::string& point);
  // v times the pass twiddle of point n (a pass with P > 1).
  void emit_pass_twiddle(const std::string& v, const std::string& n);
  void emit_read(const std::string& v, const std::string& n);

  // Emits `body(j)` for each butterfly slot j of a stage with `butterflies`
  // butterflies, declaring b and guarding the last slot when T does not divide.
  template <class Body>
  void for_each_butterfly(std::int64_t butterflies, const std::string& extra_guard, Body body) {
    const int T = s_.threads_per_transform;
    const std::int64_t slots = (butterflies + T - 1) / T;
    for (std::int64_t j = 0; j < slots; ++j) {
      e_.open("");
      e_.line("const " + u32() + " b = t + " + str(j * T) + ";  (void)b;");
      std::string guard = extra_guard;
      if (!thread_guard_.empty()) guard += std::string(guard.empty() ? "" : " && ") + thread_guard_;
      if ((j + 1) * T > butterflies) guard += std::string(guard.empty() ? "" : " && ") + "b < " + str(butterflies);
      if (!guard.empty()) e_.open("if (" + guard + ")");
      body(static_cast<int>(j));
      if (!guard.empty()) e_.close();
      e_.close();
    }
  }

 private:
  using KernelSpec = plan::KernelSpec;
  using Mapping = plan::Mapping;
  using RealLoad = plan::KernelSpec::RealLoad;
  using RealStore = plan::KernelSpec::RealStore;

  static std::string str(std::int64_t v) { return std::to_string(v); }

  bool column_major() const { return s_.mapping == Mapping::ColumnMajor; }

  // KernelSpec::block_rows: the group's rows as one block, consecutive
  // threads moving consecutive points, between memory (`buffer`, from the
  // group's first row) and local memory; `move(at, local)` says how.
  template <class Move>
  void for_each_block_point(const std::string& buffer, Move move) {
    const std::int64_t L = s_.length, G = s_.group_size();
    const std::int64_t block = L * s_.transforms_per_group;
    e_.open("");
    e_.line("const " + u64() + " g0 = (" + u64() + ")" + d_.group_id + " * " + str(s_.transforms_per_group) + ";");
    e_.line("const " + u64() + " end = (transforms - g0) * " + str(L) + ";  // points of valid rows");
    e_.line(buffer);
    for (std::int64_t q = 0; q * G < block; ++q) {
      e_.open("");
      e_.line("const " + u32() + " i = lid + " + str(q * G) + ", m2 = i / " + str(L) + ", n2 = i % " + str(L) + ";");
      e_.open("if (" + std::string((q + 1) * G > block ? "i < " + str(block) + " && " : "") + "i < end)");
      move("block[i]", local("m2", "n2"));
      e_.close();
      e_.close();
    }
    e_.close();
  }

  // pass_kernel.cpp: the stages, the exchanges through local memory, the copy pass.
  std::string in_type() const;
  bool reads_axis_origin() const;
  void declare_points(int count);
  void emit_offsets(const std::string& g, const std::string& sfx, bool want_in, bool want_out, bool want_k);
  void emit_indexing();
  void emit_block_load();
  void emit_butterflies(int r, std::int64_t Ps);
  void emit_local_write(int r, std::int64_t Ps);
  void emit_local_read(int r);
  void emit_exchange_halves(int r, std::int64_t Ps, int next);
  std::string stage_twiddle(const std::string& e) const;
  void emit_store_from_local();
  void emit_block_point(const std::string& v, const std::string& n);
  void emit_copy();
  void barrier();
  void emit_stages();
  void emit_fft(bool from_global, bool to_global);
  void emit_second_fft();

  // pass_io.cpp: loading a sub-transform's points and storing its results,
  // by the pass's pieces (pieces/piece.hpp) where one takes them, else by
  // the first of the writer's own forms that applies (load_pieces(),
  // store_pieces(): one row a form, its method in the form's file).
  struct LoadPiece {
    const char* name;
    bool (*applies)(const PassWriter&);
    void (PassWriter::*emit)(const std::string& v, const std::string& n);  // point n into v
  };
  struct StorePiece {
    const char* name;
    bool (*applies)(const PassWriter&);
    void (PassWriter::*emit)(int r);  // the last stage's (radix r) results
  };
  static const std::vector<LoadPiece>& load_pieces();
  static const std::vector<StorePiece>& store_pieces();
  void emit_load(int r);
  void emit_plain_point(const std::string& v, const std::string& n);
  void emit_store(int r);
  void emit_direct_store(int r);
  void emit_store_via_local(int r);

  // pass_twiddles.cpp: the twiddles between passes computed in the kernel.
  void emit_pass_sincos(const std::string& v, const std::string& n);
  void emit_pass_sincos_folded(const std::string& v, const std::string& n, std::int64_t N);
  static std::vector<long double> taylor_sinpi_cospi(int odd, int terms);
  static std::string horner(const std::vector<long double>& c);

  // pass_chirp.cpp: a one-kernel convolution's turn between its FFTs
  // (Bluestein's loads and stores: pieces/chirp.cpp).
  void emit_convolve_turn(int r);
  bool turns_in_registers() const;

  // pass_rader.cpp: Rader's one kernel (its passes' pieces: pieces/rader_pass.cpp).
  void emit_rader_zero();
  void emit_rader_load();
  void emit_rader_store(int r);

  // pass_staged.cpp: staged passes: persistent groups, each transform copied in whole.
  bool bulk() const;
  void emit_staged();

  // pass_cluster.cpp: rows past one block across a thread-block cluster.
  void emit_cluster();
  void emit_cluster_store(int r);

  // pass_plane.cpp: planes in one pass (two axes in one group).
  void emit_plane();
  void emit_plane_block_store(int r);
  void emit_plane_turn(int r);

  const KernelSpec& s_;
  const Dialect& d_;
  Emitter& e_;
  // The inner stages' table (a plane's rows read w_C from pass_twiddles).
  std::string twiddle_table_ = "twiddles";
  // Work-items beyond this phase's threads (a plane's phases differ): they
  // skip its butterflies and exchanges but meet its barriers. Empty: none.
  std::string thread_guard_;
  // A plane's rows writer: its stores go through local memory as one block
  // (emit_plane_block_store) of the group's `group_threads_`; the planes
  // the launch has, as an expression.
  bool plane_block_store_ = false;
  std::int64_t group_threads_ = 0;
  std::string plane_count_;
  bool copy_pending_ = false;         // staged: the next transform's copy waits for a barrier
  bool rader_gather_ = false;         // the next local read is Rader's gather
  bool turned_in_registers_ = false;  // the next stage's points are in registers already
  std::vector<int> radices_;
};

}  // namespace bfly::codegen
