// The schedules of the decompositions (schedule.hpp), the problem's token
// and its checks.
//
// Slabs: stage 0 transforms every axis the input box holds whole, one
// exchange makes the split axis whole, stage 1 transforms it (FFTW-MPI).
// Pencils: three stages of one axis each, 2 -> 1 -> 0 (or back), the first
// exchange within a row of the grid and the second within a column, so each
// exchange involves P1 or P0 ranks rather than all of them (heFFTe,
// 2DECOMP&FFT). Real transforms ride on the same schedules: R2C's stage 0
// holds the last axis whole and transforms it first (a bfly R2C, half the
// points from then on); C2R moves the last axis to the last stage (a bfly
// C2R), which is why the real side must hold that axis whole.
#include "distributed/schedule.hpp"

#include <algorithm>
#include <cstdlib>

#include "distributed/boxes.hpp"

namespace bfly::distributed {

const char* to_string(Decomposition d) {
  switch (d) {
    case Decomposition::Slabs:
      return "slabs";
    case Decomposition::SlabsTransposedIn:
      return "slabs-transposed-in";
    case Decomposition::Pencils:
      return "pencils";
    case Decomposition::PencilsTransposedIn:
      return "pencils-transposed-in";
    case Decomposition::Auto:
      return "auto";
  }
  return "?";
}

const char* to_string(ExchangeMethod m) {
  switch (m) {
    case ExchangeMethod::Alltoallv:
      return "alltoallv";
    case ExchangeMethod::Alltoall:
      return "alltoall";
    case ExchangeMethod::PointToPoint:
      return "p2p";
    case ExchangeMethod::Auto:
      return "auto";
  }
  return "?";
}

const char* to_string(Transport t) {
  switch (t) {
    case Transport::Auto:
      return "auto";
    case Transport::Mpi:
      return "mpi";
    case Transport::Nccl:
      return "nccl";
  }
  return "?";
}

namespace {

std::string join(const std::vector<std::int64_t>& values) {
  std::string text;
  for (std::size_t k = 0; k < values.size(); ++k) text += (k ? "x" : "") + std::to_string(values[k]);
  return text;
}

std::string grid_text(const std::vector<int>& grid) {
  return join(std::vector<std::int64_t>(grid.begin(), grid.end()));
}

bool is_pencils(Decomposition d) { return d == Decomposition::Pencils || d == Decomposition::PencilsTransposedIn; }

// The axes each decomposition splits on input and on output (docs/DISTRIBUTED.md).
std::vector<int> split_axes(Decomposition d, bool input) {
  switch (d) {
    case Decomposition::Slabs:
      return {input ? 0 : 1};
    case Decomposition::SlabsTransposedIn:
      return {input ? 1 : 0};
    case Decomposition::Pencils:
      return input ? std::vector<int>{0, 1} : std::vector<int>{1, 2};
    case Decomposition::PencilsTransposedIn:
      return input ? std::vector<int>{1, 2} : std::vector<int>{0, 1};
    case Decomposition::Auto:
      break;  // resolved before (detail::resolve)
  }
  return {};
}

Error invalid(const std::string& text) { return Error(ErrorCode::InvalidArgument, "bfly::distributed: " + text); }
Error unsupported(const std::string& text) { return Error(ErrorCode::Unsupported, "bfly::distributed: " + text); }

}  // namespace

// bfly::Problem's token's fields, in its order, then the decomposition
// (and the grid where one is given).
std::string Problem::token() const {
  return std::string(bfly::to_string(kind)) + "_" + bfly::to_string(precision) + "_" + bfly::to_string(direction) +
         "_" + join(shape) + "_" + bfly::to_string(norm) + "_" + to_string(decomposition) +
         (grid.empty() ? "" : "-" + grid_text(grid)) +
         (transport == Transport::Auto ? "" : std::string("_") + to_string(transport)) +
         (exchange == ExchangeMethod::Alltoallv ? "" : std::string("_") + to_string(exchange)) +
         (pipeline == 0 ? "" : "_chunks" + std::to_string(pipeline));
}

namespace detail {

bfly::Problem stage_problem(const Problem& problem, const Box& box, Kind kind, std::vector<int> axes,
                            std::vector<std::int64_t> input_strides) {
  bfly::Problem local;
  local.kind = kind;
  local.shape = box.shape();
  local.axes = std::move(axes);
  local.input.strides = std::move(input_strides);
  local.precision = problem.precision;
  local.direction = problem.direction;
  local.norm = problem.norm;
  return local;
}

Problem resolve(const Problem& problem, int ranks) {
  Problem chosen = problem;
  if (problem.decomposition != Decomposition::Auto) return chosen;
  const bool inverse = problem.direction == Direction::Inverse;
  const std::vector<std::int64_t>& n = problem.shape;
  const bool slabs = problem.grid.empty() && (n.size() != 3 || (ranks <= n[0] && ranks <= n[1]));
  chosen.decomposition = slabs ? (inverse ? Decomposition::SlabsTransposedIn : Decomposition::Slabs)
                               : (inverse ? Decomposition::PencilsTransposedIn : Decomposition::Pencils);
  if (slabs || !problem.grid.empty()) return chosen;
  // Pencils: the most square grid that leaves no rank an empty box on any
  // side (z-, y- and x-pencils: P0 <= n0, n1 and P1 <= n1, the complex
  // last length), where one does; else square_grid's.
  const bool real = problem.kind == Kind::R2C || problem.kind == Kind::C2R;
  const std::int64_t last = real ? n[2] / 2 + 1 : n[2];
  int best = 0;
  for (int p0 = 1; p0 <= ranks; ++p0) {
    if (ranks % p0) continue;
    const int p1 = ranks / p0;
    if (p0 > std::min(n[0], n[1]) || p1 > std::min(n[1], last)) continue;
    if (best == 0 || std::abs(p0 - p1) < std::abs(best - ranks / best) ||
        (std::abs(p0 - p1) == std::abs(best - ranks / best) && p0 > best))
      best = p0;
  }
  if (best) chosen.grid = {best, ranks / best};
  return chosen;
}

void check(const Problem& problem, int ranks) {
  const std::size_t axes = problem.shape.size();
  if (axes != 2 && axes != 3)
    throw invalid("the global shape has " + std::to_string(axes) + " axes (2 or 3 are supported): " + problem.token());
  std::int64_t elements = 1;
  for (std::int64_t n : problem.shape) {
    if (n < 1) throw invalid("the global shape has a length " + std::to_string(n) + ": " + problem.token());
    if (elements > (std::int64_t{1} << 62) / n) throw invalid("the global shape overflows: " + problem.token());
    elements *= n;
  }
  if (problem.pipeline < 0 || problem.pipeline > 1024)
    throw invalid("pipeline " + std::to_string(problem.pipeline) +
                  " is not a chunk count from 0 (the default) to 1024: " + problem.token());
  if (problem.kind == Kind::R2R)
    throw unsupported("c2c, r2c and c2r transforms are distributed, not " + std::string(bfly::to_string(problem.kind)));
  // bfly::Problem's rule and words.
  if (problem.kind == Kind::R2C && problem.direction != Direction::Forward)
    throw invalid("an r2c transform is forward (got direction inv); c2r is the inverse");
  if (problem.kind == Kind::C2R && problem.direction != Direction::Inverse)
    throw invalid("a c2r transform is inverse (got direction fwd); r2c is the forward one");

  const Decomposition d = problem.decomposition;
  if (is_pencils(d) && axes != 3)
    throw invalid(std::string(to_string(d)) + " split 3D arrays; the global shape " + join(problem.shape) +
                  " has 2 axes (use slabs)");
  if (!problem.grid.empty()) {
    if (!is_pencils(d))
      throw invalid("a process grid (" + grid_text(problem.grid) + ") is for pencils; " + to_string(d) +
                    " split over every rank");
    if (problem.grid.size() != 2 || problem.grid[0] < 1 || problem.grid[1] < 1)
      throw invalid("the process grid " + grid_text(problem.grid) + " is not two positive counts P0 x P1");
    if (static_cast<long long>(problem.grid[0]) * problem.grid[1] != ranks)
      throw invalid("the process grid " + grid_text(problem.grid) + " has " +
                    std::to_string(static_cast<long long>(problem.grid[0]) * problem.grid[1]) +
                    " ranks, the communicator " + std::to_string(ranks) + " (P0 x P1 must be the rank count)");
  }

  const int last = static_cast<int>(axes) - 1;
  if (problem.kind == Kind::R2C) {
    const std::vector<int> split = split_axes(d, true);
    if (std::find(split.begin(), split.end(), last) != split.end())
      throw unsupported(std::string("r2c needs the last axis (the real one) whole on input, which ") + to_string(d) +
                        " splits: use slabs or pencils (3D: slabs-transposed-in too)");
  }
  if (problem.kind == Kind::C2R) {
    const std::vector<int> split = split_axes(d, false);
    if (std::find(split.begin(), split.end(), last) != split.end())
      throw unsupported(std::string("c2r needs the last axis (the real one) whole on output, which ") + to_string(d) +
                        " splits: use slabs-transposed-in or pencils-transposed-in (3D: slabs too)");
  }
}

std::vector<int> Schedule::members(int exchange, int rank) const {
  std::vector<int> ranks;
  const std::vector<int>& group = groups[static_cast<std::size_t>(exchange)];
  for (int r = 0; r < static_cast<int>(group.size()); ++r)
    if (group[r] == group[rank]) ranks.push_back(r);
  return ranks;
}

Schedule make_schedule(const Problem& problem, int ranks) {
  Schedule s;
  const std::vector<std::int64_t>& shape = problem.shape;
  const int count = static_cast<int>(shape.size()), last = count - 1;
  const bool real = problem.kind == Kind::R2C || problem.kind == Kind::C2R;
  s.complex_shape = shape;
  if (real) s.complex_shape[last] = shape[last] / 2 + 1;
  const std::vector<std::int64_t>& cs = s.complex_shape;

  auto tiling = [&](auto box_of) {
    std::vector<Box> boxes;
    for (int r = 0; r < ranks; ++r) boxes.push_back(box_of(r));
    return boxes;
  };
  auto numbered = [&](auto group_of) {
    std::vector<int> groups;
    for (int r = 0; r < ranks; ++r) groups.push_back(group_of(r));
    return groups;
  };

  const Decomposition d = problem.decomposition;
  if (!is_pencils(d)) {
    const int in = split_axes(d, true)[0], out = split_axes(d, false)[0];
    s.grid = {ranks, 1};
    s.tilings.push_back(tiling([&](int r) { return slab(cs, in, ranks, r); }));
    s.tilings.push_back(tiling([&](int r) { return slab(cs, out, ranks, r); }));
    std::vector<int> first;
    for (int k = 0; k < count; ++k)
      if (k != in) first.push_back(k);
    s.axes = {first, {in}};
    s.groups.push_back(std::vector<int>(static_cast<std::size_t>(ranks), 0));
  } else {
    s.grid = problem.grid.empty() ? square_grid(ranks) : problem.grid;
    const std::vector<int>& g = s.grid;
    const std::vector<Box> z = tiling([&](int r) { return pencil(cs, g, 0, 1, r); });
    const std::vector<Box> y = tiling([&](int r) { return pencil(cs, g, 0, 2, r); });
    const std::vector<Box> x = tiling([&](int r) { return pencil(cs, g, 1, 2, r); });
    const std::vector<int> row = numbered([&](int r) { return r / g[1]; });
    const std::vector<int> column = numbered([&](int r) { return r % g[1]; });
    if (d == Decomposition::Pencils) {
      s.tilings = {z, y, x}, s.axes = {{2}, {1}, {0}}, s.groups = {row, column};
    } else {
      s.tilings = {x, y, z}, s.axes = {{0}, {1}, {2}}, s.groups = {column, row};
    }
  }

  s.kinds.assign(s.tilings.size(), Kind::C2C);
  if (problem.kind == Kind::R2C) s.kinds.front() = Kind::R2C;
  if (problem.kind == Kind::C2R) {
    // The real axis goes last: C2C stages first, then the C2R.
    for (std::size_t j = 0; j + 1 < s.axes.size(); ++j)
      s.axes[j].erase(std::remove(s.axes[j].begin(), s.axes[j].end(), last), s.axes[j].end());
    std::vector<int>& final_axes = s.axes.back();
    if (std::find(final_axes.begin(), final_axes.end(), last) == final_axes.end()) final_axes.push_back(last);
    std::sort(final_axes.begin(), final_axes.end());
    s.kinds.back() = Kind::C2R;
  }

  // The real side holds the last axis whole (check()): its boxes are the
  // complex side's with that axis at its real length.
  auto real_side = [&](std::vector<Box> boxes) {
    for (Box& box : boxes) box.lower[last] = 0, box.upper[last] = shape[last];
    return boxes;
  };
  s.input_boxes = problem.kind == Kind::R2C ? real_side(s.tilings.front()) : s.tilings.front();
  s.output_boxes = problem.kind == Kind::C2R ? real_side(s.tilings.back()) : s.tilings.back();
  return s;
}

}  // namespace detail
}  // namespace bfly::distributed
