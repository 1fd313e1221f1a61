#include "distributed/recorded_methods.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "distributed/agree.hpp"
#include "runtime/tuning_files.hpp"

namespace bfly::distributed::detail {

namespace fs = std::filesystem;

namespace {

const ExchangeMethod kTimed[] = {ExchangeMethod::Alltoallv, ExchangeMethod::Alltoall, ExchangeMethod::PointToPoint};

// "alltoallv,p2p" -> the methods; empty where a word names none of them.
std::vector<ExchangeMethod> parse(const std::string& text) {
  std::vector<ExchangeMethod> methods;
  std::stringstream words(text);
  for (std::string word; std::getline(words, word, ',');) {
    bool known = false;
    for (ExchangeMethod m : kTimed)
      if (word == to_string(m)) methods.push_back(m), known = true;
    if (!known) return {};
  }
  return methods;
}

std::string join(const std::vector<ExchangeMethod>& methods) {
  std::string text;
  for (ExchangeMethod m : methods) text += (text.empty() ? "" : ",") + std::string(to_string(m));
  return text;
}

// The file's lines but `key`'s.
std::vector<std::string> other_lines(const std::string& file, const std::string& key) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.rfind(key + " ", 0) != 0) lines.push_back(line);
  return lines;
}

}  // namespace

std::string exchanges_file(const Device& device) {
  std::string path = bfly::detail::user_tuning_path(device.info());
  const std::string json = ".json";
  if (path.size() < json.size() || path.compare(path.size() - json.size(), json.size(), json) != 0) return "";
  return path.substr(0, path.size() - json.size()) + "-exchanges.txt";
}

std::string record_key(const Problem& problem, int ranks, int nodes) {
  return problem.token() + "/" + std::to_string(ranks) + " ranks/" + std::to_string(nodes) + " nodes";
}

int node_count(MPI_Comm comm) {
  MPI_Comm host = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  int host_rank = 0;
  MPI_Comm_rank(host, &host_rank);
  MPI_Comm_free(&host);
  int first = host_rank == 0 ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_SUM, comm), "MPI_Allreduce");
  return first;
}

std::vector<ExchangeMethod> read_recorded(MPI_Comm comm, const std::string& file, const std::string& key,
                                          std::size_t count) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Rank 0's finding as codes (-1: none), the same on every rank.
  std::vector<int> codes(count, -1);
  if (rank == 0 && !file.empty()) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(key + " ", 0) == 0) {
        const std::vector<ExchangeMethod> found = parse(line.substr(key.size() + 1));
        if (found.size() == count)
          for (std::size_t j = 0; j < count; ++j) codes[j] = static_cast<int>(found[j]);
      }
  }
  if (count > 0) check_mpi(MPI_Bcast(codes.data(), static_cast<int>(count), MPI_INT, 0, comm), "MPI_Bcast");
  std::vector<ExchangeMethod> methods;
  for (int code : codes) {
    if (code < 0) return {};
    methods.push_back(static_cast<ExchangeMethod>(code));
  }
  return methods;
}

void record(MPI_Comm comm, const std::string& file, const std::string& key,
            const std::vector<ExchangeMethod>& methods) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0 || file.empty() || methods.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(file).parent_path(), ec);
  std::vector<std::string> lines = other_lines(file, key);
  lines.push_back(key + " " + join(methods));
  // (Another job's rank 0 may write the same file: each writes its own
  // temporary file and renames it over, so the file is always one of theirs.)
  const std::string temporary = file + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    for (const std::string& line : lines) out << line << "\n";
    if (!out) {
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, file, ec);
  if (ec) fs::remove(temporary, ec);
}

}  // namespace bfly::distributed::detail
