// Linked into every fuzzer built with g++ (see floe_add_fuzzer): g++'s
// -fsanitize-coverage=trace-cmp also reports floating-point comparisons, which libFuzzer has no
// hooks for. They carry no useful signal for byte-input fuzzing, so they are accepted and ignored.

#include <cstdint>

extern "C" {
void __sanitizer_cov_trace_cmpf(float, float) {}
void __sanitizer_cov_trace_cmpd(double, double) {}
}
