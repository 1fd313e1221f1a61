// NVRTC loaded with dlopen; see nvrtc_compiler.hpp. No CUDA header is used:
// the few entry points are declared here with NVRTC's C ABI (nvrtcResult is
// an int-sized enum, nvrtcProgram an opaque pointer).
#include "backends/cuda/nvrtc_compiler.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <type_traits>

#include "bfly/bfly.hpp"

namespace bfly {
namespace cuda {

namespace {

using nvrtcResult = int;  // enum nvrtcResult; NVRTC_SUCCESS == 0
using nvrtcProgram = struct _nvrtcProgram*;
constexpr nvrtcResult kNvrtcSuccess = 0;
constexpr nvrtcResult kNvrtcErrorInvalidOption = 5;
constexpr nvrtcResult kNvrtcErrorCompilation = 6;

using PfnGetErrorString = const char* (*)(nvrtcResult);
using PfnVersion = nvrtcResult (*)(int*, int*);
using PfnCreateProgram = nvrtcResult (*)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                         const char* const*);
using PfnDestroyProgram = nvrtcResult (*)(nvrtcProgram*);
using PfnCompileProgram = nvrtcResult (*)(nvrtcProgram, int, const char* const*);
using PfnGetProgramLogSize = nvrtcResult (*)(nvrtcProgram, size_t*);
using PfnGetProgramLog = nvrtcResult (*)(nvrtcProgram, char*);
using PfnGetCUBINSize = nvrtcResult (*)(nvrtcProgram, size_t*);
using PfnGetCUBIN = nvrtcResult (*)(nvrtcProgram, char*);

}  // namespace

struct Nvrtc::Api {
  void* handle = nullptr;
  PfnGetErrorString getErrorString = nullptr;
  PfnVersion version = nullptr;
  PfnCreateProgram createProgram = nullptr;
  PfnDestroyProgram destroyProgram = nullptr;
  PfnCompileProgram compileProgram = nullptr;
  PfnGetProgramLogSize getProgramLogSize = nullptr;
  PfnGetProgramLog getProgramLog = nullptr;
  PfnGetCUBINSize getCUBINSize = nullptr;
  PfnGetCUBIN getCUBIN = nullptr;

  ~Api() {
    // The library stays loaded: NVRTC keeps thread-local state and may be in
    // use by other threads at exit; unloading it buys nothing.
  }

  std::string error_string(nvrtcResult r) const {
    const char* s = getErrorString ? getErrorString(r) : nullptr;
    return s ? std::string(s) : "nvrtcResult " + std::to_string(r);
  }
};

namespace {

// Tries to dlopen one candidate and resolve every symbol. On success returns
// the Api; on failure appends the reason to `why`.
std::unique_ptr<Nvrtc::Api> try_load(const std::string& path, std::string& why) {
  dlerror();
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();  // names the path already
    why += "\n  " + (e ? std::string(e) : path + ": dlopen failed");
    return nullptr;
  }
  auto api = std::make_unique<Nvrtc::Api>();
  api->handle = h;
  bool ok = true;
  auto sym = [&](const char* name, auto& fn) {
    void* p = dlsym(h, name);
    if (!p) {
      why += "\n  " + path + ": missing symbol " + name;
      ok = false;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  sym("nvrtcGetErrorString", api->getErrorString);
  sym("nvrtcVersion", api->version);
  sym("nvrtcCreateProgram", api->createProgram);
  sym("nvrtcDestroyProgram", api->destroyProgram);
  sym("nvrtcCompileProgram", api->compileProgram);
  sym("nvrtcGetProgramLogSize", api->getProgramLogSize);
  sym("nvrtcGetProgramLog", api->getProgramLog);
  sym("nvrtcGetCUBINSize", api->getCUBINSize);  // NVRTC >= 11.1
  sym("nvrtcGetCUBIN", api->getCUBIN);
  if (!ok) {
    dlclose(h);
    return nullptr;
  }
  return api;
}

std::vector<std::string> candidate_paths() {
  std::vector<std::string> out;
  if (const char* p = std::getenv("BFLY_NVRTC_LIBRARY"); p && *p) out.push_back(p);
  const char* names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  for (const char* n : names) out.push_back(n);
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* p = std::getenv(var); p && *p) dirs.push_back(std::string(p) + "/lib64");
  }
  dirs.push_back("/usr/local/cuda/lib64");
  for (const auto& d : dirs)
    for (const char* n : names) {
      std::string p = d + "/" + n;
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
  return out;
}

// ---- ptxas log -------------------------------------------------------------

// Reads the integer immediately before `suffix` in `line` ("... 32 registers").
bool int_before(const std::string& line, const char* suffix, int& out) {
  size_t pos = line.find(suffix);
  if (pos == std::string::npos) return false;
  size_t end = pos;
  while (end > 0 && line[end - 1] == ' ') --end;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
  if (begin == end) return false;
  out = std::atoi(line.substr(begin, end - begin).c_str());
  return true;
}

// Text between the first pair of single quotes after `key`, or "".
std::string quoted_after(const std::string& line, const char* key) {
  size_t pos = line.find(key);
  if (pos == std::string::npos) return {};
  size_t a = line.find('\'', pos);
  if (a == std::string::npos) return {};
  size_t b = line.find('\'', a + 1);
  if (b == std::string::npos) return {};
  return line.substr(a + 1, b - a - 1);
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// ---- cubin ELF -------------------------------------------------------------

template <typename T>
bool read_at(const std::vector<char>& b, uint64_t off, T& out) {
  if (off > b.size() || b.size() - off < sizeof(T)) return false;
  std::memcpy(&out, b.data() + off, sizeof(T));  // host is little-endian (x86, arm64)
  return true;
}

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t entsize = 0;
};

// EIATTR attribute codes (.nv.info records), as cuobjdump names them.
constexpr uint8_t kEifmtNval = 1, kEifmtBval = 2, kEifmtHval = 3, kEifmtSval = 4;
constexpr uint8_t kEiattrMaxThreads = 0x05;
constexpr uint8_t kEiattrReqntid = 0x10;
constexpr uint8_t kEiattrFrameSize = 0x11;
constexpr uint8_t kEiattrMinStackSize = 0x12;
constexpr uint8_t kEiattrMaxStackSize = 0x23;
constexpr uint8_t kEiattrRegcount = 0x2f;
constexpr uint8_t kStoCudaEntry = 0x10;  // st_other flag of a __global__ symbol

struct Record {
  uint8_t attr;
  uint8_t fmt;
  uint64_t offset;  // of the payload (SVAL) or of the 2-byte value (HVAL/BVAL)
  uint32_t size;
};

// Walks the TLV records of one .nv.info section; stops at anything malformed.
std::vector<Record> nv_info_records(const std::vector<char>& b, const Section& s) {
  std::vector<Record> out;
  uint64_t at = s.offset, end = s.offset + s.size;
  if (end > b.size() || end < at) return out;
  while (end - at >= 4) {
    uint8_t fmt = static_cast<uint8_t>(b[at]);
    uint8_t attr = static_cast<uint8_t>(b[at + 1]);
    uint16_t v = 0;
    read_at(b, at + 2, v);
    if (fmt == kEifmtSval) {
      if (end - (at + 4) < v) break;
      out.push_back({attr, fmt, at + 4, v});
      at += 4 + v;
    } else if (fmt == kEifmtNval || fmt == kEifmtBval || fmt == kEifmtHval) {
      out.push_back({attr, fmt, at + 2, 2});
      at += 4;
    } else {
      break;
    }
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------

std::vector<KernelResources> parse_ptxas_log(const std::string& log) {
  std::vector<KernelResources> out;
  std::istringstream in(log);
  std::string line;
  int current = -1;                // index in `out` of the entry being compiled
  bool props_for_current = false;  // last "Function properties for" named it
  while (std::getline(in, line)) {
    if (line.find("Compiling entry function") != std::string::npos) {
      KernelResources k;
      k.name = quoted_after(line, "Compiling entry function");
      out.push_back(k);
      current = static_cast<int>(out.size()) - 1;
      props_for_current = false;
      continue;
    }
    if (line.find("Function properties for") != std::string::npos) {
      size_t pos = line.find("Function properties for") + std::strlen("Function properties for");
      std::string name = trim(line.substr(pos));
      props_for_current = current >= 0 && name == out[current].name;
      continue;
    }
    if (current < 0) continue;
    KernelResources& k = out[current];
    if (line.find("bytes stack frame") != std::string::npos) {
      if (!props_for_current) continue;  // a device function's properties
      int v = 0;
      if (int_before(line, "bytes stack frame", v)) k.stack_bytes = std::max(k.stack_bytes, v);
      if (int_before(line, "bytes spill stores", v)) k.spill_store_bytes = v;
      if (int_before(line, "bytes spill loads", v)) k.spill_load_bytes = v;
      continue;
    }
    if (line.find("Used ") != std::string::npos && line.find("registers") != std::string::npos) {
      int v = 0;
      if (int_before(line, "registers", v)) k.registers = v;
      if (int_before(line, "bytes smem", v)) k.static_shared_bytes = v;
      if (int_before(line, "bytes cumulative stack size", v)) k.stack_bytes = std::max(k.stack_bytes, v);
      props_for_current = false;
      continue;
    }
  }
  return out;
}

std::vector<KernelResources> parse_cubin_resources(const std::vector<char>& b) {
  std::vector<KernelResources> none;
  if (b.size() < 64 || std::memcmp(b.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0)
    return none;
  if (b[4] != 2 /*ELFCLASS64*/ || b[5] != 1 /*little endian*/) return none;
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  read_at(b, 0x28, shoff);
  read_at(b, 0x3a, shentsize);
  read_at(b, 0x3c, shnum);
  read_at(b, 0x3e, shstrndx);
  if (shentsize < 64 || shnum == 0 || shstrndx >= shnum) return none;

  std::vector<Section> secs(shnum);
  std::vector<uint32_t> name_offsets(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint64_t h = shoff + uint64_t(i) * shentsize;
    Section& s = secs[i];
    if (!read_at(b, h + 0, name_offsets[i]) || !read_at(b, h + 4, s.type) || !read_at(b, h + 24, s.offset) ||
        !read_at(b, h + 32, s.size) || !read_at(b, h + 40, s.link) || !read_at(b, h + 44, s.info) ||
        !read_at(b, h + 56, s.entsize))
      return none;
  }
  auto cstr = [&](const Section& strtab, uint32_t off) -> std::string {
    uint64_t at = strtab.offset + off, end = strtab.offset + strtab.size;
    if (end > b.size() || at >= end) return {};
    const char* p = b.data() + at;
    return std::string(p, strnlen(p, end - at));
  };
  for (uint16_t i = 0; i < shnum; ++i) secs[i].name = cstr(secs[shstrndx], name_offsets[i]);

  // Symbols: index -> name, and which are kernels.
  const Section* symtab = nullptr;
  for (const auto& s : secs)
    if (s.type == 2 /*SHT_SYMTAB*/) symtab = &s;
  if (!symtab || symtab->link >= shnum || symtab->entsize < 24) return none;
  const Section& strtab = secs[symtab->link];
  size_t nsym = symtab->size / symtab->entsize;
  std::map<std::string, uint16_t> section_by_name;
  for (uint16_t i = 0; i < shnum; ++i) section_by_name[secs[i].name] = i;

  std::vector<KernelResources> out;
  std::map<uint32_t, size_t> kernel_by_sym;  // symbol index -> index in out
  for (size_t i = 0; i < nsym; ++i) {
    uint64_t e = symtab->offset + i * symtab->entsize;
    uint32_t name_off = 0;
    uint8_t st_info = 0, st_other = 0;
    if (!read_at(b, e, name_off) || !read_at(b, e + 4, st_info) || !read_at(b, e + 5, st_other)) break;
    if ((st_info & 0xf) != 2 /*STT_FUNC*/) continue;
    std::string name = cstr(strtab, name_off);
    bool entry = (st_other & kStoCudaEntry) != 0 || section_by_name.count(".nv.info." + name) != 0;
    if (!entry || name.empty()) continue;
    KernelResources k;
    k.name = name;
    kernel_by_sym[static_cast<uint32_t>(i)] = out.size();
    out.push_back(k);
  }

  // Global .nv.info: per-symbol (index, value) records.
  std::vector<int> frame(out.size(), 0), stack(out.size(), 0);
  for (const auto& s : secs) {
    if (s.name != ".nv.info") continue;
    for (const Record& r : nv_info_records(b, s)) {
      if (r.fmt != kEifmtSval || r.size < 8) continue;
      uint32_t sym = 0, value = 0;
      read_at(b, r.offset, sym);
      read_at(b, r.offset + 4, value);
      auto it = kernel_by_sym.find(sym);
      if (it == kernel_by_sym.end()) continue;
      size_t k = it->second;
      if (r.attr == kEiattrRegcount) out[k].registers = static_cast<int>(value);
      if (r.attr == kEiattrFrameSize) frame[k] = static_cast<int>(value);
      if (r.attr == kEiattrMinStackSize || r.attr == kEiattrMaxStackSize)
        stack[k] = std::max(stack[k], static_cast<int>(value));
    }
  }
  for (size_t k = 0; k < out.size(); ++k) {
    out[k].stack_bytes = std::max(frame[k], stack[k]);
    // Per-kernel .nv.info.<name>: launch bounds.
    auto it = section_by_name.find(".nv.info." + out[k].name);
    if (it != section_by_name.end()) {
      int maxt = 0, reqt = 0;
      for (const Record& r : nv_info_records(b, secs[it->second])) {
        if (r.fmt != kEifmtSval || r.size < 12) continue;
        if (r.attr != kEiattrMaxThreads && r.attr != kEiattrReqntid) continue;
        uint32_t x = 0, y = 0, z = 0;
        read_at(b, r.offset, x);
        read_at(b, r.offset + 4, y);
        read_at(b, r.offset + 8, z);
        uint64_t n = uint64_t(x) * y * z;
        int v = n > 0x7fffffff ? 0x7fffffff : static_cast<int>(n);
        (r.attr == kEiattrMaxThreads ? maxt : reqt) = v;
      }
      out[k].max_threads = maxt ? maxt : reqt;
    }
    auto sh = section_by_name.find(".nv.shared." + out[k].name);
    if (sh != section_by_name.end()) out[k].static_shared_bytes = static_cast<int>(secs[sh->second].size);
  }
  return out;
}

// ---------------------------------------------------------------------------

Nvrtc::Nvrtc(std::unique_ptr<Api> api, std::string path) : api_(std::move(api)), path_(std::move(path)) {}

Nvrtc::~Nvrtc() = default;

struct NvrtcLoader {
  std::unique_ptr<Nvrtc> nvrtc;
  std::string why;  // set when nvrtc is null

  // Loads once per process (a failure is remembered too).
  static const NvrtcLoader& get() {
    static const NvrtcLoader state = [] {
      NvrtcLoader l;
      std::string why;
      for (const auto& path : candidate_paths()) {
        auto api = try_load(path, why);
        if (!api) continue;
        int major = 0, minor = 0;
        if (api->version(&major, &minor) != kNvrtcSuccess) {
          why += "\n  " + path + ": nvrtcVersion failed";
          continue;
        }
        // Name the real file in messages (dlopen by soname hides it).
        std::string real = path;
        Dl_info info{};
        if (dladdr(reinterpret_cast<void*>(api->version), &info) && info.dli_fname) real = info.dli_fname;
        l.nvrtc.reset(new Nvrtc(std::move(api), real));
        l.nvrtc->major_ = major;
        l.nvrtc->minor_ = minor;
        return l;
      }
      l.why = "NVRTC (libnvrtc) not found; tried:" + why;
      return l;
    }();
    return state;
  }
};

Nvrtc& Nvrtc::instance() {
  const NvrtcLoader& l = NvrtcLoader::get();
  if (!l.nvrtc) throw Error(ErrorCode::Device, l.why);
  return *l.nvrtc;
}

bool Nvrtc::available(std::string* why) {
  try {
    const NvrtcLoader& l = NvrtcLoader::get();
    if (!l.nvrtc && why) *why = l.why;
    return l.nvrtc != nullptr;
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
}

std::string Nvrtc::version() const { return std::to_string(major_) + "." + std::to_string(minor_); }

namespace {

bool valid_arch(const std::string& arch) {
  // sm_<digits>[suffix letter], e.g. sm_90, sm_90a, sm_100f.
  if (arch.size() < 4 || arch.compare(0, 3, "sm_") != 0) return false;
  size_t i = 3;
  while (i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i]))) ++i;
  if (i == 3) return false;
  if (i < arch.size() && std::islower(static_cast<unsigned char>(arch[i]))) ++i;
  return i == arch.size();
}

// RAII for an nvrtcProgram.
struct Program {
  const Nvrtc::Api* api;
  nvrtcProgram prog = nullptr;
  ~Program() {
    if (prog) api->destroyProgram(&prog);
  }
};

}  // namespace

CompileResult Nvrtc::compile(const std::string& source, const std::string& program_name, const std::string& arch,
                             const std::vector<std::string>& extra_options) const {
  if (!valid_arch(arch))
    throw Error(ErrorCode::InvalidArgument, program_name + ": CUDA architecture '" + arch +
                                                "' is not of the form sm_<number>[letter] (e.g. sm_90)");
  const Api& a = *api_;
  auto fail = [&](const char* what, nvrtcResult r) {
    return Error(ErrorCode::Device, program_name + ": " + what + " failed: " + a.error_string(r));
  };

  Program p{&a};
  std::string file = program_name.empty() ? "kernel.cu" : program_name + ".cu";
  nvrtcResult r = a.createProgram(&p.prog, source.c_str(), file.c_str(), 0, nullptr, nullptr);
  if (r != kNvrtcSuccess) throw fail("nvrtcCreateProgram", r);

  std::vector<std::string> opts;
  opts.push_back("-arch=" + arch);
  opts.push_back("-Xptxas=-v");  // resource usage lines in the log
  for (const auto& o : extra_options) opts.push_back(o);
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());

  nvrtcResult cr = a.compileProgram(p.prog, static_cast<int>(argv.size()), argv.data());

  CompileResult res;
  res.nvrtc_major = major_;
  res.nvrtc_minor = minor_;
  size_t log_size = 0;
  if (a.getProgramLogSize(p.prog, &log_size) == kNvrtcSuccess && log_size > 1) {
    std::string log(log_size, '\0');
    if (a.getProgramLog(p.prog, &log[0]) == kNvrtcSuccess) {
      log.resize(strnlen(log.data(), log.size()));
      res.log = std::move(log);
    }
  }
  if (cr == kNvrtcErrorCompilation || cr == kNvrtcErrorInvalidOption) {
    std::string msg = program_name + ": " + (res.log.empty() ? a.error_string(cr) : res.log);
    throw Error(ErrorCode::Build, msg);
  }
  if (cr != kNvrtcSuccess) {
    throw Error(ErrorCode::Device, program_name + ": nvrtcCompileProgram failed: " + a.error_string(cr) +
                                       (res.log.empty() ? "" : "\n" + res.log));
  }

  size_t cubin_size = 0;
  r = a.getCUBINSize(p.prog, &cubin_size);
  if (r != kNvrtcSuccess) throw fail("nvrtcGetCUBINSize", r);
  if (cubin_size == 0) throw Error(ErrorCode::Device, program_name + ": NVRTC produced no cubin for " + arch);
  res.cubin.resize(cubin_size);
  r = a.getCUBIN(p.prog, res.cubin.data());
  if (r != kNvrtcSuccess) throw fail("nvrtcGetCUBIN", r);

  // Merge: the cubin lists the kernels; ptxas' report fills every field it
  // printed (it is what nvcc -Xptxas -v shows, and the only source of spills);
  // the ELF fills what the report lacks.
  std::vector<KernelResources> elf = parse_cubin_resources(res.cubin);
  std::vector<KernelResources> ptx = parse_ptxas_log(res.log);
  std::map<std::string, const KernelResources*> from_log;
  for (const auto& k : ptx) from_log[k.name] = &k;
  for (auto k : elf) {
    auto it = from_log.find(k.name);
    if (it != from_log.end()) {
      const KernelResources& l = *it->second;
      if (l.registers) {  // the "Used N registers[, M bytes smem]" line was read
        k.registers = l.registers;
        k.static_shared_bytes = l.static_shared_bytes;
      }
      k.spill_store_bytes = l.spill_store_bytes;
      k.spill_load_bytes = l.spill_load_bytes;
      k.stack_bytes = std::max(k.stack_bytes, l.stack_bytes);
      from_log.erase(it);
    }
    res.kernels.push_back(k);
  }
  // Entries ptxas reported that the ELF reader did not find (should not happen).
  for (const auto& k : ptx)
    if (from_log.count(k.name)) res.kernels.push_back(k);
  return res;
}

}  // namespace cuda
}  // namespace bfly
