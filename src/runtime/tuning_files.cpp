#include "runtime/tuning_files.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/kernel_cache.hpp"
#include "io/output_file.hpp"

namespace bfly::detail {

// Generated from tuning/*.json (cmake/embed_tuning.cmake): (name, JSON text).
const std::vector<std::pair<std::string, std::string>>& shipped_tuning_text();

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot read tuning table '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// "NVIDIA H100 80GB HBM3", "9.0" -> "nvidia-h100-80gb-hbm3-sm90"
std::string slug(const DeviceInfo& info) {
  std::string out;
  for (char c : info.name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  std::string capability;
  for (char c : info.compute_capability)
    if (std::isdigit(static_cast<unsigned char>(c))) capability += c;
  return out + (capability.empty() ? "" : "-sm" + capability);
}

}  // namespace

std::vector<plan::TuningTable> shipped_tuning_tables() {
  std::vector<plan::TuningTable> tables;
  if (!plan::tuning_tables_supported()) return tables;
  for (const auto& [name, text] : shipped_tuning_text()) tables.push_back(plan::parse_tuning(text, name));
  return tables;
}

std::string user_tuning_path(const DeviceInfo& info) {
  const KernelCache cache;
  if (!cache.enabled()) return "";
  return cache.directory() + "/tuning/" + slug(info) + ".json";
}

std::shared_ptr<const plan::TuningTable> tuning_for(const DeviceInfo& info) {
  const char* env = std::getenv("BFLY_TUNING");
  if (env && std::string(env) == "off") return nullptr;
  if (env && *env) return std::make_shared<plan::TuningTable>(plan::parse_tuning(read_file(env), env));
  if (!plan::tuning_tables_supported()) return nullptr;
  auto table = std::make_shared<plan::TuningTable>();
  const std::vector<plan::TuningTable> shipped = shipped_tuning_tables();
  for (const plan::TuningTable& t : shipped)
    if (t.matches(info.name, info.compute_capability)) table->merge(t);
  // None measured on this device: the first shipped table (in file-name
  // order) of its compute capability, whose multiprocessors are the same
  // (an H800 takes the H100's; the H200 has its own since 2026-11-23). The launches it chose spend less of a
  // multiprocessor's time than the model's (1.15-1.44x on the H100 at 120, 1536, 3000, 4000, docs/PERF.md "tuning
  // tables"), which a device with more bandwidth a multiprocessor needs more: on an H200 (2026-11-23, the model alone)
  // those lengths ran at 0.66-0.88x cuFFT.
  if (table->entries.empty())
    for (const plan::TuningTable& t : shipped)
      if (t.same_architecture(info.compute_capability)) {
        table->merge(t);
        break;
      }
  const std::string path = user_tuning_path(info);
  if (!path.empty() && std::filesystem::exists(path)) {
    const plan::TuningTable user = plan::parse_tuning(read_file(path), path);
    // A table from another device or bfly version would mislead the planner.
    if (user.matches(info.name, info.compute_capability)) table->merge(user);
  }
  if (table->entries.empty()) return nullptr;
  return table;
}

std::shared_ptr<const plan::TuningTable> tuning_from_options(const std::string& option, const DeviceInfo& info) {
  if (option.empty()) return tuning_for(info);
  if (option == "off") return nullptr;
  return std::make_shared<plan::TuningTable>(plan::parse_tuning(option, "PlanOptions::tuning"));
}

void write_tuning(const plan::TuningTable& table, const std::string& path) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  io::write_text(path, plan::to_json(table));
}

}  // namespace bfly::detail
