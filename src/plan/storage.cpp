// Half storage's place in a plan (plan/storage.hpp). A pass converts where
// the convolution's product could go (the loads PassWriter::emit_read
// writes, the stores through PassWriter::product: KernelSpec::
// can_fuse_multiply_load, can_fuse_multiply), in a plan of plain passes
// only: a real axis's, Bluestein's, Rader's and the DCT's pieces read and
// write their own way (and Rader's later passes read the caller's input
// again), so such plans convert in kernels of their own. The caller's
// buffers hold 16-bit values, so only the pass that converts may touch
// them: the first reads the input, the last writes the output, and no
// other pass reads or writes either (in place a multi-pass plan may use
// the caller's buffer as its workspace).
#include "plan/storage.hpp"

#include <algorithm>

#include "pieces/piece.hpp"

namespace bfly::plan {
void fuse_storage(PlanTree& tree, Storage storage) {
  std::vector<Pass>& passes = tree.passes;
  if (storage == Storage::Native || passes.empty()) return;
  const bool plain = std::all_of(passes.begin(), passes.end(), [](const Pass& p) {
    return pieces::of(p.spec).empty() && p.chain_elements == 0 && !p.spec.identity;
  });
  if (!plain) return;
  const bool in_place = tree.problem.placement == Placement::InPlace;
  const std::size_t last = passes.size() - 1;
  bool load = passes.front().source == Slot::Input && passes.front().spec.can_fuse_multiply_load();
  bool store = passes.back().destination == Slot::Output && passes.back().spec.can_fuse_multiply();
  // Every other access to a caller's buffer rules its side out (in place,
  // Input and Output are one buffer: both sides).
  auto other = [&](Slot slot, bool converted) {
    if (converted) return;
    const bool input = slot == Slot::Input, output = slot == Slot::Output;
    if (input || (in_place && output)) load = false;
    if (output || (in_place && input)) store = false;
  };
  for (std::size_t i = 0; i < passes.size(); ++i) {
    other(passes[i].source, i == 0 && passes[i].source == Slot::Input);
    other(passes[i].destination, i == last && passes[i].destination == Slot::Output);
  }
  if (in_place && !(load && store)) load = store = false;
  if (load) passes.front().spec.load_storage = storage;
  if (store) passes.back().spec.store_storage = storage;
}

bool loads_convert(const PlanTree& tree) {
  return !tree.passes.empty() && tree.passes.front().spec.load_storage != Storage::Native;
}

bool stores_convert(const PlanTree& tree) {
  return !tree.passes.empty() && tree.passes.back().spec.store_storage != Storage::Native;
}

}  // namespace bfly::plan

namespace bfly::plan {

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
