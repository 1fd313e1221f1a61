// Options shared by the subcommands: the problem (as a token or as
// --kind/--shape/--axes/--batch/--inverse/--precision), the planner strategy
// and the device.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::cli {

// Whether a path (or any text) ends with `tail`: output formats by extension.
inline bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// "0,-1" -> {0, -1}; throws Error naming the bad item. Empty text: no axes.
std::vector<int> parse_axes(const std::string& text);

// What --kind names: c2c, r2c, c2r, or a DCT or DST of type 1..4 ("dct2",
// "dst4": Kind::R2R with its family and type, spelt as in a problem token).
struct KindChoice {
  Kind kind = Kind::C2C;
  Family family = Family::DCT;  // Kind::R2R only
  int type = 2;                 // Kind::R2R only
  std::string text() const;     // "c2c", "r2c", "c2r", "dct2", ...
};
// Throws Error naming the text.
KindChoice parse_kind(const std::string& text);

struct ProblemOptions {
  std::string token;
  std::string kind;  // c2c, r2c, c2r, dct1..dct4 or dst1..dst4; empty: c2c (a token carries its own)
  std::string shape;
  std::string axes;  // "A[,B,...]"; empty: every axis
  std::int64_t batch = 1;
  bool inverse = false;
  bool in_place = false;
  std::string precision = "single";
  std::string norm = "none";
  std::string strategy = "auto";

  void add_to(CLI::App& app, bool with_token = true);
  // The problem the options describe; throws Error naming a bad value.
  Problem problem() const;
  // The planner options (--strategy); throws Error naming a bad value.
  PlanOptions plan_options() const;
};

// --tuning as PlanOptions::tuning: "device" or "" (the device's tables),
// "off", or a file whose text is returned (throws Error naming an
// unreadable file).
std::string tuning_option(const std::string& text);

struct DeviceOptions {
  std::string spec;  // empty: BFLY_DEVICE, else auto
  void add_to(CLI::App& app);
  // Opened on the first call and kept: the command's memory check
  // (memory_needs.hpp) and its work share one device.
  Device open() const {
    if (!opened_) opened_ = Device::open(spec);
    return *opened_;
  }

 private:
  mutable std::optional<Device> opened_;
};

}  // namespace bfly::cli
