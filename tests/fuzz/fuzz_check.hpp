// What a fuzz harness asserts beyond "no crash": a broken promise ends the run with a message, and
// libFuzzer keeps the input that broke it.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hs::fuzz {

[[noreturn]] inline void broken(const char* promise, const std::string& detail) {
  std::fprintf(stderr, "fuzz: broken promise: %s\n%s\n", promise, detail.c_str());
  std::abort();
}

}  // namespace hs::fuzz

#define HS_FUZZ_CHECK(cond, detail)                   \
  do {                                                \
    if (!(cond)) ::hs::fuzz::broken(#cond, (detail)); \
  } while (0)
