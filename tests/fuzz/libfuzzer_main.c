/* libfuzzer_main.c: one libFuzzer binary per target; FUZZ_TARGET names it
 * at compile time (make fuzz). */
#include "targets.h"

#define CAT(a, b) a##b
#define TARGET(name) CAT(fuzz_, name)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return TARGET(FUZZ_TARGET)(data, size); }
