// NVTX ranges (see nvtx.hpp), in tegula's own domain.
#include "tegula/support/nvtx.hpp"

#include <nvtx3/nvToolsExt.h>

namespace tegula {
namespace {

nvtxDomainHandle_t domain() {
  static nvtxDomainHandle_t d = nvtxDomainCreateA("tegula");
  return d;
}

}  // namespace

void nvtx_push(const std::string& name) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = name.c_str();
  nvtxDomainRangePushEx(domain(), &a);
}

void nvtx_pop() { nvtxDomainRangePop(domain()); }

}  // namespace tegula
