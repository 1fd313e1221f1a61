// Half storage's place in a plan (plan/storage.hpp). A pass converts in
// the loads and stores that read and write through PassWriter::loaded,
// product and real_stored: those of the plain passes and of a real axis's
// (pieces/real.cpp), in the launch forms that admit the convolution's
// product (pass_modes.cpp: no staging copy or block of rows to load, no
// cluster, plane, copy or one-kernel convolution). Bluestein's, Rader's,
// the DCT's and the paired rows' pieces read and write their own way (and
// Rader's later passes read the caller's input again), so such plans
// convert in kernels of their own. The caller's buffers hold 16-bit
// values, so only the pass that converts may touch them: the first reads
// the input, the last writes the output, and no other pass reads or writes
// either (in place a multi-pass plan may use the caller's buffer as its
// workspace).
#include "plan/storage.hpp"

#include <algorithm>
#include <cstring>

#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::plan {
namespace {

// Whether the pass's modes admit `form`, whatever its pieces say (the real
// piece admits no product in its loads, but converts them).
bool modes_take(const KernelSpec& spec, Form form) {
  for (const PassMode& mode : pass_modes())
    if (mode.active(spec) && (mode.admits & static_cast<unsigned>(form)) == 0) return false;
  return true;
}

bool converts(const Pass& p) {
  const std::vector<const pieces::Piece*> own = pieces::of(p.spec);
  return p.chain_elements == 0 && !p.spec.identity &&
         std::all_of(own.begin(), own.end(),
                     [](const pieces::Piece* piece) { return std::strcmp(piece->name(), "real") == 0; });
}

}  // namespace

void fuse_storage(PlanTree& tree, Storage storage) {
  std::vector<Pass>& passes = tree.passes;
  if (storage == Storage::Native || passes.empty()) return;
  if (!std::all_of(passes.begin(), passes.end(), converts)) return;
  const bool in_place = tree.problem.placement == Placement::InPlace;
  const std::size_t last = passes.size() - 1;
  bool load = passes.front().source == Slot::Input && modes_take(passes.front().spec, Form::MultiplyLoad) &&
              !passes.front().spec.block_rows;
  bool store = passes.back().destination == Slot::Output && modes_take(passes.back().spec, Form::MultiplyStore);
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
