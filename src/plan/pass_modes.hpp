// The modes a pass can be in, and which launch forms each admits: one row
// a mode, in place of the seven lists of exclusions (chainable,
// staged_allowed, block_rows_allowed, halves_allowed, tunable,
// can_fuse_store_ops, can_fuse_load_ops) that each
// had to learn every new mode or silently admit it. A new mode is a new
// row here; a pass admits a form where every mode it is in does, and the
// form's own conditions on the geometry hold (kernel_spec.cpp,
// launch_model.cpp).
#pragma once

#include <string>
#include <vector>

namespace bfly::plan {

struct KernelSpec;

// Launch forms a pass may take on top of its mode.
enum class Form : unsigned {
  Chain = 1,      // one half of a chained launch (codegen/chain_kernel.hpp)
  Staging = 2,    // persistent groups, each transform copied in whole (KernelSpec::staged)
  BlockRows = 4,  // the group's rows as one block through local memory
  Halves = 8,     // the exchange through local memory in two halves
  Tuning = 16,    // the tuning table's launch choices (what `bfly tune` times)
  // Callbacks fused into the last stores or the first loads (KernelSpec::
  // store_ops, load_ops; pieces/callback.cpp), a convolution's pointwise
  // product among them: the stores and loads that know the element's offset.
  CallbackStore = 32,
  CallbackLoad = 64,
  // Half storage's conversion in the first loads and the last stores
  // (KernelSpec::load_storage, store_storage; plan/ends.cpp): the loads
  // and stores that read and write through PassWriter::loaded, product and
  // real_stored.
  StorageLoad = 128,
  StorageStore = 256,
  // The output's axis stored in blocks (KernelSpec::out_split_length;
  // pieces/split_store.cpp): the stores that place point n at
  // PassWriter::out_at(n) (the direct ones, from local memory by rows or
  // columns).
  SplitStore = 512,
};

struct PassMode {
  const char* name;
  bool (*active)(const KernelSpec&);
  unsigned admits;  // Form bits
};

// Every mode, one row each.
const std::vector<PassMode>& pass_modes();

// Whether every mode `spec` is in admits `form`.
bool modes_admit(const KernelSpec& spec, Form form);

// The modes `spec` is in, by name ("plain" for none), for messages.
std::string mode_names(const KernelSpec& spec);

}  // namespace bfly::plan
