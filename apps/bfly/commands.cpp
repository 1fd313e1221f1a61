#include "commands.hpp"

#include <iostream>
#include <new>

namespace bfly::cli {

void add_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  app.formatter(help_formatter());  // before the commands, which inherit it
  app.description("bfly: FFTs generated at run time for GPUs and CPUs");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("bfly ") + bfly::version());
  add_transform_commands(app, actions);
  add_real_transform_commands(app, actions);
  add_r2r_commands(app, actions);
  add_info_command(app, actions);
  add_plan_commands(app, actions);
  add_bench_commands(app, actions);
  add_tune_command(app, actions);
  add_cache_commands(app, actions);
  add_convolve_command(app, actions);
  add_polymul_command(app, actions);
  add_filter_command(app, actions);
  add_bigmul_command(app, actions);
}

int run_chosen(const std::vector<std::pair<CLI::App*, Action>>& actions) {
  try {
    for (const auto& [command, action] : actions)
      if (command->parsed()) return action();
  } catch (const bfly::Error& e) {
    std::cerr << "bfly: error: " << e.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    // What the commands' own size checks did not foresee.
    std::cerr << "bfly: error: out of host memory (an allocation failed)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "bfly: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace bfly::cli
