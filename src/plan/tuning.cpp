#include "plan/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#ifdef BFLY_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

namespace bfly::plan {

std::string LaunchChoice::text() const {
  std::ostringstream out;
  auto field = [&](const char* name, int value) { out << (out.tellp() > 0 ? " " : "") << name << value; };
  if (threads > 0) field("T", threads);
  if (group_threads > 0) field("G", group_threads);
  if (padding >= 0) field("pad", padding);
  if (halves >= 0) field("half", halves);
  if (two_level >= 0) field("tw", two_level);
  if (occupancy >= 0) field("occ", occupancy);
  if (staged >= 0) field("stg", staged);
  if (!radices.empty()) {
    out << (out.tellp() > 0 ? " " : "") << "r";
    for (std::size_t i = 0; i < radices.size(); ++i) out << (i ? "x" : "") << radices[i];
  }
  const std::string text = out.str();
  return text.empty() ? "model" : text;
}

bool LaunchChoice::operator==(const LaunchChoice& o) const {
  return threads == o.threads && group_threads == o.group_threads && padding == o.padding && halves == o.halves &&
         two_level == o.two_level && occupancy == o.occupancy && staged == o.staged && radices == o.radices;
}

const TuningEntry* TuningTable::exact(Precision precision, std::int64_t length) const {
  for (const TuningEntry& e : entries)
    if (e.precision == precision && e.length == length) return &e;
  return nullptr;
}

void TuningTable::put(const TuningEntry& entry) {
  for (TuningEntry& e : entries)
    if (e.precision == entry.precision && e.length == entry.length) {
      e = entry;
      return;
    }
  entries.push_back(entry);
  std::sort(entries.begin(), entries.end(), [](const TuningEntry& a, const TuningEntry& b) {
    return a.precision != b.precision ? a.precision < b.precision : a.length < b.length;
  });
}

void TuningTable::merge(const TuningTable& other) {
  for (const TuningEntry& e : other.entries) put(e);
  source = source.empty() ? other.source : other.source.empty() ? source : source + " + " + other.source;
}

bool TuningTable::matches(const std::string& device_name, const std::string& capability) const {
  return device == device_name && compute_capability == capability && version == bfly::version();
}

bool TuningTable::same_architecture(const std::string& capability) const {
  return !capability.empty() && compute_capability == capability && version == bfly::version();
}

#ifdef BFLY_HAVE_JSON

bool tuning_tables_supported() { return true; }

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& source, const std::string& what) {
  throw Error(ErrorCode::InvalidArgument, "tuning table " + source + ": " + what);
}

// A JSON value for messages, shortened.
std::string shown(const json& value) {
  const std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

// An integer in [low, high]; anything else (a fraction, a string, a number
// out of range) is an error naming `what` and the value, never converted.
std::int64_t integer(const json& value, const std::string& what, std::int64_t low, std::int64_t high,
                     const std::string& source) {
  if (!value.is_number_integer()) bad(source, what + " " + shown(value) + " is not an integer");
  const bool in_range = value.is_number_unsigned()
                            ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high) &&
                                  (low <= 0 || value.get<std::uint64_t>() >= static_cast<std::uint64_t>(low))
                            : value.get<std::int64_t>() >= low && value.get<std::int64_t>() <= high;
  if (!in_range)
    bad(source,
        what + " " + shown(value) + " is out of range (" + std::to_string(low) + " to " + std::to_string(high) + ")");
  return value.get<std::int64_t>();
}

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// An optional launch field: `fallback` (its "unset" value) where absent.
int int_field(const json& entry, const char* name, int fallback, std::int64_t low, std::int64_t high,
              const std::string& source) {
  if (!entry.contains(name)) return fallback;
  return static_cast<int>(integer(entry[name], std::string("field '") + name + "'", low, high, source));
}

template <class T>
std::vector<T> integer_list(const json& value, const char* name, std::int64_t low, std::int64_t high,
                            const std::string& source) {
  if (!value.is_array()) bad(source, std::string("field '") + name + "' " + shown(value) + " is not a list");
  std::vector<T> out;
  for (const json& item : value)
    out.push_back(static_cast<T>(integer(item, std::string("an entry of '") + name + "'", low, high, source)));
  return out;
}

}  // namespace

TuningTable parse_tuning(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    bad(source, std::string("not JSON (") + e.what() + ")");
  }
  const auto format = j.is_object() ? j.find("format") : j.end();
  if (format == j.end() || !format->is_string() || format->get<std::string>() != "bfly-tuning-1")
    bad(source, "expected an object with \"format\": \"bfly-tuning-1\"");
  TuningTable table;
  table.source = source;
  try {
    table.device = j.at("device").get<std::string>();
    table.compute_capability = j.value("compute_capability", "");
    table.version = j.at("bfly_version").get<std::string>();
    table.note = j.value("note", "");
    const json& entries = j.at("entries");
    if (!entries.is_array()) bad(source, "'entries' " + shown(entries) + " is not a list");
    for (const json& e : entries) {
      if (!e.is_object()) bad(source, "entry " + shown(e) + " is not an object");
      TuningEntry entry;
      const std::string precision = e.at("precision").get<std::string>();
      if (precision != "single" && precision != "double")
        bad(source, "precision '" + precision + "' (expected single or double)");
      entry.precision = precision == "single" ? Precision::Single : Precision::Double;
      entry.length = integer(e.at("length"), "length", 1, kInt64Max, source);
      if (e.contains("passes")) entry.passes = integer_list<std::int64_t>(e["passes"], "passes", 1, kInt64Max, source);
      LaunchChoice& l = entry.launch;
      l.threads = int_field(e, "threads", 0, 0, kIntMax, source);
      l.group_threads = int_field(e, "group_threads", 0, 0, kIntMax, source);
      l.padding = int_field(e, "padding", -1, -1, 1, source);
      l.halves = int_field(e, "halves", -1, -1, 1, source);
      l.two_level = int_field(e, "two_level", -1, -1, 1, source);
      l.occupancy = int_field(e, "occupancy", -1, -1, kIntMax, source);
      l.staged = int_field(e, "staged", -1, -1, 2, source);
      if (e.contains("radices")) l.radices = integer_list<int>(e["radices"], "radices", 2, kIntMax, source);
      entry.ms = e.value("ms", 0.0);
      entry.model_ms = e.value("model_ms", 0.0);
      entry.variants = int_field(e, "variants", 0, 0, kIntMax, source);
      table.entries.push_back(entry);
    }
  } catch (const json::exception& e) {
    bad(source, std::string("malformed (") + e.what() + ")");
  }
  return table;
}

std::string to_json(const TuningTable& table) {
  json j;
  j["format"] = "bfly-tuning-1";
  j["device"] = table.device;
  j["compute_capability"] = table.compute_capability;
  j["bfly_version"] = table.version;
  if (!table.note.empty()) j["note"] = table.note;
  j["entries"] = json::array();
  for (const TuningEntry& e : table.entries) {
    json o;
    o["precision"] = e.precision == Precision::Single ? "single" : "double";
    o["length"] = e.length;
    if (!e.passes.empty()) o["passes"] = e.passes;
    const LaunchChoice& l = e.launch;
    if (l.threads > 0) o["threads"] = l.threads;
    if (l.group_threads > 0) o["group_threads"] = l.group_threads;
    if (l.padding >= 0) o["padding"] = l.padding;
    if (l.halves >= 0) o["halves"] = l.halves;
    if (l.two_level >= 0) o["two_level"] = l.two_level;
    if (l.occupancy >= 0) o["occupancy"] = l.occupancy;
    if (l.staged >= 0) o["staged"] = l.staged;
    if (!l.radices.empty()) o["radices"] = l.radices;
    if (e.ms > 0) o["ms"] = std::round(e.ms * 1e5) / 1e5;
    if (e.model_ms > 0) o["model_ms"] = std::round(e.model_ms * 1e5) / 1e5;
    if (e.variants > 0) o["variants"] = e.variants;
    j["entries"].push_back(o);
  }
  return j.dump(1) + "\n";
}

#else

bool tuning_tables_supported() { return false; }

TuningTable parse_tuning(const std::string&, const std::string& source) {
  throw Error(ErrorCode::Unsupported,
              "tuning table " + source + ": bfly was built without nlohmann-json, which reads tables");
}

std::string to_json(const TuningTable&) {
  throw Error(ErrorCode::Unsupported, "bfly was built without nlohmann-json, which writes tuning tables");
}

#endif

}  // namespace bfly::plan
