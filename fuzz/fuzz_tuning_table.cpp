// libFuzzer target: tuning tables (bfly::plan::parse_tuning) from any text.
// Properties: only bfly::Error escapes (nlohmann-json's exceptions and
// out-of-range numbers included); a table read, written with to_json and read
// again, is the same table (the timings, which to_json rounds, aside); its
// integer fields are the integers the text holds (nothing truncated or
// wrapped to fit); the planner's look-ups over it run.
#if __has_include(<nlohmann/json.hpp>)
#include <nlohmann/json.hpp>
#define BFLY_FUZZ_HAVE_JSON 1
#endif

#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"
#include "plan/tuning.hpp"

namespace {

using bfly::plan::TuningEntry;
using bfly::plan::TuningTable;

bool same_entries(const TuningTable& a, const TuningTable& b) {
  if (a.entries.size() != b.entries.size()) return false;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const TuningEntry &x = a.entries[i], &y = b.entries[i];
    if (x.precision != y.precision || x.length != y.length || x.passes != y.passes || !(x.launch == y.launch) ||
        x.variants != y.variants)
      return false;
  }
  return true;
}

// Each entry's integers as the JSON text has them, against the table read.
void check_integers(const std::string& text, const TuningTable& table) {
#ifdef BFLY_FUZZ_HAVE_JSON
  const nlohmann::json j = nlohmann::json::parse(text);
  const nlohmann::json& entries = j.at("entries");
  if (entries.size() != table.entries.size()) bfly::fuzz::fail("entries were dropped or added");
  for (std::size_t i = 0; i < table.entries.size(); ++i) {
    const nlohmann::json& e = entries[i];
    const TuningEntry& t = table.entries[i];
    const bfly::plan::LaunchChoice& l = t.launch;
    const std::pair<const char*, std::int64_t> fields[] = {
        {"length", t.length},       {"threads", l.threads}, {"group_threads", l.group_threads},
        {"padding", l.padding},     {"halves", l.halves},   {"two_level", l.two_level},
        {"occupancy", l.occupancy}, {"staged", l.staged},   {"variants", t.variants},
    };
    auto same = [](const nlohmann::json& v, std::int64_t value) {
      if (!v.is_number_integer()) return false;
      if (v.is_number_unsigned()) return value >= 0 && v.get<std::uint64_t>() == static_cast<std::uint64_t>(value);
      return v.get<std::int64_t>() == value;
    };
    for (const auto& [name, value] : fields)
      if (e.contains(name) && !same(e[name], value))
        bfly::fuzz::fail(std::string("field '") + name + "' " + e[name].dump() + " was read as " +
                         std::to_string(value));
    if (e.contains("radices") && e["radices"] != nlohmann::json(l.radices)) bfly::fuzz::fail("radices changed");
    if (e.contains("passes") && e["passes"] != nlohmann::json(t.passes)) bfly::fuzz::fail("passes changed");
  }
#else
  (void)text;
  (void)table;
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!bfly::plan::tuning_tables_supported()) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  TuningTable table;
  try {
    table = bfly::plan::parse_tuning(text, "fuzz.json");
  } catch (const bfly::Error&) {
    return 0;
  }
  check_integers(text, table);
  std::string json;
  TuningTable again;
  try {
    json = bfly::plan::to_json(table);
    again = bfly::plan::parse_tuning(json, "written.json");
  } catch (const bfly::Error& e) {
    bfly::fuzz::fail(std::string("a table read does not survive to_json: ") + e.what());
  }
  if (again.device != table.device || again.compute_capability != table.compute_capability ||
      again.version != table.version || again.note != table.note || !same_entries(again, table))
    bfly::fuzz::fail("to_json + parse_tuning changed the table:\n" + json);
  for (const TuningEntry& e : table.entries) {
    (void)table.exact(e.precision, e.length);
    (void)e.launch.text();
  }
  TuningTable merged = table;
  merged.merge(again);
  return 0;
}
