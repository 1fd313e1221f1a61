// bfly info: the devices each backend offers, and why a backend offers none.
#include <cstdio>

#include "commands.hpp"
#include "runtime/tuning_files.hpp"

namespace bfly::cli {

void add_info_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  CLI::App* command = app.add_subcommand("info", "list devices and backends");
  actions.emplace_back(command, [] {
    std::printf("bfly %s\n", version());
    for (const BackendStatus& backend : Device::backends()) {
      if (backend.devices == 0)
        std::printf("%s: no devices: %s\n", backend.backend.c_str(), backend.reason.c_str());
      else
        std::printf("%s: %zu device%s\n", backend.backend.c_str(), backend.devices, backend.devices == 1 ? "" : "s");
    }
    for (const DeviceInfo& d : Device::list()) {
      std::printf("  %-12s %s (%s, %s)\n", d.spec.c_str(), d.name.c_str(),
                  d.is_gpu   ? "GPU"
                  : d.is_cpu ? "CPU"
                             : "other",
                  d.vendor.c_str());
      std::printf("               driver %s\n", d.driver.c_str());
      std::printf("               %zu compute units, %.1f GiB global, %zu KiB local, groups up to %zu\n",
                  d.compute_units, static_cast<double>(d.global_memory_bytes) / (1 << 30), d.local_memory_bytes / 1024,
                  d.max_group_size);
      // The tuning table its plans read (bfly tune), or why none.
      try {
        const auto table = detail::tuning_for(d);
        if (table)
          std::printf("               tuning %s (%zu entries)\n", table->source.c_str(), table->entries.size());
        else
          std::printf("               tuning: none (the planner's model; bfly tune writes %s)\n",
                      detail::user_tuning_path(d).c_str());
      } catch (const Error& e) {
        std::printf("               tuning: unreadable: %s\n", e.what());
      }
    }
    return 0;
  });
}

}  // namespace bfly::cli
