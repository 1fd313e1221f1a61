// Options shared by the subcommands: the problem (as a token or as
// --shape/--batch/--inverse/--precision) and the device.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "bfly/bfly.hpp"

namespace bfly::cli {

struct ProblemOptions {
  std::string token;
  std::string shape;
  std::int64_t batch = 1;
  bool inverse = false;
  bool in_place = false;
  std::string precision = "single";
  std::string norm = "none";

  void add_to(CLI::App& app, bool with_token = true);
  // The problem the options describe; throws Error naming a bad value.
  Problem problem() const;
};

struct DeviceOptions {
  std::string spec;  // empty: BFLY_DEVICE, else auto
  void add_to(CLI::App& app);
  Device open() const { return Device::open(spec); }
};

}  // namespace bfly::cli
