#include "runtime/tier_choice.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <exception>

#include "codegen/chain_kernel.hpp"
#include "codegen/pass_kernel.hpp"

namespace bfly::detail {

void for_each_kernel(
    const plan::PlanTree& tree, codegen::DialectKind dialect,
    const std::function<bool(const std::string& name, const std::function<std::string()>& source)>& visit) {
  const std::vector<plan::Pass>& passes = tree.passes;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (i > 0 && passes[i - 1].chain_elements > 0) continue;  // (in the chained kernel before)
    bool go_on = true;
    if (passes[i].chain_elements > 0 && i + 1 < passes.size()) {
      const plan::Pass &a = passes[i], &b = passes[i + 1];
      const codegen::ChainShape shape = codegen::chain_shape(a, b);
      go_on = visit(codegen::chain_name(a.spec, b.spec, shape),
                    [&] { return codegen::generate_chain(a.spec, b.spec, shape); });
    } else {
      const plan::Pass& a = passes[i];
      go_on = visit(a.spec.name(), [&] { return codegen::generate(a.spec, dialect); });
    }
    if (!go_on) return;
  }
}

// (A kernel still being made, by a tiered plan's background thread, is not
// at hand: a plan of the same size made meanwhile would wait for it.)
bool kernels_ready(DeviceImpl& device, const plan::PlanTree& tree) {
  bool ready = true;
  for_each_kernel(tree, device.dialect(), [&](const std::string& name, const std::function<std::string()>& source) {
    ready = device.memo_made("kernel:" + name) || device.has_binary(source(), name);
    return ready;
  });
  return ready;
}

void background_priority() {
#if defined(__linux__)
  // (Per thread on Linux: a thread id names one thread to setpriority.)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
#endif
}

void rehearse(DeviceImpl& device, const Problem& problem,
              const std::function<void(const BufferImpl&, const BufferImpl&)>& execute) {
  try {
    const std::size_t in_bytes = static_cast<std::size_t>(problem.input_extent()) * problem.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(problem.output_extent()) * problem.output_element_bytes();
    if (problem.placement == Placement::InPlace) {
      auto both = device.allocate(std::max(in_bytes, out_bytes));
      execute(*both, *both);
    } else {
      auto in = device.allocate(in_bytes), out = device.allocate(out_bytes);
      execute(*in, *out);
    }
    device.finish();
  } catch (const std::exception&) {}
}

}  // namespace bfly::detail
