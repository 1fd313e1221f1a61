// bfly plan / gen: the printed plan and the generated source of a problem.
// Neither compiles anything; `gen` works for any dialect without its device.
#include <cstdio>

#include "codegen/pass_kernel.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "plan/plan.hpp"
#include "runtime/tuning_files.hpp"

namespace bfly::cli {
namespace {

struct PlanCommandOptions {
  ProblemOptions problem;
  std::string limits = "auto";  // whose limits to plan for
  std::string dialect = "opencl";
  std::string tuning;  // device, off, FILE, or a shipped table's name
  DeviceOptions device;
};

// The table a plan for `limits` reads: --tuning FILE or off; by default the
// device's (auto limits), or for --limits hopper the table shipped for the
// H100, so a plan printed on any machine shows what an H100 runs.
std::shared_ptr<const plan::TuningTable> tuning_for(const PlanCommandOptions& o, bool hopper) {
  const std::string option = tuning_option(o.tuning);
  if (option == "off") return nullptr;
  if (!option.empty()) return std::make_shared<plan::TuningTable>(plan::parse_tuning(option, o.tuning));
  if (hopper) {
    for (const plan::TuningTable& t : detail::shipped_tuning_tables())
      if (t.device.find("H100") != std::string::npos && t.version == version()) return std::make_shared<plan::TuningTable>(t);
    return nullptr;
  }
  if (o.limits == "auto") return detail::tuning_for(o.device.open().info());
  return nullptr;
}

plan::DeviceLimits limits_for(const PlanCommandOptions& o, codegen::DialectKind dialect) {
  if (o.limits == "cpu") return plan::cpu_limits();
  // NVIDIA's OpenCL exposes 48 KiB of local memory; the CUDA dialect plans
  // for a Hopper block's opt-in 227 KiB, as the CUDA backend does there.
  if (o.limits == "gpu") return plan::gpu_limits(49152, 1024);
  if (o.limits == "hopper" || dialect == codegen::DialectKind::Cuda) return plan::gpu_limits(232448, 1024);
  if (o.limits != "auto") throw Error(ErrorCode::InvalidArgument, "invalid --limits '" + o.limits + "' (expected auto, cpu, gpu or hopper)");
  const DeviceInfo& info = o.device.open().info();
  return info.is_gpu ? plan::gpu_limits(info.local_memory_bytes, static_cast<int>(info.max_group_size))
                     : plan::cpu_limits();
}

}  // namespace

void add_plan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<PlanCommandOptions>();
  for (const char* name : {"plan", "gen"}) {
    const bool gen = std::string(name) == "gen";
    CLI::App* command = app.add_subcommand(name, gen ? "print the generated kernel source of a problem"
                                                     : "print the plan (passes and kernels) of a problem");
    o->problem.add_to(*command);
    o->device.add_to(*command);
    command->add_option("--limits", o->limits, "plan for: auto (the device's), cpu, gpu (48 KiB local) or hopper (227 KiB)");
    if (gen) command->add_option("--dialect", o->dialect, "opencl or cuda");
    command->add_option("--tuning", o->tuning,
                        "the tuning table to plan with: device (default: the device's; with --limits hopper the one "
                        "shipped for the H100), off (the model alone) or FILE (a table bfly tune wrote)");
    actions.emplace_back(command, [o, gen] {
      const codegen::DialectKind dialect = codegen::parse_dialect(o->dialect);
      // As the device plans: the tuning knobs (BFLY_STAGED, ...) apply.
      plan::DeviceLimits limits = plan::with_environment(limits_for(*o, dialect));
      limits.tuning = tuning_for(*o, o->limits == "hopper" || (o->limits == "auto" && dialect == codegen::DialectKind::Cuda));
      const plan::PlanTree tree = plan::make_plan(o->problem.problem(), limits, o->problem.plan_options());
      if (!gen) {
        std::fputs(tree.print().c_str(), stdout);
        return 0;
      }
      std::vector<plan::KernelSpec> specs;
      for (const plan::Pass& pass : tree.passes) {
        bool seen = false;
        for (const auto& s : specs) seen = seen || s == pass.spec;
        if (!seen) specs.push_back(pass.spec);
      }
      std::fputs(codegen::generate_program(specs, dialect).c_str(), stdout);
      return 0;
    });
  }
}

}  // namespace bfly::cli
