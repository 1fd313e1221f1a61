// Agreement among ranks before a collective step, so that a failure on
// some ranks becomes the same bfly::Error on every rank instead of a hang
// (issue 43: "never a hang"; mpi4py-fft#20/#21 and rocFFT's docs show what
// happens otherwise: asserts on one rank, the others wait forever).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <new>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::distributed::detail {

// Collective. `failure` is empty where this rank succeeded, else its
// one-line message and code. Where any rank failed, every rank throws the
// lowest failing rank's error, prefixed with "rank R: ".
//
// `timeout_s` > 0 bounds the wait for the other ranks (MPI's collectives
// have none): past it this rank throws InvalidArgument saying it waited,
// alone (a rank that never came cannot agree), and the collective is left
// pending. 0: wait as long as it takes.
void agree(MPI_Comm comm, const std::string& failure, ErrorCode code = ErrorCode::InvalidArgument,
           double timeout_s = 0);

// Collective: returns once every rank of `comm` has called it, or throws as
// agree() does past `timeout_s` (0: never), naming `what` they were to reach.
void arrive(MPI_Comm comm, double timeout_s, const std::string& what);

// Collective: runs `step` on this rank, then agrees (above) on whether it
// failed on any rank: a bfly::Error keeps its code and message, running out
// of host memory is OutOfMemory.
template <class Step>
void together(MPI_Comm comm, Step step, double timeout_s = 0) {
  std::string failure;
  ErrorCode code = ErrorCode::InvalidArgument;
  try {
    step();
  } catch (const Error& e) {
    failure = e.what(), code = e.code();
  } catch (const std::bad_alloc&) {
    failure = "bfly::distributed: out of host memory", code = ErrorCode::OutOfMemory;
  }
  agree(comm, failure, code, timeout_s);
}

// Collective. Throws the same InvalidArgument on every rank unless every
// rank passed the same `fingerprint` (a hash of what must match); `what`
// names it in the message, and the message lists the ranks that differ
// from rank 0 (the same text everywhere).
void agree_on(MPI_Comm comm, std::uint64_t fingerprint, const std::string& what);

// FNV-1a over text: the fingerprint of a problem's token.
std::uint64_t fingerprint(const std::string& text);

// Throws Error(Device) naming the MPI call and MPI's message unless `status`
// is MPI_SUCCESS (the plan's communicator returns errors: MPI_ERRORS_RETURN).
void check_mpi(int status, const char* call);

}  // namespace bfly::distributed::detail
