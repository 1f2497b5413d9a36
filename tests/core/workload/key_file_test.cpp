// Key files: every format read into the distinct valid keys in file order, every skipped record
// counted with its line, and every bad file refused with its name and line.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/common/error.hpp"
#include "core/workload/key_file.hpp"

using namespace hs;
using namespace hs::workload;

namespace {

std::filesystem::path temp_dir() {
  const auto d = std::filesystem::temp_directory_path() / "hs_key_file_test";
  std::filesystem::create_directories(d);
  return d;
}

std::string write_file(const std::string& name, const std::string& bytes) {
  const auto path = (temp_dir() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string refusal(const key_file_spec& spec) {
  try {
    load_key_file(spec);
  } catch (const user_error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

/// "student-0" to "student-(n-1)", a line each: distinct words, some of which share a 32-bit key.
std::string student_words(int n) {
  std::string words;
  for (int i = 0; i < n; ++i) words += "student-" + std::to_string(i) + "\n";
  return words;
}

}  // namespace

TEST_CASE("a decimal key file keeps its distinct valid keys in order and counts the rest",
          "[workload][keys]") {
  const std::string path =
      write_file("decimal.txt", "12\r\n44\n7\n\n44\n4294967295\nseven\n99999999999\n  8  \n12");
  const auto list = load_key_file({path});
  CHECK(list->keys == std::vector<key_type>{12, 44, 7, 8});
  const key_file_report& r = list->report;
  CHECK(r.format == key_format::decimal);
  CHECK(r.records == 10);
  CHECK(r.keys == 4);
  CHECK(r.duplicates == 2);
  CHECK(r.reserved == 1);
  CHECK(r.unreadable == 2);
  CHECK(r.blank == 1);
  REQUIRE(r.first_issues.size() == 3);
  CHECK(r.first_issues[0].line == 6);
  CHECK(contains(r.first_issues[0].what, "reserved"));
  CHECK(r.first_issues[1].line == 7);
  CHECK(contains(r.first_issues[1].what, "'seven': not a decimal number"));
  CHECK(r.first_issues[2].line == 8);
  CHECK(contains(r.first_issues[2].what, "out of the 32-bit range"));
  CHECK(contains(r.summary(), "4 keys (decimal) from 10 lines: 2 duplicates, 1 reserved"));
  CHECK(contains(r.summary(), "line 6: 0xffffffff is a reserved key"));
}

TEST_CASE("a byte-order mark before the first line is no part of its key", "[workload][keys]") {
  const auto list = load_key_file({write_file("bom.csv",
                                              "\xEF\xBB\xBF"
                                              "id\n17\n42\n"),
                                   1});
  CHECK(list->keys == std::vector<key_type>{17, 42});
  CHECK(list->report.header);
  const auto plain = load_key_file({write_file("bom.txt",
                                               "\xEF\xBB\xBF"
                                               "5\n6\n")});
  CHECK(plain->keys == std::vector<key_type>{5, 6});
  CHECK(plain->report.unreadable == 0);
}

TEST_CASE("hex keys are read with or without 0x; the first key decides an automatic format",
          "[workload][keys]") {
  const auto list = load_key_file({write_file("hex.txt", "0x10\n0XfF\nab\n0x1g\n")});
  CHECK(list->report.format == key_format::hex);
  CHECK(list->keys == std::vector<key_type>{0x10, 0xff, 0xab});
  CHECK(list->report.unreadable == 1);
  const auto forced = load_key_file({write_file("hex2.txt", "10\n20\n"), 0, key_format::hex});
  CHECK(forced->keys == std::vector<key_type>{0x10, 0x20});
}

TEST_CASE("text keys go through the named string hash, and collisions are counted",
          "[workload][keys]") {
  // FNV-1a 32-bit test vectors (Fowler, Noll and Vo's published values).
  CHECK(text_key("") == 0x811c9dc5u);
  CHECK(text_key("a") == 0xe40c292cu);
  CHECK(text_key("foobar") == 0xbf9cf968u);
  const int n = 200000;  // enough distinct words that some share a 32-bit key
  std::string words = student_words(n);
  words += "student-7\nstudent-7\n";  // two duplicates of a word
  words += "dee18938\nflo33712\n";    // two distinct words with one FNV-1a key (found by search)
  const auto list = load_key_file({write_file("words.txt", words)});
  REQUIRE(text_key("dee18938") == text_key("flo33712"));
  std::unordered_map<key_type, int> by_key;
  for (int i = 0; i < n; ++i) ++by_key[text_key("student-" + std::to_string(i))];
  ++by_key[text_key("dee18938")];
  ++by_key[text_key("flo33712")];
  const std::uint64_t colliding = n + 2 - by_key.size();
  const key_file_report& r = list->report;
  CHECK(r.format == key_format::text);
  CHECK(r.distinct_strings == static_cast<std::uint64_t>(n) + 2);
  CHECK(r.keys == by_key.size());
  CHECK(r.colliding_strings == colliding);
  CHECK(r.duplicates == 2);
  CHECK(list->keys.front() == text_key("student-0"));
  CHECK(colliding >= 1);
  CHECK(contains(r.summary(), std::to_string(colliding) + " distinct string"));
}

TEST_CASE("a CSV column is read past its header, with quotes, and short rows are counted",
          "[workload][keys]") {
  const std::string csv =
      "name,id,year\n"
      "ada,1001,2026\n"
      "\"lovelace, a\",\"1002\",2026\n"
      "short\n"
      "bob,1001,2027\n";
  const auto list = load_key_file({write_file("ids.csv", csv), 2});
  CHECK(list->keys == std::vector<key_type>{1001, 1002});
  CHECK(list->report.header);
  CHECK(list->report.duplicates == 1);
  CHECK(list->report.unreadable == 1);
  REQUIRE(list->report.first_issues.size() == 1);
  CHECK(list->report.first_issues[0].line == 4);
  CHECK(list->report.first_issues[0].what == "1 column, column 2 asked");
  const auto names = load_key_file({write_file("ids2.csv", csv), 1, key_format::text});
  CHECK(names->keys.size() == 5);  // text keeps the header row as a key: nothing to tell it apart
  CHECK(names->keys[1] == text_key("ada"));
  CHECK(names->keys[2] == text_key("lovelace, a"));
}

TEST_CASE("raw little-endian words are keys; a size that is not a multiple of 4 is refused",
          "[workload][keys]") {
  const std::string words("\x01\x00\x00\x00\xff\xff\xff\xff\x02\x01\x00\x00\x01\x00\x00\x00", 16);
  const auto list = load_key_file({write_file("keys.u32", words)});
  CHECK(list->report.format == key_format::u32le);
  CHECK(list->keys == std::vector<key_type>{1, 0x102});
  CHECK(list->report.reserved == 1);
  CHECK(list->report.duplicates == 1);
  CHECK(list->report.first_issues.at(0).line == 2);
  const std::string odd = refusal({write_file("odd.bin", std::string(10, '\x01'))});
  CHECK(contains(odd, "odd.bin: 10 bytes is not a whole number of 32-bit keys"));
}

TEST_CASE("bad key files are refused with the file and the line", "[workload][keys]") {
  CHECK(contains(refusal({(temp_dir() / "no-such-file.txt").string()}),
                 "no-such-file.txt: cannot read the key file"));
  CHECK(contains(refusal({write_file("empty.txt", "")}), "empty.txt: the key file is empty"));
  CHECK(contains(refusal({write_file("blank.txt", "\n\n  \n")}),
                 "blank.txt: no valid key in 3 lines (every line is blank)"));
  CHECK(contains(refusal({write_file("invalid.txt", "1x\n2y\n"), 0, key_format::decimal}),
                 "invalid.txt: no valid key in 2 lines (line 1: '1x': not a decimal number)"));
  CHECK(contains(refusal({write_file("nocol.csv", "1,2\n3,4\n"), 3}),
                 "nocol.csv: no valid key in 2 lines (line 1: 2 columns, column 3 asked)"));
  CHECK(contains(refusal({write_file("latin1.txt", "caf\xe9\nok\n")}),
                 "latin1.txt:1: not UTF-8 text (byte 0xe9 at column 4)"));
  CHECK(contains(
      refusal({write_file("long.txt", "1\n2\n" + std::string(k_max_line_bytes + 10, 'x'))}),
      "long.txt:3: a line longer than 1 MiB"));
  CHECK(contains(refusal({""}), "no path given"));
}

TEST_CASE("a key file larger than a chunk reads whole, with progress to its end",
          "[workload][keys]") {
  std::string text;
  const key_type n = 2'000'000;  // about 16 MB: lines cross the 8 MiB chunks
  for (key_type i = 0; i < n; ++i) text += std::to_string(1'000'000'000u + i * 3u) + "\n";
  const std::string path = write_file("large.txt", text);
  std::uint64_t last_done = 0, total = 0, calls = 0;
  const auto list = load_key_file({path}, [&](std::uint64_t done, std::uint64_t all) {
    CHECK(done >= last_done);
    last_done = done;
    total = all;
    ++calls;
  });
  REQUIRE(list->keys.size() == n);
  CHECK(list->keys[0] == 1'000'000'000u);
  CHECK(list->keys[n / 2] == 1'000'000'000u + (n / 2) * 3u);
  CHECK(list->keys.back() == 1'000'000'000u + (n - 1) * 3u);
  CHECK(calls >= 2);
  CHECK(last_done == total);
  CHECK(total == text.size());
}

TEST_CASE("a file of many chunks parsed at once keeps file order, line numbers and the first error",
          "[workload][keys]") {
  // 4,000,000 lines (about 44 MB: six 8 MiB chunks, parsed several at a time), with a reserved
  // key, an unreadable line, a blank line and a duplicate in different chunks.
  const std::uint64_t n = 4'000'000, reserved_at = 2'500'000, bad_at = 3'000'001,
                      blank_at = 1'234'567, repeat_at = 3'500'000;
  std::string text;
  std::vector<key_type> expected;
  std::unordered_set<key_type> seen;
  for (std::uint64_t line = 1; line <= n; ++line) {
    if (line == reserved_at) {
      text += "4294967295\n";
    } else if (line == bad_at) {
      text += "12abc\n";
    } else if (line == blank_at) {
      text += "\n";
    } else {
      const key_type k = line == repeat_at ? 1'000'000'010u : 1'000'000'000u + line;
      text += std::to_string(k) + "\n";
      if (seen.insert(k).second) expected.push_back(k);
    }
  }
  const auto list = load_key_file({write_file("many-chunks.txt", text)});
  CHECK(list->keys == expected);
  const key_file_report& r = list->report;
  CHECK(r.records == n);
  CHECK(r.reserved == 1);
  CHECK(r.unreadable == 1);
  CHECK(r.blank == 1);
  CHECK(r.duplicates == 1);
  REQUIRE(r.first_issues.size() == 2);
  CHECK(r.first_issues[0].line == reserved_at);
  CHECK(r.first_issues[1].line == bad_at);
  // Two lines that stop the read, in different chunks: the first is named, by its line.
  std::string broken = text;
  const auto line_start = [&](std::uint64_t line) {
    std::size_t at = 0;
    for (std::uint64_t l = 1; l < line; ++l) at = broken.find('\n', at) + 1;
    return at;
  };
  broken[line_start(3'900'000)] = '\xff';
  broken[line_start(1'700'000)] = '\xfe';
  CHECK(contains(refusal({write_file("many-chunks-broken.txt", broken)}),
                 "many-chunks-broken.txt:1700000: not UTF-8 text (byte 0xfe at column 1)"));
}

TEST_CASE("a file past 128 MiB is checked for duplicates by several threads, still in file order",
          "[workload][keys]") {
  // Files that may hold more than 2^26 keys mark the keys seen as bits, each thread its part of
  // them: the first of each value must still be the one kept, wherever its chunk was parsed.
  const std::uint64_t n = 15'500'000;  // 9 bytes a line: about 140 MB
  std::string text;
  text.reserve(n * 9);
  std::vector<key_type> expected;
  std::vector<bool> seen(60'000'000);
  std::uint64_t duplicates = 0;
  char line[16];
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto k =
        static_cast<key_type>(10'000'000 + ((i + 1) * 0x9e3779b97f4a7c15ull >> 20) % 50'000'000);
    const int len = std::snprintf(line, sizeof line, "%u\n", k);
    text.append(line, static_cast<std::size_t>(len));
    if (seen[k])
      ++duplicates;
    else
      seen[k] = true, expected.push_back(k);
  }
  REQUIRE(text.size() > (128u << 20));
  REQUIRE(duplicates > 0);
  const auto list = load_key_file({write_file("past-128-mib.txt", text)});
  CHECK(list->report.records == n);
  CHECK(list->report.duplicates == duplicates);
  CHECK(list->keys == expected);
  std::filesystem::remove(temp_dir() / "past-128-mib.txt");
}

TEST_CASE("typed keys: numbers, hex and words; an entry that is neither is named",
          "[workload][keys]") {
  using keys = std::vector<std::uint64_t>;
  CHECK(parse_key_list("12, 44, 7") == keys{12, 44, 7});
  CHECK(parse_key_list("0x1f ada,,  bob") == keys{0x1f, text_key("ada"), text_key("bob")});
  CHECK_THROWS_WITH(parse_key_list("12, 12abc, 7"),
                    Catch::Matchers::ContainsSubstring("'12abc' is neither a key"));
  CHECK_THROWS_WITH(parse_key_list("4294967295"),
                    Catch::Matchers::ContainsSubstring("'4294967295' is a reserved key"));
  CHECK_THROWS_WITH(parse_key_list("99999999999"),
                    Catch::Matchers::ContainsSubstring(
                        "'99999999999' has more than 32 bits: this table holds 32-bit keys"));
  CHECK_THROWS_WITH(parse_key_list("99999999999999999999", key_width::bits64),
                    Catch::Matchers::ContainsSubstring("out of the 64-bit range"));
  CHECK_THROWS_WITH(parse_key_list(" , "), Catch::Matchers::ContainsSubstring("no keys typed"));
}

TEST_CASE(
    "typed keys for a 64-bit table: up to the largest unreserved key, words through FNV-1a 64",
    "[workload][keys]") {
  using keys = std::vector<std::uint64_t>;
  CHECK(parse_key_list("99999999999, 0x1234567890abcdef 4294967295", key_width::bits64) ==
        keys{99999999999ull, 0x1234567890abcdefull, 0xffffffffull});  // 2^32-1: an ordinary key
  CHECK(parse_key_list("0xfffffffffffffffd", key_width::bits64) == keys{0xfffffffffffffffdull});
  CHECK_THROWS_WITH(parse_key_list("0xfffffffffffffffe", key_width::bits64),
                    Catch::Matchers::ContainsSubstring("is a reserved key"));
  // The 64-bit words are FNV-1a 64 (its published test vector for "a"), the 32-bit ones FNV-1a 32.
  CHECK(parse_key_list("a", key_width::bits64) == keys{0xaf63dc4c8601ec8cull});
  CHECK(parse_key_list("a") == keys{0xe40c292cu});
  CHECK(text_key_64("ada") != text_key("ada"));
}

TEST_CASE("typed keys are shown as they were written: decimal only when every key is a number",
          "[workload][keys]") {
  CHECK(radix_of_key_list("12, 76 140") == key_radix::decimal);
  CHECK(radix_of_key_list("12, 0x4c") == key_radix::hex);  // one hex key: hex
  CHECK(radix_of_key_list("0X1F") == key_radix::hex);
  CHECK(radix_of_key_list("12 ada") == key_radix::hex);  // a word's key is a hash
  CHECK(radix_of_key_list(" , ") == key_radix::hex);     // no keys: the generator's way
}

TEST_CASE("a key file read for 64-bit keys takes keys up to the largest unreserved one",
          "[workload][keys][wide]") {
  const std::string path = write_file("wide.txt",
                                      "12\n18446744073709551613\n18446744073709551614\n4294967295\n"
                                      "99999999999999999999\n12\n");
  key_file_spec spec{path};
  spec.width = key_width::bits64;
  const auto list = load_key_file(spec);
  CHECK(list->keys.empty());
  CHECK(list->wide_keys == std::vector<wide_key>{12, 0xfffffffffffffffdull, 0xffffffffull});
  CHECK(list->size() == 3);
  const key_file_report& r = list->report;
  CHECK(r.reserved == 1);  // 2^64 - 2, the tombstone
  CHECK(r.unreadable == 1);
  CHECK(r.duplicates == 1);
  CHECK(r.first_issues.at(0).line == 3);
  CHECK(contains(r.first_issues.at(0).what, "0xfffffffffffffffe is a reserved key"));
  CHECK(r.first_issues.at(1).line == 5);
  CHECK(contains(r.first_issues.at(1).what, "out of the 64-bit range"));
  const auto hex =
      load_key_file({write_file("wide-hex.txt", "0x1234567890abcdef\nffffffffffffffff\n"), 0,
                     key_format::automatic, key_width::bits64});
  CHECK(hex->wide_keys == std::vector<wide_key>{0x1234567890abcdefull});
  CHECK(hex->report.reserved == 1);
  // The same file read for a 32-bit table: the wide keys are unreadable with their lines, never
  // truncated to their low half.
  const auto narrow = load_key_file({path});
  CHECK(narrow->keys == std::vector<key_type>{12});
  CHECK(narrow->report.unreadable == 3);
  CHECK(narrow->report.first_issues.at(0).line == 2);
  CHECK(contains(narrow->report.first_issues.at(0).what, "out of the 32-bit range"));
}

TEST_CASE("words read for 64-bit keys go through FNV-1a 64; the words 32 bits collide stay apart",
          "[workload][keys][wide]") {
  // FNV-1a 64-bit test vectors (Fowler, Noll and Vo's published values).
  CHECK(text_key_64("") == 0xcbf29ce484222325ull);
  CHECK(text_key_64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(text_key_64("foobar") == 0x85944171f73967e8ull);
  const int n = 200000;  // at 32 bits some of these share a key (the test above)
  std::string words = student_words(n);
  words += "student-7\ndee18938\nflo33712\n";  // a duplicate; two words of one 32-bit key
  key_file_spec spec{write_file("words64.txt", words)};
  spec.width = key_width::bits64;
  const auto list = load_key_file(spec);
  const key_file_report& r = list->report;
  CHECK(r.format == key_format::text);
  CHECK(r.distinct_strings == static_cast<std::uint64_t>(n) + 2);
  CHECK(r.keys == static_cast<std::uint64_t>(n) + 2);
  CHECK(r.colliding_strings == 0);
  CHECK(r.duplicates == 1);
  CHECK(list->wide_keys.front() == text_key_64("student-0"));
  CHECK(list->wide_keys.back() == text_key_64("flo33712"));
  CHECK(contains(r.summary(), "200,002 keys (text)"));
}

TEST_CASE("raw 64-bit words (u64le) are keys of either width; a wider word for 32 bits is named",
          "[workload][keys][wide]") {
  std::string bytes;
  for (const std::uint64_t w : std::initializer_list<std::uint64_t>{
           1, 0xfffffffffffffffeull, 0x100000002ull, 1, 0xffffffff}) {
    char b[8];
    std::memcpy(b, &w, 8);
    bytes.append(b, 8);
  }
  const std::string path = write_file("keys.u64", bytes);
  key_file_spec spec{path};
  spec.width = key_width::bits64;
  const auto list = load_key_file(spec);
  CHECK(list->report.format == key_format::u64le);
  CHECK(list->wide_keys == std::vector<wide_key>{1, 0x100000002ull, 0xffffffffull});
  CHECK(list->report.reserved == 1);
  CHECK(list->report.duplicates == 1);
  CHECK(list->report.first_issues.at(0).line == 2);
  const auto narrow = load_key_file({path});
  CHECK(narrow->keys == std::vector<key_type>{1});
  CHECK(narrow->report.unreadable == 2);  // the two words past 32 bits
  CHECK(narrow->report.reserved == 1);    // 0xffffffff: reserved among 32-bit keys
  CHECK(contains(narrow->report.summary(),
                 "word 2: 0xfffffffffffffffe has more than 32 bits: this table holds 32-bit keys"));
  spec.path = write_file("odd.u64", std::string(12, '\x01'));
  CHECK(contains(refusal(spec), "odd.u64: 12 bytes is not a whole number of 64-bit keys (u64le)"));
  // 32-bit words read for 64-bit keys: 0xffffffff is an ordinary key there.
  spec.path = write_file("keys32.u32", std::string("\xff\xff\xff\xff\x05\x00\x00\x00", 8));
  CHECK(load_key_file(spec)->wide_keys == std::vector<wide_key>{0xffffffffull, 5});
}
