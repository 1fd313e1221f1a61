#include "bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/output_file.hpp"
#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

std::string format(const char* f, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, f, v);
  return buffer;
}

std::string format_text(const char* f, const char* v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, f, v);
  return buffer;
}

}  // namespace

std::string table_header(const CaseResult& first) {
  std::ostringstream out;
  out << "shape batch              passes   bfly ms  GFLOP/s    GB/s  rel.err  plan ms (cached)  warm ms  first ms  "
         "copy GB/s  floor";
  if (const std::optional<BenchCase> y = first.bench_case.yardstick()) {
    // "    c2c ms real/c2c" or "    r2c ms dct2/r2c": the yardstick's time, and this case's over it.
    const BenchCase& c = first.bench_case;
    const bool half = c.storage != Storage::Native;  // its yardstick: itself in fp32
    const std::string ms = (half ? std::string("f32") : y->kind_name()) + " ms";
    const std::string ratio = half ? std::string(to_string(c.storage)) + "/f32"
                                   : (c.kind == Kind::R2R ? c.kind_name() : "real") + "/" + y->kind_name();
    out << format_text("%10s", ms.c_str()) << format_text(" %8s", ratio.c_str());
  }
  for (const PeerResult& p : first.peers) {
    out << " | " << p.name << " ms (bfly speed-up)";
    if (p.name == kTransposePeer) out << " passes floor";
  }
  out << '\n';
  return out.str();
}

std::string table_row(const CaseResult& r) {
  std::ostringstream out;
  char line[320];
  if (r.unsupported.empty())
    std::snprintf(line, sizeof line, "%-24s %6d %9.3f %8.1f %7.1f %8s %8.1f (%d/%d) %8.1f %9.1f %10.1f %5.0f%%",
                  r.bench_case.label().c_str(), r.passes, r.median_ms, r.gflops(r.median_ms), r.gbytes(r.median_ms),
                  r.error < 0 ? "-" : format("%.1e", r.error).c_str(), r.plan_ms, r.cache_hits, r.kernels,
                  r.warm_plan_ms, r.first_result_ms, r.copy_gbytes(), 100 * r.floor_fraction());
  else  // bfly's columns blank, the copy and the peers still measured; why at the end of the line
    std::snprintf(line, sizeof line, "%-24s %6s %9s %8s %7s %8s %8s %5s %8s %9s %10.1f %6s",
                  r.bench_case.label().c_str(), "-", "unsupported", "-", "-", "-", "-", "", "-", "-", r.copy_gbytes(),
                  "-");
  out << line;
  if (r.bench_case.yardstick()) {
    if (r.yardstick_ms > 0 && r.median_ms > 0)
      std::snprintf(line, sizeof line, " %9.3f %8.2f", r.yardstick_ms, r.over_yardstick());
    else if (r.yardstick_ms > 0)
      std::snprintf(line, sizeof line, " %9.3f %8s", r.yardstick_ms, "-");
    else
      std::snprintf(line, sizeof line, " %9s %8s", "unsupp.", "-");
    out << line;
  }
  const double limit = error_limit(r.bench_case.precision);
  for (const PeerResult& p : r.peers) {
    if (p.unsupported.rfind("n/a", 0) == 0) {
      out << " | n/a";
      continue;
    }
    if (!p.unsupported.empty()) {
      out << " | unsupported";
      continue;
    }
    out << " | " << format("%.3f", p.median_ms);
    if (r.median_ms > 0) out << " (" << format("%.2fx", p.median_ms / r.median_ms) << ")";
    if (p.passes > 0) out << ' ' << p.passes << ' ' << format("%.0f%%", 100 * r.floor_fraction(p.passes, p.median_ms));
    if (p.error > limit) out << " err " << format("%.1e", p.error);
  }
  if (!r.unsupported.empty()) {
    // The first line only: a kernel build failure carries its whole log (the JSON keeps it).
    const std::string why = r.unsupported.substr(0, r.unsupported.find('\n'));
    out << " | bfly: " << (why.size() > 120 ? why.substr(0, 117) + "..." : why);
  }
  out << '\n';
  return out.str();
}

std::string table_footer(const BenchCase& example) {
  if (example.storage != Storage::Native) {
    // Half storage: the fp32 conventions below, but for the bytes and the yardstick.
    const std::string word = to_string(example.storage);
    return "half storage (" + word +
           "): GB/s and the floor count the 16-bit bytes read and written once (4 per complex point, 2 per real); "
           "rel.err against FFTW double on the rounded input;\nf32 ms = bfly's fp32 transform of the same case on "
           "the same values, timed in the same run; " +
           word + "/f32 = bfly ms / f32 ms; the peers run fp32 (their half precision is a later step).\n" +
           table_footer(example.native());
  }
  const Precision precision = example.precision;
  const Kind kind = example.kind;
  const bool fp64 = precision == Precision::Double;
  if (kind == Kind::R2R) {
    static const char* const kRoman[] = {"I", "II", "III", "IV"};
    const std::string name = example.kind_name();
    const std::string type =
        (example.family == Family::DCT ? "DCT-" : "DST-") + std::string(kRoman[example.r2r_type() - 1]);
    return "speed-up = peer time / bfly time (above 1: bfly is faster; n/a: the peer has no such transform);\n"
           "rel.err = relative L2 error vs " +
           reference_name(precision) + " r2r, unnormalised (scipy's norm=None: the " + type +
           (example.inverse ? " that scipy's inverse of " + name + " computes" : " itself") +
           ")\n(a peer's error is shown beside its time when above " + error_limit_text(precision) +
           ");\nGFLOP/s counts 2.5 N log2 N per transform of N reals (the real-transform convention);\n"
           "GB/s counts the bytes read and written once: " +
           (fp64 ? "8" : "4") + " per " + (fp64 ? "float64" : "float32") +
           " on each side;\nr2c ms = bfly's R2C of the same shape, axes and batch, timed in the same run;\n" + name +
           "/r2c = bfly ms / r2c ms (issue 41: types I and IV within 1.2x);\n"
           "plan ms = first plan in this process, (cached/kernels) loaded from the disk cache or shipped; warm ms = "
           "the same plan again on a new device context;\nfirst ms = plan ms plus the first execution, waited for;\n"
           "copy GB/s = a plain copy kernel on the same buffers in the same run; floor = passes x copy time of those "
           "bytes / bfly time;\nunsupported = could not run that case (the reasons are in --out FILE.json).\n";
  }
  if (kind != Kind::C2C) {
    const std::string real = fp64 ? "float64" : "float32", complex = fp64 ? "complex128" : "complex64";
    const bool r2c = kind == Kind::R2C;
    return "speed-up = peer time / bfly time (above 1: bfly is faster; the cuFFT column is the ratio to cuFFT's " +
           std::string(r2c ? (fp64 ? "D2Z" : "R2C") : (fp64 ? "Z2D" : "C2R")) + ");\nrel.err = relative L2 error vs " +
           reference_name(precision) + " " + (r2c ? "r2c" : "c2r") +
           " (a peer's error is shown beside its time when above " + error_limit_text(precision) +
           ");\nGFLOP/s counts 2.5 N log2 N per real transform of N points (half the complex convention);\n"
           "GB/s counts the bytes read and written once: " +
           (fp64 ? "8" : "4") + " per " + real + " of the real side, " + (fp64 ? "16" : "8") + " per " + complex +
           " point of the half spectrum\n"
           "(n/2 + 1 points along the halved axis)" +
           (r2c ? "" : "; the inputs are half spectra of real arrays (Hermitian where it matters)") +
           ";\nc2c ms = bfly's complex (C2C) transform of the same shape, axes, batch and direction, timed in the same "
           "run;\nreal/c2c = bfly ms / c2c ms (issue 7: at most 0.6 for even sizes);\n"
           "plan ms = first plan in this process, (cached/kernels) loaded from the disk cache or shipped; warm ms = "
           "the same plan "
           "again on a new device context;\nfirst ms = plan ms plus the first execution, waited for;\ncopy GB/s = a "
           "plain copy kernel on the same buffers in the same run; "
           "floor = passes x copy time of those bytes / bfly time;\n"
           "unsupported = could not run that case (the reasons are in --out FILE.json).\n";
  }
  return "speed-up = peer time / bfly time (above 1: bfly is faster); rel.err = relative L2 error vs " +
         reference_name(precision) + "\n(a peer's error is shown beside its time when above " +
         error_limit_text(precision) +
         "); GFLOP/s counts 5 N log2 N per transform of N points;\n"
         "GB/s counts " +
         (fp64 ? "32 bytes per point (one read, one write of a complex128)"
               : "16 bytes per point (one read, one write of a complex64)") +
         "; plan ms = first plan in this process, (cached/kernels)\n"
         "loaded from the disk cache or shipped; warm ms = the same plan again on a new device context (disk cache "
         "warm);\n"
         "first ms = plan ms plus the first execution, waited for (a new size's first answer);\n"
         "copy GB/s = a plain copy kernel on the same buffers in the same run; floor = passes x copy time / bfly "
         "time;\n"
         "bfly (transpose) = bfly with --strategy transpose (rows between explicit blocked transposes), with its "
         "passes and floor;\n"
         "unsupported = could not run that case (the reasons are in --out FILE.json).\n";
}

std::string table_summary(const std::vector<CaseResult>& results) {
  // Peers in the order the rows show them; a geometric mean because the
  // speed-ups are ratios (a 2x win and a 2x loss average to 1x).
  std::vector<std::string> names;
  for (const CaseResult& r : results)
    for (const PeerResult& p : r.peers)
      if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  // A peer that takes over kOutlier times bfly's time on a case has hit a
  // pathology of its own (VkFFT took 1500-5300x on a few small lengths of
  // the random suite, H200, 2026-11-26): one such case moves a mean over
  // 40 by 1.2x, so the mean is also given without them, naming them.
  constexpr double kOutlier = 10;
  std::ostringstream out;
  for (const std::string& name : names) {
    double log_sum = 0, worst = 0, log_kept = 0;
    int count = 0, kept = 0;
    std::string worst_case, outliers;
    for (const CaseResult& r : results) {
      if (r.median_ms <= 0 || !r.unsupported.empty()) continue;
      for (const PeerResult& p : r.peers) {
        if (p.name != name || !p.unsupported.empty() || p.median_ms <= 0) continue;
        const double ratio = p.median_ms / r.median_ms;
        log_sum += std::log(ratio);
        if (count == 0 || ratio < worst) worst = ratio, worst_case = r.bench_case.label();
        ++count;
        if (ratio > kOutlier) {
          outliers += (outliers.empty() ? "" : ", ") + r.bench_case.label() + format(" %.0fx", ratio);
        } else {
          log_kept += std::log(ratio);
          ++kept;
        }
      }
    }
    if (count == 0) continue;
    out << "geometric mean vs " << name << ": " << format("%.3fx", std::exp(log_sum / count)) << " over " << count
        << " case" << (count == 1 ? "" : "s") << "; lowest " << format("%.2fx", worst) << " at " << worst_case;
    if (!outliers.empty() && kept > 0)
      out << "; " << format("%.3fx", std::exp(log_kept / kept)) << " over the " << kept << " where " << name
          << " took at most " << format("%.0f", kOutlier) << "x bfly's time (not " << outliers << ")";
    out << '\n';
  }
  return out.str();
}

namespace {

std::string axes_text(const BenchCase& c) {
  std::string out;
  for (std::size_t i = 0; i < c.axes.size(); ++i) out += (i ? "." : "") + std::to_string(c.axes[i]);
  return out;
}

}  // namespace

void save(const std::string& path, const std::vector<CaseResult>& results, const DeviceInfo& device,
          const std::string& source) {
  std::ostringstream text;
  if (ends_with(path, ".csv")) {
    // kind, c2c_ms (bfly's complex time beside a real case),
    // first_result_ms, then the yardstick's kind and time (c2c beside a real
    // case, r2c beside a DCT or DST) came last, so readers of the earlier
    // columns by position are unaffected.
    text << "shape,axes,length,batch,inverse,precision,implementation,median_ms,gflops,gbytes_per_s,relative_error,"
            "plan_ms,passes,warm_plan_ms,copy_ms,floor_fraction,kind,c2c_ms,first_result_ms,yardstick_kind,"
            "yardstick_ms\n";
    for (const CaseResult& r : results) {
      const auto& c = r.bench_case;
      const std::string head = text::shape(c.shape) + ',' + axes_text(c) + ',' + std::to_string(c.length()) + ',' +
                               std::to_string(c.batch) + ',' + (c.inverse ? "1" : "0") + ',' +
                               precision_name(c.precision) + ',';
      // Rows only for what ran, as for the peers: bfly's reason is in the JSON.
      const std::string kind = c.kind_name();
      const std::optional<BenchCase> yardstick = c.yardstick();
      if (r.unsupported.empty()) {
        text << head << "bfly," << r.median_ms << ',' << r.gflops(r.median_ms) << ',' << r.gbytes(r.median_ms) << ','
             << r.error << ',' << r.plan_ms << ',' << r.passes << ',' << r.warm_plan_ms << ',' << r.copy_ms << ','
             << r.floor_fraction() << ',' << kind << ',';
        const bool c2c = yardstick && yardstick->kind == Kind::C2C;
        if (c2c && r.yardstick_ms > 0) text << r.yardstick_ms;
        text << ',' << r.first_result_ms << ',' << (yardstick ? yardstick->kind_name() : "") << ',';
        if (r.yardstick_ms > 0) text << r.yardstick_ms;
        text << '\n';
      }
      for (const PeerResult& p : r.peers)
        if (p.unsupported.empty()) {
          text << head << '"' << p.name << "\"," << p.median_ms << ',' << r.gflops(p.median_ms) << ','
               << r.gbytes(p.median_ms) << ',' << p.error << ',' << p.plan_ms << ',';
          if (p.passes > 0)
            text << p.passes << ",," << r.copy_ms << ',' << r.floor_fraction(p.passes, p.median_ms);
          else
            text << ",,,";
          text << ',' << kind << ",,,,\n";
        }
    }
  } else if (ends_with(path, ".json")) {
    nlohmann::json doc;
    doc["bfly_version"] = version();
    doc["device"] = {{"spec", device.spec}, {"name", device.name}, {"driver", device.driver}};
    if (!source.empty()) doc["source"] = source;
    // One precision per run (--precision); also kept per case for merged records.
    if (!results.empty()) {
      const Precision precision = results.front().bench_case.precision;
      doc["precision"] = precision_name(precision);
      doc["kind"] = results.front().bench_case.kind_name();
      doc["reference"] = reference_name(precision);
      doc["error_limit"] = error_limit(precision);
    }
    for (const CaseResult& r : results) {
      nlohmann::json c = {{"shape", r.bench_case.shape},
                          {"length", r.bench_case.length()},
                          {"batch", r.bench_case.batch},
                          {"precision", precision_name(r.bench_case.precision)},
                          {"inverse", r.bench_case.inverse},
                          {"passes", r.passes},
                          {"median_ms", r.median_ms},
                          {"min_ms", r.min_ms},
                          {"gflops", r.gflops(r.median_ms)},
                          {"gbytes_per_s", r.gbytes(r.median_ms)},
                          {"relative_error", r.error},
                          {"plan_ms", r.plan_ms},
                          {"kernels", r.kernels},
                          {"cache_hits", r.cache_hits},
                          {"warm_plan_ms", r.warm_plan_ms},
                          {"first_result_ms", r.first_result_ms},
                          {"copy_ms", r.copy_ms},
                          {"floor_fraction", r.floor_fraction()}};
      if (!r.bench_case.axes.empty()) c["axes"] = r.bench_case.axes;
      c["kind"] = r.bench_case.kind_name();
      if (r.bench_case.real()) c["moved_bytes"] = r.moved_bytes();  // bytes as GB/s counts them
      if (const std::optional<BenchCase> y = r.bench_case.yardstick()) {
        // bfly's yardstick of the same shape beside: C2C for a real case
        // (also under its first keys, c2c_*, which records and scripts
        // read), R2C for a DCT or DST.
        c["yardstick_kind"] = y->kind_name();
        if (r.yardstick_ms > 0)
          c.update({{"yardstick_median_ms", r.yardstick_ms}, {"over_yardstick", r.over_yardstick()}});
        if (!r.yardstick_unsupported.empty()) c["yardstick_unsupported"] = r.yardstick_unsupported;
        if (y->kind == Kind::C2C) {
          if (r.yardstick_ms > 0) c.update({{"c2c_median_ms", r.yardstick_ms}, {"real_over_c2c", r.over_yardstick()}});
          if (!r.yardstick_unsupported.empty()) c["c2c_unsupported"] = r.yardstick_unsupported;
        }
      }
      if (!r.unsupported.empty()) c["unsupported"] = r.unsupported;
      for (const PeerResult& p : r.peers) {
        nlohmann::json peer = {{"name", p.name}};
        if (!p.unsupported.empty())
          peer["unsupported"] = p.unsupported;
        else
          peer.update({{"median_ms", p.median_ms}, {"plan_ms", p.plan_ms}, {"relative_error", p.error}});
        if (p.unsupported.empty() && p.passes > 0)
          peer.update({{"passes", p.passes}, {"floor_fraction", r.floor_fraction(p.passes, p.median_ms)}});
        c["peers"].push_back(peer);
      }
      doc["cases"].push_back(c);
    }
    text << doc.dump(2) << '\n';
  } else {
    throw Error(ErrorCode::InvalidArgument, "output '" + path + "' must end in .csv or .json");
  }
  io::write_text(path, text.str());
}

}  // namespace bfly::cli
