// The output's split on a plan's one pass (output_split.hpp).
#include "plan/output_split.hpp"

#include <algorithm>
#include <string>

#include "plan/pass_modes.hpp"

namespace bfly::plan {
namespace {

Error cannot(const Problem& p, const std::string& why) {
  const Split& s = p.output.split;
  return Error(ErrorCode::Unsupported, "the output split of axis " + std::to_string(s.axis) + " in blocks of " +
                                           std::to_string(s.length) + " (" + p.token() + ") needs the axis in one " +
                                           "plain pass: " + why);
}

}  // namespace

void place_split(KernelSpec& spec, const Problem& p, std::size_t steps, int dim) {
  const Split& split = p.output.split;
  if (steps != 1) throw cannot(p, "this plan takes " + std::to_string(steps) + " passes");
  // (A pass of another dim than the split's: its transform is 1 point long.)
  if (dim != split.axis + 1 || spec.identity)
    throw cannot(
        p, "this plan's pass transforms " + (dim == 0 ? std::string("the batch") : "axis " + std::to_string(dim - 1)));
  if (spec.stride_product != 1 || spec.length != p.shape[split.axis])
    throw cannot(p, "this pass transforms " + std::to_string(spec.length) + "-point parts of it");
  spec.out_split_length = split.length;
  spec.out_split_stride = split.stride;
}

void check_split(const KernelSpec& spec, const Problem& p) {
  if (!modes_admit(spec, Form::SplitStore) || spec.block_rows)
    throw cannot(p, "this pass is " + mode_names(spec) + ", whose stores address the output their own way");
}

std::int64_t split_reach(const KernelSpec& s) {
  if (s.out_split_length == 0) return (s.length - 1) * s.out_point_stride;
  return (s.length - 1) / s.out_split_length * s.out_split_stride +
         (std::min(s.out_split_length, s.length) - 1) * s.out_point_stride;
}

}  // namespace bfly::plan
