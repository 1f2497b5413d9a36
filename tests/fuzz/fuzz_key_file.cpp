// Key files: any bytes, read in any format for 32- or 64-bit keys, either give a key list or are
// refused with an error that names the file. A list holds distinct keys of its width only, none
// reserved, and its report accounts for every record: each line (or word) is a key kept, a
// duplicate, a string that shares a key with another, reserved, unreadable, blank or the header.
// The input's first byte chooses the format, the width and a CSV column; the rest is the file.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_set>

#include "core/common/error.hpp"
#include "core/workload/key_file.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using hs::key_width;
using hs::workload::key_format;

constexpr key_format k_formats[] = {key_format::automatic, key_format::decimal, key_format::hex,
                                    key_format::text,      key_format::u32le,   key_format::u64le};
constexpr const char* k_extensions[] = {".txt", ".csv", ".u32", ".u64"};

template <class K>
void check_list(const std::vector<K>& keys, const hs::workload::key_file_report& r,
                const std::string& summary) {
  std::unordered_set<K> seen;
  for (const K k : keys) {
    HS_FUZZ_CHECK(!hs::key_limits<K>::reserved_key(k), summary);
    HS_FUZZ_CHECK(seen.insert(k).second, "a key kept twice: " + summary);
  }
  HS_FUZZ_CHECK(keys.size() == r.keys, summary);
  const std::uint64_t accounted = r.keys + r.duplicates + r.colliding_strings + r.reserved +
                                  r.unreadable + r.blank + (r.header ? 1 : 0);
  HS_FUZZ_CHECK(accounted == r.records, summary + " (" + std::to_string(accounted) + " of " +
                                            std::to_string(r.records) + " records accounted for)");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  hs::workload::key_file_spec spec;
  spec.format = k_formats[choice % 6];
  spec.width = (choice / 6) % 2 ? key_width::bits64 : key_width::bits32;
  spec.column = (choice / 12) % 3;  // 0: whole lines, else a CSV column
  spec.path =
      "/tmp/hs_fuzz_key_file_" + std::to_string(::getpid()) + k_extensions[(choice / 36) % 4];
  std::ofstream(spec.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  std::shared_ptr<const hs::workload::key_list> list;
  try {
    list = hs::workload::load_key_file(spec);
  } catch (const hs::user_error& e) {
    std::remove(spec.path.c_str());
    HS_FUZZ_CHECK(std::string(e.what()).rfind(spec.path + ":", 0) == 0, e.what());
    return 0;
  }
  std::remove(spec.path.c_str());
  const hs::workload::key_file_report& r = list->report;
  const std::string summary = r.summary();
  HS_FUZZ_CHECK(r.width == spec.width, summary);
  if (spec.width == key_width::bits64) {
    HS_FUZZ_CHECK(list->keys.empty(), summary);
    check_list(list->wide_keys, r, summary);
  } else {
    HS_FUZZ_CHECK(list->wide_keys.empty(), summary);
    check_list(list->keys, r, summary);
  }
  HS_FUZZ_CHECK(r.keys > 0, "a list without keys was not refused: " + summary);
  return 0;
}
