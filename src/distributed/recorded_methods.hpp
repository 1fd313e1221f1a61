// ExchangeMethod::Auto's choices kept past the process (issue 43: "auto
// times the candidates at plan time and records the winner", as `bfly tune`
// records kernel launches): rank 0 keeps one line a problem in a text file
// beside the user's tuning table, and the next process on as many ranks and
// nodes reads it instead of timing the three methods again.
//
//   <cache dir>/tuning/<device>-exchanges.txt
//   c2c_f32_fwd_12x10x8_none_slabs_mpi_auto/4 ranks/1 nodes p2p
//
// (one method a exchange, comma-separated). Delete the file, or a line, to
// time again; BFLY_CACHE_DIR=off keeps nothing.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"

namespace bfly::distributed::detail {

// The file for `device`; "" where the cache directory is off.
std::string exchanges_file(const Device& device);

// Collective over `comm`: the nodes its ranks run on (MPI's shared-memory
// groups), part of a record's key since the methods' speeds depend on it.
int node_count(MPI_Comm comm);

// A problem's key in the file: "<token>/<ranks> ranks/<nodes> nodes".
std::string record_key(const Problem& problem, int ranks, int nodes);

// Collective over `comm`: the `count` methods rank 0 finds recorded under
// `key` in `file`, the same on every rank; empty where there is no such
// line (or the file cannot be read, or its line does not name `count`
// methods: the plan then times them again).
std::vector<ExchangeMethod> read_recorded(MPI_Comm comm, const std::string& file, const std::string& key,
                                          std::size_t count);

// Rank 0 of `comm` records `methods` under `key`, replacing the key's line:
// the file is written whole beside itself and renamed over, so that no
// reader sees half of it. A file that cannot be written is left as it is
// (the next process times again); nothing is thrown.
void record(MPI_Comm comm, const std::string& file, const std::string& key, const std::vector<ExchangeMethod>& methods);

}  // namespace bfly::distributed::detail
