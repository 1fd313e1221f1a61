#include "runtime/tier_choice.hpp"

#include "codegen/chain_kernel.hpp"
#include "codegen/pass_kernel.hpp"

namespace bfly::detail {

bool kernels_ready(DeviceImpl& device, const plan::PlanTree& tree) {
  const std::vector<plan::Pass>& passes = tree.passes;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (i > 0 && passes[i - 1].chain_elements > 0) continue;  // (in the chained kernel before)
    std::string name, source;
    if (passes[i].chain_elements > 0 && i + 1 < passes.size()) {
      const codegen::ChainShape shape = codegen::chain_shape(passes[i], passes[i + 1]);
      name = codegen::chain_name(passes[i].spec, passes[i + 1].spec, shape);
      if (device.has_memo("kernel:" + name)) continue;
      source = codegen::generate_chain(passes[i].spec, passes[i + 1].spec, shape);
    } else {
      name = passes[i].spec.name();
      if (device.has_memo("kernel:" + name)) continue;
      source = codegen::generate(passes[i].spec, device.dialect());
    }
    if (!device.has_binary(source, name)) return false;
  }
  return true;
}

}  // namespace bfly::detail
