// bfly plan / gen: the printed plan and the generated source of a problem.
// Neither needs the device: `gen` prints any dialect's source, and
// `plan --nvrtc sm_90` compiles the CUDA kernels with NVRTC alone to show
// their registers and spills (what a GPU would run, on a machine without one).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <string>

#include "inspect/inspect.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "plan/device_policy.hpp"
#include "plan/launch_alternatives.hpp"
#include "plan/limits_override.hpp"
#include "plan/plan.hpp"
#include "plan/r2r.hpp"
#include "plan/row_threads.hpp"
#include "plan/ends.hpp"
#include "runtime/tuning_files.hpp"

namespace bfly::cli {
namespace {

struct PlanCommandOptions {
  ProblemOptions problem;
  std::string limits = "auto";  // whose limits to plan for
  std::string dialect = "opencl";
  std::string tuning;  // device, off, FILE, or a shipped table's name
  std::string nvrtc;   // plan: an architecture to compile the CUDA kernels for
  DeviceOptions device;
};

// The distinct kernels of a plan, in pass order.
std::vector<plan::KernelSpec> distinct_specs(const plan::PlanTree& tree) {
  std::vector<plan::KernelSpec> specs;
  for (const plan::Pass& pass : tree.passes) {
    bool seen = false;
    for (const auto& s : specs) seen = seen || s == pass.spec;
    if (!seen) specs.push_back(pass.spec);
  }
  return specs;
}

// Each kernel's resources as ptxas allocates them for `arch`: a kernel that
// spills keeps points in local memory, which costs bandwidth. A model
// launch that spills more than the runtime tolerates is followed by the
// launch the CUDA runtime would relaunch it as (plan/launch_alternatives.hpp
// relaunch_candidates: the first that spills no more than that under
// `limits`).
std::string resources(const plan::PlanTree& tree, const std::string& arch, const plan::DeviceLimits& limits) {
  if (!std::regex_match(arch, std::regex("sm_[0-9]+[a-z]?")))
    throw Error(ErrorCode::InvalidArgument, "invalid --nvrtc '" + arch + "' (expected an architecture such as sm_90)");
  const inspect::Nvrtc& nvrtc = inspect::Nvrtc::instance();
  std::string out = "NVRTC " + nvrtc.version() + ", " + arch + ":\n";
  char line[512];
  // Each distinct kernel, and each chained launch's (whose passes' own
  // kernels a device then does not build).
  std::vector<std::pair<std::string, std::string>> kernels;  // name, source
  std::vector<const plan::Pass*> model_rows;                 // the kernel's pass where it may be relaunched
  for (const plan::KernelSpec& spec : distinct_specs(tree)) {
    kernels.emplace_back(spec.name(), inspect::pass_source(spec, inspect::DialectKind::Cuda));
    const plan::Pass* first = nullptr;
    for (const plan::Pass& pass : tree.passes)
      if (!first && pass.spec == spec && pass.launch_from == "model") first = &pass;
    model_rows.push_back(first);
  }
  for (std::size_t i = 0; i + 1 < tree.passes.size(); ++i) {
    const plan::Pass& a = tree.passes[i];
    if (a.chain_elements == 0) continue;
    const inspect::ChainShape shape = inspect::chain_shape(a, tree.passes[i + 1]);
    kernels.emplace_back(inspect::chain_name(a.spec, tree.passes[i + 1].spec, shape),
                         inspect::chain_source(a.spec, tree.passes[i + 1].spec, shape));
  }
  auto spills = [](const inspect::KernelResources& k) { return k.spill_store_bytes > 0 || k.stack_bytes > 0; };
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& [name, source] = kernels[i];
    const auto start = std::chrono::steady_clock::now();
    const inspect::NvrtcResult result = nvrtc.compile(source, name, arch);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const auto lines = static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n'));
    for (const inspect::KernelResources& k : result.kernels) {
      std::snprintf(line, sizeof line,
                    "  %s: %d registers, spills %d/%d bytes (store/load), stack %d bytes, static shared %d bytes, "
                    "compiled in %.0f ms (%zu lines)\n",
                    k.name.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes, k.stack_bytes,
                    k.static_shared_bytes, ms, lines);
      out += line;
    }
    if (i >= model_rows.size() || !model_rows[i] || result.kernels.size() != 1 || !spills(result.kernels[0])) continue;
    const std::size_t tolerated = plan::tolerated_spill_bytes(model_rows[i]->spec, limits);
    auto too_many = [&](const inspect::KernelResources& k) {
      return k.stack_bytes > static_cast<int>(tolerated) || k.spill_store_bytes > static_cast<int>(tolerated);
    };
    if (!too_many(result.kernels[0])) {
      std::snprintf(line, sizeof line, "    kept: the runtime tolerates %zu spilled bytes a thread at these groups\n",
                    tolerated);
      out += line;
      continue;
    }
    // The runtime's choice (plan::choose_relaunch), each candidate compiled
    // as it asks.
    auto bytes_of = [](const inspect::KernelResources& k) {
      return static_cast<std::size_t>(std::max(k.spill_store_bytes, k.stack_bytes));
    };
    const std::vector<plan::KernelSpec> candidates = plan::relaunch_candidates(model_rows[i]->spec, limits);
    std::map<std::size_t, inspect::KernelResources> compiled;
    const std::optional<std::size_t> chosen =
        plan::choose_relaunch(candidates, bytes_of(result.kernels[0]), tolerated, [&](std::size_t c) {
          const plan::KernelSpec& other = candidates[c];
          const inspect::NvrtcResult r =
              nvrtc.compile(inspect::pass_source(other, inspect::DialectKind::Cuda), other.name(), arch);
          if (r.kernels.size() != 1) return std::numeric_limits<std::size_t>::max();
          compiled[c] = r.kernels[0];
          return bytes_of(r.kernels[0]);
        });
    if (!chosen) {
      out += "    no other launch spills less (the runtime keeps this one)\n";
      continue;
    }
    const plan::KernelSpec& other = candidates[*chosen];
    const inspect::KernelResources& k = compiled.at(*chosen);
    std::snprintf(line, sizeof line,
                  "    relaunched as %s: %d registers, spills %d bytes (%d threads, %d points each, %d groups a "
                  "unit)%s\n",
                  other.name().c_str(), k.registers, k.spill_store_bytes, other.threads_per_transform,
                  other.points_per_thread(), other.min_groups_per_unit,
                  too_many(k) ? ", the least spill of the launches tried" : "");
    out += line;
  }
  return out;
}

// A one-pass row's launch from the model beside the others the runtime
// may take (plan/launch_alternatives.hpp): threads, points a thread and
// the points its busiest thread runs through all stages.
std::string launches(const plan::PlanTree& tree, const plan::DeviceLimits& limits) {
  std::string out;
  char line[160];
  auto text = [&](const plan::KernelSpec& s) {
    std::snprintf(line, sizeof line, "%d threads: %d points a thread, %lld through its stages", s.threads_per_transform,
                  s.points_per_thread(), static_cast<long long>(plan::busiest_thread_points(s)));
    return std::string(line);
  };
  for (std::size_t i = 0; i < tree.passes.size(); ++i) {
    const plan::Pass& pass = tree.passes[i];
    if (pass.launch_from != "model") continue;
    const std::vector<plan::KernelSpec> others = plan::launch_alternatives(pass.spec, limits);
    if (others.empty()) continue;
    out += "  pass " + std::to_string(i) + " launches: the model's " + text(pass.spec) + "; others";
    for (std::size_t k = 0; k < others.size(); ++k) out += (k ? "; " : " ") + text(others[k]);
    out += "\n";
  }
  return out;
}

// A long column pass's registers (plan/row_threads.hpp, issue 39): what its
// group leaves a thread against what its points need, the rule that takes
// 32 points a thread in fewer threads where they do not fit.
std::string column_registers(const plan::PlanTree& tree, const plan::DeviceLimits& limits) {
  std::string out;
  if (!limits.is_gpu || limits.registers_per_unit <= 0) return out;
  char line[200];
  for (std::size_t i = 0; i < tree.passes.size(); ++i) {
    const plan::KernelSpec& s = tree.passes[i].spec;
    if (s.mapping != plan::Mapping::ColumnMajor || s.length < limits.long_strided_length || s.plane()) continue;
    const int left = plan::column_registers_left(s, limits.registers_per_unit),
              needed = plan::column_registers_needed(s);
    std::snprintf(line, sizeof line,
                  "  pass %zu registers: %d columns x %d threads leave %d a thread; %d points a thread need about "
                  "%d (%s)\n",
                  i, s.transforms_per_group, s.threads_per_transform, left, s.points_per_thread(), needed,
                  needed <= left ? "fit" : "more than the group leaves: the compiler may spill");
    out += line;
  }
  return out;
}

// The table a plan for `limits` reads: --tuning FILE or off; by default the
// device's (auto limits), or for --limits hopper the table shipped for the
// H100, so a plan printed on any machine shows what an H100 runs.
std::shared_ptr<const plan::TuningTable> tuning_for(const PlanCommandOptions& o, bool hopper) {
  const std::string option = tuning_option(o.tuning);
  if (option == "off") return nullptr;
  if (!option.empty()) return std::make_shared<plan::TuningTable>(plan::parse_tuning(option, o.tuning));
  if (hopper) {
    for (const plan::TuningTable& t : detail::shipped_tuning_tables())
      if (t.device.find("H100") != std::string::npos && t.version == version())
        return std::make_shared<plan::TuningTable>(t);
    return nullptr;
  }
  if (o.limits == "auto") return detail::tuning_for(o.device.open().info());
  return nullptr;
}

plan::DeviceLimits limits_for(const PlanCommandOptions& o, inspect::DialectKind dialect) {
  // The CUDA dialect plans for Hopper, as the CUDA backend does there.
  if (o.limits == "auto" && dialect == inspect::DialectKind::Cuda)
    return plan::limits_for(plan::named_device("hopper"));
  if (o.limits != "auto") return plan::limits_for(plan::named_device(o.limits));
  // (The device held while its info is read: info() is a reference into it.)
  const Device device = o.device.open();
  return plan::limits_for(device.info());
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
    command->add_option("--limits", o->limits,
                        "plan for: auto (the device's), cpu, gpu (48 KiB local) or hopper (227 KiB)");
    if (gen) command->add_option("--dialect", o->dialect, "opencl or cuda");
    if (!gen)
      command->add_option("--nvrtc", o->nvrtc,
                          "also compile each CUDA kernel with NVRTC for this architecture (e.g. sm_90; no GPU needed) "
                          "and print its registers and spills");
    command->add_option("--tuning", o->tuning,
                        "the tuning table to plan with: device (default: the device's; with --limits hopper the one "
                        "shipped for the H100), off (the model alone) or FILE (a table bfly tune wrote)");
    actions.emplace_back(command, [o, gen] {
      const inspect::DialectKind dialect = inspect::parse_dialect(o->dialect);
      // As the device plans: the override (BFLY_LIMITS) applies.
      plan::DeviceLimits limits =
          plan::with_override(limits_for(*o, dialect), plan::override_text(o->problem.plan_options()));
      limits.tuning =
          tuning_for(*o, o->limits == "hopper" || (o->limits == "auto" && dialect == inspect::DialectKind::Cuda));
      if (o->problem.problem().kind == Kind::R2R) {
        // A DCT or DST: its stages, each with its complex FFT's plan; in
        // half storage, the fp32 plan's, converting as the runtime does
        // (plan/ends.hpp: in the fused passes, else apart).
        Problem p = o->problem.problem();
        const Storage storage = p.storage;
        p.storage = Storage::Native;
        std::optional<plan::PlanTree> fused = plan::fused_r2r_plan(p, limits, o->problem.plan_options());
        std::string text = plan::print_r2r(p, limits, o->problem.plan_options());
        if (storage != Storage::Native) {
          plan::PlanTree converted;
          if (fused)
            converted = *fused;
          else
            converted.problem = p;
          plan::fuse_storage(converted, storage);
          converted.problem.storage = storage;
          if (fused) text = converted.print();
          if (fused) fused = converted;
          text += plan::storage_note(converted);
        }
        if (!gen && !o->nvrtc.empty()) {
          // NVRTC's statistics of the fused passes' kernels, else of the
          // stages' gather and twiddle (one program) and their FFTs'.
          if (fused) {
            text += resources(*fused, o->nvrtc, limits);
          } else {
            for (const auto& [name, source] : inspect::r2r_kernels(p, inspect::DialectKind::Cuda))
              for (const inspect::KernelResources& k :
                   inspect::Nvrtc::instance().compile(source, name, o->nvrtc).kernels)
                text += "  " + k.name + ": " + std::to_string(k.registers) + " registers, spills " +
                        std::to_string(k.spill_store_bytes) + " bytes\n";
            for (const plan::R2RStage& s : plan::r2r_stages(p))
              text += resources(plan::make_plan(s.fft, limits), o->nvrtc, limits);
          }
        }
        if (gen) {
          // The fused passes' kernels, else the stages' gather, twiddle and FFTs.
          text = fused ? inspect::program_source(distinct_specs(*fused), dialect) : "";
          for (const auto& kernel :
               fused ? decltype(inspect::r2r_kernels(p, dialect)){} : inspect::r2r_kernels(p, dialect))
            text += kernel.second;
          for (const plan::R2RStage& s : fused ? std::vector<plan::R2RStage>{} : plan::r2r_stages(p))
            text += inspect::program_source(distinct_specs(plan::make_plan(s.fft, limits)), dialect);
        }
        std::fputs(text.c_str(), stdout);
        return 0;
      }
      const plan::PlanTree tree = plan::make_plan(o->problem.problem(), limits, o->problem.plan_options());
      if (!gen) {
        // Compiled first, so an error prints nothing else.
        const std::string compiled = o->nvrtc.empty() ? "" : resources(tree, o->nvrtc, limits);
        std::fputs((tree.print() + plan::storage_note(tree) + launches(tree, limits) + column_registers(tree, limits) +
                    compiled)
                       .c_str(),
                   stdout);
        return 0;
      }
      std::fputs(inspect::program_source(distinct_specs(tree), dialect).c_str(), stdout);
      return 0;
    });
  }
}

}  // namespace bfly::cli
