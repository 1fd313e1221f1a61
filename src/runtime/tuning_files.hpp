// Where tuning tables come from: the ones shipped in the repository
// (compiled into the library from tuning/*.json), the user's own written by
// `bfly tune` under the cache directory, and $BFLY_TUNING.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/tuning.hpp"

namespace bfly::detail {

// Every shipped table, parsed (none when built without nlohmann-json).
std::vector<plan::TuningTable> shipped_tuning_tables();

// The user's table for a device: <cache dir>/tuning/<device>-<capability>.json
// (empty when there is no cache directory).
std::string user_tuning_path(const DeviceInfo& info);

// The table a device plans with: the shipped one whose device, compute
// capability and bfly version match, with the user's file for the device
// over it; or the file named by $BFLY_TUNING alone (any device: the user
// asked for it), or none with BFLY_TUNING=off. Null when nothing applies.
// Throws Error naming the file when one it must read is unreadable or
// malformed.
std::shared_ptr<const plan::TuningTable> tuning_for(const DeviceInfo& info);

// The table a plan's options ask for (PlanOptions::tuning): the device's
// (empty), none ("off"), or JSON text.
std::shared_ptr<const plan::TuningTable> tuning_from_options(const std::string& option, const DeviceInfo& info);

// Writes `table` to `path` as the CLI writes any output (io/output_file.hpp).
void write_tuning(const plan::TuningTable& table, const std::string& path);

}  // namespace bfly::detail
