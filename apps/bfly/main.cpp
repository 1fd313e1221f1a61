// bfly: the command-line tool. Every failure becomes one line on stderr and a
// non-zero exit; output files are written atomically by the commands, and
// an interrupt (SIGINT, SIGTERM, SIGHUP) removes the temporary being written.
#include <cstdio>
#include <iostream>

#include "bfly/bfly.hpp"
#include "commands.hpp"
#include "io/temporary_file.hpp"

int main(int argc, char** argv) {
  bfly::io::remove_temporaries_on_signals();
  CLI::App app{"bfly: FFTs generated at run time for GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("bfly ") + bfly::version());
  std::vector<std::pair<CLI::App*, bfly::cli::Action>> actions;
  bfly::cli::add_transform_commands(app, actions);
  bfly::cli::add_real_transform_commands(app, actions);
  bfly::cli::add_info_command(app, actions);
  bfly::cli::add_plan_commands(app, actions);
  bfly::cli::add_bench_commands(app, actions);
  bfly::cli::add_tune_command(app, actions);
  bfly::cli::add_cache_commands(app, actions);
  bfly::cli::add_convolve_command(app, actions);
  bfly::cli::add_polymul_command(app, actions);
  bfly::cli::add_filter_command(app, actions);
  bfly::cli::add_bigmul_command(app, actions);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& [command, action] : actions)
      if (command->parsed()) return action();
  } catch (const bfly::Error& e) {
    std::cerr << "bfly: error: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "bfly: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
