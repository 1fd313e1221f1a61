#include "plan/pass_modes.hpp"

#include "pieces/piece.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {
namespace {

constexpr unsigned operator|(Form a, Form b) { return static_cast<unsigned>(a) | static_cast<unsigned>(b); }
constexpr unsigned operator|(unsigned a, Form b) { return a | static_cast<unsigned>(b); }
constexpr unsigned kNone = 0;

}  // namespace

const std::vector<PassMode>& pass_modes() {
  static const std::vector<PassMode> modes{
      // A copy or transpose pass (no FFT).
      {"copy", [](const KernelSpec& s) { return s.identity; }, kNone},
      // A whole convolution in one kernel (Bluestein's or Rader's): half
      // storage's conversion only (its loads are the writer's, its stores
      // through product and real_stored).
      {"convolution", [](const KernelSpec& s) { return s.convolve; }, Form::StorageLoad | Form::StorageStore},
      // Rows past one block across a thread-block cluster, and two axes in
      // one group. (Tuning: as before these rows; the launch model keeps a
      // cluster's own launch, launch_model.cpp complete_launch.)
      {"cluster", [](const KernelSpec& s) { return s.clustered(); },
       Form::Tuning | Form::StorageLoad | Form::StorageStore},
      {"plane", [](const KernelSpec& s) { return s.plane(); }, Form::Tuning | Form::StorageLoad | Form::StorageStore},
      // The launch forms that are themselves modes of the pass: staged
      // groups exchange in halves and take tuned launches (their loads are
      // copies into local memory: no product there); an exchange in halves
      // keeps everything but block rows; 64-bit offsets too, but for the
      // product in the stores (their index o is 32-bit).
      {"staged", [](const KernelSpec& s) { return s.staged != 0; },
       Form::Staging | Form::Halves | Form::Tuning | Form::CallbackStore | Form::StorageStore | Form::SplitStore},
      {"halves", [](const KernelSpec& s) { return s.local_halves; },
       Form::Chain | Form::Staging | Form::Halves | Form::Tuning | Form::CallbackStore | Form::CallbackLoad |
           Form::StorageLoad | Form::StorageStore | Form::SplitStore},
      {"wide", [](const KernelSpec& s) { return s.wide; },
       Form::Chain | Form::Staging | Form::Halves | Form::Tuning | Form::CallbackLoad | Form::StorageLoad |
           Form::StorageStore | Form::SplitStore},
  };
  return modes;
}

bool modes_admit(const KernelSpec& spec, Form form) {
  for (const PassMode& mode : pass_modes())
    if (mode.active(spec) && (mode.admits & static_cast<unsigned>(form)) == 0) return false;
  for (const pieces::Piece* piece : pieces::of(spec))
    if ((piece->admits(spec) & static_cast<unsigned>(form)) == 0) return false;
  return true;
}

std::string mode_names(const KernelSpec& spec) {
  std::string names;
  for (const PassMode& mode : pass_modes())
    if (mode.active(spec)) names += (names.empty() ? "" : "+") + std::string(mode.name);
  for (const pieces::Piece* piece : pieces::of(spec)) names += (names.empty() ? "" : "+") + std::string(piece->name());
  return names.empty() ? "plain" : names;
}

}  // namespace bfly::plan
