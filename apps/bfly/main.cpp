// bfly: the command-line tool. Every failure becomes one line on stderr and a
// non-zero exit, a failed write to stdout included; the commands write their
// outputs through io::OutputFile, and an interrupt (SIGINT, SIGTERM, SIGHUP)
// removes the temporary being written.
#include "bfly/bfly.hpp"
#include "commands.hpp"
#include "io/output_file.hpp"
#include "io/temporary_file.hpp"

int main(int argc, char** argv) {
  bfly::io::remove_temporaries_on_signals();
  bfly::io::check_stdout_at_exit();
  CLI::App app;
  std::vector<std::pair<CLI::App*, bfly::cli::Action>> actions;
  bfly::cli::add_commands(app, actions);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return bfly::cli::parse_error_status(app, e);
  }
  return bfly::cli::run_chosen(actions);
}
