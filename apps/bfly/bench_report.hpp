// Printing and saving benchmark results: a table for people, CSV or JSON
// for plots and records.
#pragma once

#include <string>
#include <vector>

#include "bench_runner.hpp"

namespace bfly::cli {

// The table is printed a row at a time as cases finish: header (from the
// first result's peers), rows, footer.
std::string table_header(const CaseResult& first);
std::string table_row(const CaseResult& result);
// Names the reference and limits of the example case's precision, and how
// the columns of a run of its kind are counted.
std::string table_footer(const BenchCase& example);
// One line per peer: the geometric mean of its speed-up over the cases both
// ran, the worst case and how many cases it covers (empty: no peer ran).
std::string table_summary(const std::vector<CaseResult>& results);
// Format from the extension: .csv or .json. Written atomically. `source`
// (JSON only): where the cases came from, e.g. "suite random, seed 2026",
// so that a record says how to draw them again.
void save(const std::string& path, const std::vector<CaseResult>& results, const DeviceInfo& device,
          const std::string& source = "");

}  // namespace bfly::cli
