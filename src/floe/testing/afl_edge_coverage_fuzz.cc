// Linked into every fuzzer (see floe_add_fuzzer): g++'s -fsanitize-coverage=trace-pc calls
// __sanitizer_cov_trace_pc at the start of every basic block, and this hook records the edge from
// the previous block into AFL++'s coverage map (__afl_area_ptr, from afl-compiler-rt.o), the way
// AFL's own instrumentation does: a block's id is a hash of its address, an edge's slot is
// id ^ (previous id >> 1), so A->B and B->A differ. Addresses are taken relative to the start of
// the executable, so that the same block keeps its slot from one run to the next despite ASLR.

#include <cstdint>

extern "C" {

extern uint8_t* __afl_area_ptr;     // afl-compiler-rt.o: the shared map while under afl-fuzz
extern const char __executable_start[];  // the linker's: the first byte of the executable

}

namespace {

// The size of AFL++'s default map (MAP_SIZE); the runtime's map before afl-fuzz attaches is as large.
constexpr uintptr_t kMapMask = (uintptr_t{1} << 16) - 1;

thread_local uintptr_t previous_block = 0;

}  // namespace

extern "C" __attribute__((no_sanitize_coverage, no_sanitize("address", "undefined"))) void
__sanitizer_cov_trace_pc() {
  uintptr_t pc = reinterpret_cast<uintptr_t>(__builtin_return_address(0)) -
                 reinterpret_cast<uintptr_t>(__executable_start);
  uintptr_t block = ((pc * 0x9E3779B97F4A7C15u) >> 40) & kMapMask;
  ++__afl_area_ptr[block ^ previous_block];
  previous_block = block >> 1;
}
