// What crosses fork(2) and what cannot. A child process inherits a copy of
// the parent's memory but none of its other threads: an OpenCL driver's
// worker threads (PoCL's) and a CUDA context are gone, and a lock another
// thread held stays held. Waiting on any of them hangs forever, so bfly
// counts forks (pthread_atfork) and refuses, with an error that says why, to
// touch a device, or a backend's driver, that an ancestor process opened;
// objects such a device owns are never released in the child (their
// release would call into the dead driver), only dropped.
#pragma once

#include <memory>
#include <string>

namespace bfly::detail::fork_guard {

// 0 in the process that loaded bfly; one more in each child forked since.
unsigned generation();

enum class Backend { OpenCL, Cuda };

// Called once a backend's driver is initialised (OpenCL's platforms listed,
// cuInit): the generation that did it. Later calls keep the first.
void note_started(Backend backend);
// Empty where this process may use the backend; else why not, in one line.
std::string why_unusable(Backend backend);

// The error for a device opened in an ancestor process: names the device,
// the cause and the fix.
[[noreturn]] void throw_inherited(const std::string& device_spec);

// Keeps `owner` alive for the rest of the process: what a child does with an
// inherited device's objects instead of destroying them.
template <class T>
void abandon(std::shared_ptr<T> owner) {
  new std::shared_ptr<T>(std::move(owner));  // never freed, by design
}

}  // namespace bfly::detail::fork_guard
