#include "io/temporary_file.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace bfly::io {
namespace {

// Fixed slots, so the handler touches no heap and no locks: it only reads
// paths that are complete (state Ready) and calls unlink, which is
// async-signal-safe.
constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
enum State : int { Free, Claimed, Ready };

struct Slot {
  std::atomic<int> state{Free};
  char path[kPathBytes];
};
Slot slots[kSlots];

extern "C" void remove_and_reraise(int signal_number) {
  for (Slot& slot : slots)
    if (slot.state.load() == Ready) unlink(slot.path);
  // The default action now: the process ends as the signal meant it to.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  raise(signal_number);
}

}  // namespace

TemporaryFile::TemporaryFile(const std::string& path) {
  if (path.size() >= kPathBytes) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = Free;
    if (slots[i].state.compare_exchange_strong(expected, Claimed)) {
      std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
      slots[i].state.store(Ready);
      slot_ = i;
      return;
    }
  }
}

TemporaryFile::~TemporaryFile() {
  if (slot_ >= 0) slots[slot_].state.store(Free);
}

void remove_temporaries_on_signals() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    if (sigaction(signal_number, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_and_reraise;
    sigemptyset(&action.sa_mask);
    // Further signals wait while the handler runs, so it runs once.
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    sigaddset(&action.sa_mask, SIGHUP);
    sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace bfly::io
