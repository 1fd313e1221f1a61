#include "plan/tuning.hpp"

#include <algorithm>
#include <cmath>
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

std::vector<const TuningEntry*> TuningTable::neighbours(Precision precision, std::int64_t length) const {
  std::vector<std::pair<double, const TuningEntry*>> found;
  for (const TuningEntry& e : entries) {
    if (e.precision != precision || !e.passes.empty() || e.length <= 1 || e.length == length) continue;
    const double distance = std::abs(std::log2(static_cast<double>(e.length) / static_cast<double>(length)));
    if (distance <= 1.0 + 1e-9) found.push_back({distance, &e});
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second->length < b.second->length;
  });
  std::vector<const TuningEntry*> out;
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

const TuningEntry* TuningTable::nearest(Precision precision, std::int64_t length) const {
  const std::vector<const TuningEntry*> near = neighbours(precision, length);
  return near.empty() ? nullptr : near.front();
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

int int_field(const json& j, const char* name, int fallback, const std::string& source) {
  if (!j.contains(name)) return fallback;
  if (!j[name].is_number_integer()) bad(source, std::string("field '") + name + "' is not an integer");
  return j[name].get<int>();
}

}  // namespace

TuningTable parse_tuning(const std::string& text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    bad(source, std::string("not JSON (") + e.what() + ")");
  }
  if (!j.is_object() || j.value("format", "") != "bfly-tuning-1")
    bad(source, "expected an object with \"format\": \"bfly-tuning-1\"");
  TuningTable table;
  table.source = source;
  try {
    table.device = j.at("device").get<std::string>();
    table.compute_capability = j.value("compute_capability", "");
    table.version = j.at("bfly_version").get<std::string>();
    table.note = j.value("note", "");
    for (const json& e : j.at("entries")) {
      TuningEntry entry;
      const std::string precision = e.at("precision").get<std::string>();
      if (precision != "single" && precision != "double") bad(source, "precision '" + precision + "' (expected single or double)");
      entry.precision = precision == "single" ? Precision::Single : Precision::Double;
      entry.length = e.at("length").get<std::int64_t>();
      if (entry.length < 1) bad(source, "length " + std::to_string(entry.length) + " (expected >= 1)");
      if (e.contains("passes")) entry.passes = e["passes"].get<std::vector<std::int64_t>>();
      LaunchChoice& l = entry.launch;
      l.threads = int_field(e, "threads", 0, source);
      l.group_threads = int_field(e, "group_threads", 0, source);
      l.padding = int_field(e, "padding", -1, source);
      l.halves = int_field(e, "halves", -1, source);
      l.two_level = int_field(e, "two_level", -1, source);
      l.occupancy = int_field(e, "occupancy", -1, source);
      l.staged = int_field(e, "staged", -1, source);
      if (e.contains("radices")) l.radices = e["radices"].get<std::vector<int>>();
      entry.ms = e.value("ms", 0.0);
      entry.model_ms = e.value("model_ms", 0.0);
      entry.variants = e.value("variants", 0);
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
  throw Error(ErrorCode::Unsupported, "tuning table " + source + ": bfly was built without nlohmann-json, which reads tables");
}

std::string to_json(const TuningTable&) {
  throw Error(ErrorCode::Unsupported, "bfly was built without nlohmann-json, which writes tuning tables");
}

#endif

}  // namespace bfly::plan
