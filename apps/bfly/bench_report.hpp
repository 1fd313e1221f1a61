// Printing and saving benchmark results: a table for people, CSV or JSON
// for plots and records.
#pragma once

#include <string>
#include <vector>

#include "bench_runner.hpp"

namespace bfly::cli {

std::string table(const std::vector<CaseResult>& results);
// Format from the extension: .csv or .json. Written atomically.
void save(const std::string& path, const std::vector<CaseResult>& results, const DeviceInfo& device);

}  // namespace bfly::cli
