// Half storage's and the callbacks' place in a plan (plan/ends.hpp; the
// callbacks: pieces/callback.cpp, docs/CALLBACKS.md, which fuse by the
// same rule into the forms CallbackLoad and CallbackStore). A pass converts in
// the loads and stores that read and write through PassWriter::loaded,
// product and real_stored, in the launch forms that admit it (pass_modes.cpp
// Form::StorageLoad, StorageStore: not a staged pass's loads, which copy
// into local memory, nor a copy's). Each piece says whether it reads and
// writes through them (Piece::admits): the plain passes, the real axis's,
// Bluestein's, Rader's one kernel, the fused DCT's and the paired rows' do;
// Rader's later passes read the caller's input again and do not, so such
// plans convert in kernels of their own (runtime/ends_plan.cpp). The
// caller's buffers hold 16-bit values, so only the first pass's loads and
// the last pass's stores may touch them: intermediates the planner put
// there move to a workspace buffer (keep_callers_buffers).
#include "plan/ends.hpp"

#include <algorithm>

#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::plan {
namespace {

// Whether a pass keeps to the writer's loads and stores: each of its
// pieces admits the conversion both ways (so none reads or writes the
// caller's buffers its own way, as Rader's later passes read the input
// again). (A chained launch's bodies are the passes' own writers'
// functions: codegen/chain_kernel.cpp.)
bool converts(const Pass& p) {
  const unsigned both = static_cast<unsigned>(Form::StorageLoad) | static_cast<unsigned>(Form::StorageStore);
  const std::vector<const pieces::Piece*> own = pieces::of(p.spec);
  return std::all_of(own.begin(), own.end(),
                     [&](const pieces::Piece* piece) { return (piece->admits(p.spec) & both) == both; });
}

}  // namespace

// A plan that works in a caller's buffer between its passes (the output,
// or in place the one buffer: the planner's slots, plan.cpp assign_slots)
// works in a workspace buffer of its own instead, of the caller's
// buffer's extent in fp32, so the caller's buffers meet only the first
// pass's loads and the last pass's stores. False where no workspace slot
// is free (the plan then converts in kernels of its own).
bool keep_callers_buffers(PlanTree& tree) {
  std::vector<Pass>& passes = tree.passes;
  const Problem& p = tree.problem;
  const bool in_place = p.placement == Placement::InPlace;
  const std::size_t last = passes.size() - 1;
  auto caller = [](Slot s) { return s == Slot::Input || s == Slot::Output; };
  // The slot each caller's buffer's intermediate uses move to (in place, one).
  Slot moved[2] = {Slot::Input, Slot::Output};
  int next = tree.workspace_buffers;
  std::int64_t bytes = tree.workspace_bytes;
  auto move = [&](Slot& s) {
    const int which = in_place ? 0 : s == Slot::Output ? 1 : 0;
    if (!caller(moved[which])) {
      s = moved[which];
      return true;
    }
    if (next >= 2) return false;
    moved[which] = next++ == 0 ? Slot::Work0 : Slot::Work1;
    const std::int64_t in = p.input_extent() * static_cast<std::int64_t>(p.input_element_bytes());
    const std::int64_t out = p.output_extent() * static_cast<std::int64_t>(p.output_element_bytes());
    bytes = std::max(bytes, in_place ? std::max(in, out) : which == 1 ? out : in);
    s = moved[which];
    return true;
  };
  std::vector<Pass> changed = passes;
  for (std::size_t i = 0; i < changed.size(); ++i) {
    Pass& pass = changed[i];
    if (caller(pass.source) && !(i == 0 && pass.source == Slot::Input) && !move(pass.source)) return false;
    if (caller(pass.destination) && !(i == last && pass.destination == Slot::Output) && !move(pass.destination))
      return false;
  }
  passes = std::move(changed);
  tree.workspace_buffers = next;
  tree.workspace_bytes = bytes;
  return true;
}

void fuse_storage(PlanTree& tree, Storage storage) {
  Ends ends;
  ends.storage = storage;
  fuse_ends(tree, ends);
}

void fuse_ends(PlanTree& tree, const Ends& ends) {
  std::vector<Pass>& passes = tree.passes;
  if (ends.empty() || passes.empty()) return;
  // The caller's buffers meet only the first loads and the last stores
  // where they hold other values than the plan's (16-bit ones, or the
  // reals of a magnitude): intermediates move off them. (A callback alone
  // leaves them: its side fuses in the one pass that reads or writes it.)
  // And every pass keeps to the writer's loads and stores: none reads the
  // caller's input again after the first (Rader's passes past one kernel
  // gather from it) or writes outputs the last does not (their scatter),
  // which would skip the conversion or the callback.
  if (!std::all_of(passes.begin(), passes.end(), converts)) return;
  const bool narrow = ends.storage != Storage::Native || ends.store.real_result();
  if (narrow && !keep_callers_buffers(tree)) return;
  Pass& first = passes.front();
  Pass& last = passes.back();
  const bool storage = ends.storage != Storage::Native;
  auto admits = [](const Pass& p, bool convert, Form conversion, bool ops, Form callback) {
    return (!convert || modes_admit(p.spec, conversion)) && (!ops || modes_admit(p.spec, callback));
  };
  const bool load = first.source == Slot::Input && (ends.load.empty() || first.chain_elements == 0) &&
                    admits(first, storage, Form::StorageLoad, !ends.load.empty(), Form::CallbackLoad) &&
                    (ends.load.empty() || !first.spec.block_rows);
  const bool chained_last = passes.size() > 1 && passes[passes.size() - 2].chain_elements > 0;
  const bool store = last.destination == Slot::Output && (ends.store.empty() || !chained_last) &&
                     admits(last, storage, Form::StorageStore, !ends.store.empty(), Form::CallbackStore);
  if (load) {
    first.spec.load_storage = ends.storage;
    first.spec.load_ops = ends.load;
  }
  if (store) {
    last.spec.store_storage = ends.storage;
    last.spec.store_ops = ends.store;
  }
}

Pass unfused(const Pass& pass, const std::string& why) {
  Pass plain = pass;
  if (!pass.spec.load_ops.empty()) {
    plain.spec.load_ops = {};
    plain.spec.load_storage = Storage::Native;
  }
  if (!pass.spec.store_ops.empty()) {
    plain.spec.store_ops = {};
    plain.spec.store_storage = Storage::Native;
  }
  plain.launch_from += " (callbacks unfused: " + why + ")";
  return plain;
}

Ends product_ends(const Problem& p, std::int64_t period, bool stores) {
  Ends ends;
  if (period >= 0)
    (stores ? ends.store : ends.load) = multiply_ops(period, stores ? p.output_extent() : p.input_extent());
  return ends;
}

bool loads_fused(const PlanTree& tree, const Ends& ends) {
  if (tree.passes.empty()) return ends.storage == Storage::Native && ends.load.empty();
  const plan::KernelSpec& s = tree.passes.front().spec;
  return s.load_storage == ends.storage && s.load_ops == ends.load;
}

bool stores_fused(const PlanTree& tree, const Ends& ends) {
  if (tree.passes.empty()) return ends.storage == Storage::Native && ends.store.empty();
  const plan::KernelSpec& s = tree.passes.back().spec;
  return s.store_storage == ends.storage && s.store_ops == ends.store;
}

bool loads_convert(const PlanTree& tree) {
  return !tree.passes.empty() && tree.passes.front().spec.load_storage != Storage::Native;
}

bool stores_convert(const PlanTree& tree) {
  return !tree.passes.empty() && tree.passes.back().spec.store_storage != Storage::Native;
}

std::string storage_note(const PlanTree& tree) {
  const Problem& p = tree.problem;
  if (p.storage == Storage::Native) return "";
  auto side = [&](bool fused, const char* where) {
    return fused ? std::string("in the ") + where + " pass" : std::string("by a conversion kernel (fp32 workspace)");
  };
  return std::string("half storage: ") + to_string(p.storage) + " buffers, f32 compute; loads converted " +
         side(loads_convert(tree), "first") + ", stores " + side(stores_convert(tree), "last") + "\n";
}

}  // namespace bfly::plan
