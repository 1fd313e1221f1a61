// NCCL loaded with dlopen (nccl.hpp). The declarations below are NCCL's
// (nccl.h, stable since 2.7): opaque communicators, a 128-byte unique id,
// int results; byte transfers use ncclUint8 (1).
#include "distributed/nccl.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "backends/cuda/driver_api.hpp"
#include "distributed/agree.hpp"

namespace bfly::distributed::detail {

namespace {

using ncclComm_t = struct ncclComm*;
using ncclResult_t = int;
struct ncclUniqueId {
  char internal[128];
};
constexpr int kNcclUint8 = 1;

struct Api {
  ncclResult_t (*GetVersion)(int*) = nullptr;
  ncclResult_t (*GetUniqueId)(ncclUniqueId*) = nullptr;
  ncclResult_t (*CommInitRank)(ncclComm_t*, int, ncclUniqueId, int) = nullptr;
  ncclResult_t (*CommInitAll)(ncclComm_t*, int, const int*) = nullptr;
  ncclResult_t (*CommDestroy)(ncclComm_t) = nullptr;
  ncclResult_t (*GroupStart)() = nullptr;
  ncclResult_t (*GroupEnd)() = nullptr;
  ncclResult_t (*Send)(const void*, std::size_t, int, int, ncclComm_t, void*) = nullptr;
  ncclResult_t (*Recv)(void*, std::size_t, int, int, ncclComm_t, void*) = nullptr;
  ncclResult_t (*AlltoAll)(const void*, void*, std::size_t, int, ncclComm_t, void*) = nullptr;  // 2.28+
  const char* (*GetErrorString)(ncclResult_t) = nullptr;
  int version = 0;
  std::string why;
};

template <class F>
bool load(void* handle, F*& slot, const char* name, std::string& why) {
  slot = reinterpret_cast<F*>(dlsym(handle, name));
  if (!slot) why = std::string("libnccl.so.2 lacks ") + name;
  return slot != nullptr;
}

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
    void* handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      a.why = "NCCL not found (libnccl.so.2: " + std::string(e ? e : "dlopen failed") + ")";
      return;
    }
    const bool all =
        load(handle, a.GetVersion, "ncclGetVersion", a.why) && load(handle, a.GetUniqueId, "ncclGetUniqueId", a.why) &&
        load(handle, a.CommInitRank, "ncclCommInitRank", a.why) &&
        load(handle, a.CommDestroy, "ncclCommDestroy", a.why) && load(handle, a.GroupStart, "ncclGroupStart", a.why) &&
        load(handle, a.GroupEnd, "ncclGroupEnd", a.why) && load(handle, a.Send, "ncclSend", a.why) &&
        load(handle, a.Recv, "ncclRecv", a.why) && load(handle, a.GetErrorString, "ncclGetErrorString", a.why);
    if (!all) {
      a.GetVersion = nullptr;
      return;
    }
    a.AlltoAll = reinterpret_cast<decltype(a.AlltoAll)>(dlsym(handle, "ncclAlltoAll"));
    a.CommInitAll = reinterpret_cast<decltype(a.CommInitAll)>(dlsym(handle, "ncclCommInitAll"));
    if (a.GetVersion(&a.version) != 0) a.version = 0;
  });
  return a;
}

void check(ncclResult_t result, const char* call) {
  if (result == 0) return;
  throw Error(ErrorCode::Device,
              std::string("bfly::distributed: ") + call + " failed: " + api().GetErrorString(result));
}

// The CUDA device ordinal of a "cuda:N" spec.
int ordinal_of(const Device& device) {
  const std::string& spec = device.info().spec;
  if (device.info().backend != "cuda" || spec.rfind("cuda:", 0) != 0)
    throw Error(ErrorCode::Unsupported, "bfly::distributed: the NCCL transport needs a CUDA device, not " + spec);
  return std::stoi(spec.substr(5));
}

}  // namespace

bool nccl_available(std::string* why) {
  const Api& a = api();
  if (!a.GetVersion && why) *why = a.why;
  return a.GetVersion != nullptr;
}

int nccl_version() { return api().version; }

bool nccl_suits(MPI_Comm comm, const Device& device) {
  // This rank's host and device as one number (-1: NCCL cannot serve it).
  std::int64_t mine = -1;
  if (device.info().backend == "cuda" && nccl_available()) {
    char host[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    check_mpi(MPI_Get_processor_name(host, &length), "MPI_Get_processor_name");
    mine = static_cast<std::int64_t>(fingerprint(std::string(host, length) + "/" + device.info().spec) >> 1);
  }
  int ranks = 1;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  std::vector<std::int64_t> all(static_cast<std::size_t>(ranks));
  check_mpi(MPI_Allgather(&mine, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
  std::sort(all.begin(), all.end());
  return all.front() >= 0 && std::adjacent_find(all.begin(), all.end()) == all.end();
}

struct NcclComm::State {
  ncclComm_t comm = nullptr;
  bfly::detail::cuda::CUcontext context = nullptr;
  int ordinal = 0;
};

NcclComm::NcclComm(MPI_Comm comm, const Device& device) : state_(std::make_unique<State>()) {
  std::string why;
  int rank = 0, ranks = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  ncclUniqueId id{};
  // Every rank learns whether NCCL and its device are usable before the
  // broadcast and the (blocking, collective) init.
  together(comm, [&] {
    state_->ordinal = ordinal_of(device);
    if (!nccl_available(&why)) throw Error(ErrorCode::Unsupported, "bfly::distributed: " + why);
    std::string driver_why;
    const auto* driver = bfly::detail::cuda::driver(&driver_why);
    if (!driver) throw Error(ErrorCode::Device, "bfly::distributed: " + driver_why);
    bfly::detail::cuda::CUdevice handle = 0;
    bfly::detail::cuda::check(driver->cuDeviceGet(&handle, state_->ordinal), "cuDeviceGet");
    bfly::detail::cuda::check(driver->cuDevicePrimaryCtxRetain(&state_->context, handle), "cuDevicePrimaryCtxRetain");
    make_current();
    if (rank == 0) check(api().GetUniqueId(&id), "ncclGetUniqueId");
  });
  check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm), "MPI_Bcast");
  together(comm, [&] { check(api().CommInitRank(&state_->comm, ranks, id, rank), "ncclCommInitRank"); });
}

NcclComm::~NcclComm() {
  if (state_->comm) api().CommDestroy(state_->comm);
  // The primary context stays retained: the bfly device holds it too.
}

void NcclComm::make_current() const {
  bfly::detail::cuda::check(bfly::detail::cuda::driver()->cuCtxSetCurrent(state_->context), "cuCtxSetCurrent");
}

void NcclComm::begin() const { check(api().GroupStart(), "ncclGroupStart"); }
void NcclComm::end() const { check(api().GroupEnd(), "ncclGroupEnd"); }

void NcclComm::send(std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const {
  check(api().Send(reinterpret_cast<const void*>(pointer), bytes, kNcclUint8, peer, state_->comm, stream), "ncclSend");
}

void NcclComm::receive(std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const {
  check(api().Recv(reinterpret_cast<void*>(pointer), bytes, kNcclUint8, peer, state_->comm, stream), "ncclRecv");
}

void NcclComm::all_to_all(std::uintptr_t send, std::uintptr_t receive, std::size_t bytes, void* stream) const {
  make_current();
  if (api().AlltoAll) {
    check(api().AlltoAll(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(receive), bytes, kNcclUint8,
                         state_->comm, stream),
          "ncclAlltoAll");
    return;
  }
  throw Error(ErrorCode::Unsupported,
              "bfly::distributed: this NCCL (" + std::to_string(api().version) + ") has no ncclAlltoAll (2.28+)");
}

struct NcclClique::State {
  std::vector<ncclComm_t> comms;
  std::vector<bfly::detail::cuda::CUcontext> contexts;
};

NcclClique::NcclClique(const std::vector<Device>& devices) : state_(std::make_unique<State>()) {
  std::vector<int> ordinals;
  for (const Device& device : devices) {
    const int ordinal = ordinal_of(device);
    if (std::find(ordinals.begin(), ordinals.end(), ordinal) != ordinals.end())
      throw Error(ErrorCode::Unsupported, "bfly::distributed: NCCL in one process needs a different GPU a part; " +
                                              device.info().spec + " comes twice");
    ordinals.push_back(ordinal);
  }
  std::string why;
  if (!nccl_available(&why)) throw Error(ErrorCode::Unsupported, "bfly::distributed: " + why);
  if (!api().CommInitAll) throw Error(ErrorCode::Unsupported, "bfly::distributed: this NCCL has no ncclCommInitAll");
  std::string driver_why;
  const auto* driver = bfly::detail::cuda::driver(&driver_why);
  if (!driver) throw Error(ErrorCode::Device, "bfly::distributed: " + driver_why);
  for (int ordinal : ordinals) {
    bfly::detail::cuda::CUdevice handle = 0;
    bfly::detail::cuda::CUcontext context = nullptr;
    bfly::detail::cuda::check(driver->cuDeviceGet(&handle, ordinal), "cuDeviceGet");
    bfly::detail::cuda::check(driver->cuDevicePrimaryCtxRetain(&context, handle), "cuDevicePrimaryCtxRetain");
    state_->contexts.push_back(context);
  }
  state_->comms.resize(ordinals.size());
  check(api().CommInitAll(state_->comms.data(), static_cast<int>(ordinals.size()), ordinals.data()), "ncclCommInitAll");
}

NcclClique::~NcclClique() {
  for (ncclComm_t comm : state_->comms)
    if (comm) api().CommDestroy(comm);
}

int NcclClique::size() const { return static_cast<int>(state_->comms.size()); }
void NcclClique::begin() const { check(api().GroupStart(), "ncclGroupStart"); }
void NcclClique::end() const { check(api().GroupEnd(), "ncclGroupEnd"); }

void NcclClique::send(int member, std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const {
  bfly::detail::cuda::check(bfly::detail::cuda::driver()->cuCtxSetCurrent(state_->contexts[member]), "cuCtxSetCurrent");
  check(api().Send(reinterpret_cast<const void*>(pointer), bytes, kNcclUint8, peer, state_->comms[member], stream),
        "ncclSend");
}

void NcclClique::receive(int member, std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const {
  bfly::detail::cuda::check(bfly::detail::cuda::driver()->cuCtxSetCurrent(state_->contexts[member]), "cuCtxSetCurrent");
  check(api().Recv(reinterpret_cast<void*>(pointer), bytes, kNcclUint8, peer, state_->comms[member], stream),
        "ncclRecv");
}

}  // namespace bfly::distributed::detail

namespace bfly::distributed {
int nccl_version() { return detail::nccl_version(); }
}  // namespace bfly::distributed
