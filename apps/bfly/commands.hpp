// Each subcommand registers itself on the app and returns the action to run
// when it was chosen.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <memory>

#include "bfly/bfly.hpp"

namespace bfly::cli {

using Action = std::function<int()>;

void add_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_real_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_r2r_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_info_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_plan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_bench_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_tune_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_cache_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_convolve_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_polymul_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_filter_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
void add_bigmul_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);

// The whole command line of `bfly`: its description, --version and every
// subcommand above (main.cpp; fuzz/fuzz_cli_args.cpp parses with the same app).
void add_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions);
// What add_commands gives every command: help wrapped to 100 columns
// (usage.cpp).
std::shared_ptr<CLI::FormatterBase> help_formatter();
// The exit status for a parse that threw `e`: 0 after --help or --version
// printed on `out`; else 2, the usual status of a usage error, after one line
// `bfly: error: ...` on `err` naming the command and the bad word or value
// (with the closest command or option by edit distance, where one is close).
int parse_error_status(const CLI::App& app, const CLI::ParseError& e, std::ostream& out = std::cout,
                       std::ostream& err = std::cerr);
// Runs the action of the subcommand the parse chose: its exit status, or 1
// after one line on stderr for an error it throws.
int run_chosen(const std::vector<std::pair<CLI::App*, Action>>& actions);

}  // namespace bfly::cli
