// Reading key files: chunked, line by line, with every skipped record counted.
#include "core/workload/key_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>

#include <sys/mman.h>

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::workload {

namespace {

constexpr std::size_t k_chunk_bytes = 8u << 20;

// Which 32-bit keys were seen: an open-addressing set sized to what it holds, and a bit per key
// (512 MiB) once the set would be larger than that (past 2^26 keys), or from the start for a file
// that may hold that many, so a small file costs little and 10^8 keys at most the bits. Every
// check is a random access into memory larger than the caches: the reader prefetches a key's
// place k_keys_ahead keys before it checks it.
class seen_keys {
 public:
  /// @brief Takes the bits at once when the file may hold more than the set would before them.
  void expect(std::uint64_t most_keys) {
    if (most_keys > k_bitset_words * sizeof(std::uint64_t) / (2 * sizeof(key_type))) take_bits();
  }
  // Always inlined: GCC 12 found this function free of side effects and deleted its calls, so no
  // prefetch was ever issued (seen in the assembly; 11.2 s for 10^8 keys).
  [[gnu::always_inline]] void prefetch(key_type k) const {
    if (bits_)
      __builtin_prefetch(bits_ + (k >> 6), 1);
    else if (slot_data_)
      __builtin_prefetch(slot_data_ + ((k * 0x9e3779b1u) & slot_mask_), 1);
  }
  seen_keys() = default;
  seen_keys(const seen_keys&) = delete;
  seen_keys& operator=(const seen_keys&) = delete;
  ~seen_keys() { std::free(bits_); }
  /// @brief Marks `k` (never k_empty); whether it was marked before.
  bool test_and_set(key_type k) {
    if (bits_) {
      std::uint64_t& word = bits_[k >> 6];
      const std::uint64_t bit = 1ull << (k & 63);
      const bool was = word & bit;
      word |= bit;
      return was;
    }
    if (2 * (size_ + 1) > slots_.size()) grow();
    if (bits_) return test_and_set(k);
    if (!insert(k)) return true;
    ++size_;
    return false;
  }

 private:
  static constexpr std::size_t k_bitset_words = (1ull << 32) / 64;

  bool insert(key_type k) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (k * 0x9e3779b1u) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == k) return false;
      if (slots_[i] == k_empty) {
        slots_[i] = k;
        return true;
      }
    }
  }

  void grow() {
    const std::size_t next = slots_.empty() ? 1024 : 2 * slots_.size();
    std::vector<key_type> old = std::move(slots_);
    if (next * sizeof(key_type) > k_bitset_words * sizeof(std::uint64_t)) {
      take_bits();
      for (const key_type k : old)
        if (k != k_empty) bits_[k >> 6] |= 1ull << (k & 63);
      return;
    }
    slots_.assign(next, k_empty);
    slot_data_ = slots_.data();
    slot_mask_ = slots_.size() - 1;
    for (const key_type k : old)
      if (k != k_empty) insert(k);
  }

  // The bits in 2 MiB pages where the kernel gives them (transparent huge pages on request): a
  // random bit in 4 KiB pages is a TLB miss as well as a cache miss, which prefetching does not
  // hide. 10^8 random decimal keys: 11.2 s with 4 KiB pages, measured in core/workload/README.md.
  void take_bits() {
    constexpr std::size_t bytes = k_bitset_words * sizeof(std::uint64_t), huge = 2u << 20;
    void* p = std::aligned_alloc(huge, bytes);
    if (!p) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // advice: without it the bits work, only slower
    std::memset(p, 0, bytes);
    bits_ = static_cast<std::uint64_t*>(p);
    slots_ = {};
    slot_data_ = nullptr;
  }

  std::vector<key_type> slots_;
  const key_type* slot_data_ = nullptr;
  std::size_t slot_mask_ = 0, size_ = 0;
  std::uint64_t* bits_ = nullptr;  // aligned_alloc'ed, freed by the destructor
};

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The offset of the first byte that breaks UTF-8 in `s`, or npos.
std::size_t invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    // ASCII eight bytes at a time: keys are mostly digits.
    if (i + 8 <= s.size()) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if (!(word & 0x8080808080808080ull)) {
        i += 8;
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t least = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xe0) == 0xc0)
      n = 1, least = 0x80;
    else if ((c & 0xf0) == 0xe0)
      n = 2, least = 0x800;
    else if ((c & 0xf8) == 0xf0)
      n = 3, least = 0x10000;
    else
      return i;
    if (i + n >= s.size()) return i;  // cut short
    std::uint32_t cp = c & (0x3fu >> n);
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;  // overlong
    i += n + 1;
  }
  return std::string_view::npos;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Field `column` (from 1) of a CSV row: fields split at commas outside double quotes; a quoted
// field loses its quotes, and "" inside it is one quote (kept in `scratch`). False when the row
// has fewer fields.
bool csv_field(std::string_view row, std::uint32_t column, std::string& scratch,
               std::string_view& field, std::uint32_t& fields) {
  fields = 0;
  std::size_t i = 0;
  while (true) {
    ++fields;
    scratch.clear();
    std::size_t start = i;
    bool quoted = false;
    while (i < row.size() && (row[i] == ' ' || row[i] == '\t')) ++i;
    if (i < row.size() && row[i] == '"') {
      quoted = true;
      ++i;
      while (i < row.size()) {
        if (row[i] == '"') {
          if (i + 1 < row.size() && row[i + 1] == '"') {
            scratch += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        scratch += row[i++];
      }
      while (i < row.size() && row[i] != ',') ++i;  // anything after the closing quote
    } else {
      while (i < row.size() && row[i] != ',') ++i;
    }
    if (fields == column) {
      field = quoted ? std::string_view(scratch) : row.substr(start, i - start);
      return true;
    }
    if (i >= row.size()) return false;
    ++i;  // the comma
  }
}

bool is_hex_prefixed(std::string_view s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A number in `base` filling `s`; why not, or empty.
std::string parse_number(std::string_view s, int base, std::uint64_t& out) {
  if (base == 16 && is_hex_prefixed(s)) s.remove_prefix(2);
  if (s.empty()) return "no digits";
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  if (r.ec == std::errc::result_out_of_range) return "out of the 32-bit range";
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
    return base == 16 ? "not a hex number" : "not a decimal number";
  if (out > 0xffffffffull) return "out of the 32-bit range";
  return {};
}

std::string quoted_excerpt(std::string_view s) {
  constexpr std::size_t k_shown = 40;
  std::string out = "'" + std::string(s.substr(0, k_shown));
  if (s.size() > k_shown) out += "...";
  return out + "'";
}

class key_reader {
 public:
  explicit key_reader(const key_file_spec& spec) : spec_(spec) {
    list_ = std::make_shared<key_list>();
    list_->source = spec;
  }

  std::shared_ptr<const key_list> read(const load_progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    std::error_code ec;
    const auto size = std::filesystem::file_size(spec_.path, ec);
    std::FILE* f = std::fopen(spec_.path.c_str(), "rb");
    if (!f || ec) {
      const std::string why = std::strerror(errno ? errno : ENOENT);
      if (f) std::fclose(f);
      throw user_error(spec_.path + ": cannot read the key file: " + why);
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(f, &std::fclose);
    report().bytes = size;
    if (size == 0) throw user_error(spec_.path + ": the key file is empty");
    format_ = spec_.format;
    if (format_ == key_format::automatic) {
      const std::string ext = std::filesystem::path(spec_.path).extension().string();
      if (ext == ".u32" || ext == ".bin") format_ = key_format::u32le;
    }
    if (format_ == key_format::u32le) {
      if (spec_.column)
        throw user_error(spec_.path + ": a column is for CSV text, not a u32le file of words");
      if (size % 4)
        throw user_error(spec_.path + ": " + format_count(size) +
                         " bytes is not a whole number of 32-bit keys (u32le)");
      seen_.expect(size / 4);
      read_words(file.get(), size, progress);
    } else {
      seen_.expect(size / 2);  // a line holds a key and its newline at least
      // Room for keys of 8 bytes a line (address space only until used): a vector grown by
      // doubling would copy 10^8 keys several times over.
      list_->keys.reserve(size / 8);
      read_lines(file.get(), size, progress);
    }
    report().format = format_ == key_format::automatic ? key_format::decimal : format_;
    finish();
    report().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return list_;
  }

 private:
  key_file_report& report() { return list_->report; }

  void skip(std::uint64_t record, std::string what) {
    if (report().first_issues.size() < k_issues_kept)
      report().first_issues.push_back({record, std::move(what)});
  }

  void take(std::uint64_t record, std::uint64_t key) {
    if (is_reserved_key(static_cast<key_type>(key))) {
      ++report().reserved;
      skip(record, strprintf("0x%08llx is a reserved key", static_cast<unsigned long long>(key)));
      return;
    }
    // Checked k_keys_ahead keys later, in file order, its place fetched meanwhile.
    seen_.prefetch(static_cast<key_type>(key));
    if (pending_count_ == k_keys_ahead) settle_oldest();
    pending_[(pending_first_ + pending_count_++) % k_keys_ahead] = static_cast<key_type>(key);
  }

  void settle_oldest() {
    const key_type k = pending_[pending_first_];
    pending_first_ = (pending_first_ + 1) % k_keys_ahead;
    --pending_count_;
    if (seen_.test_and_set(k))
      ++report().duplicates;  // counted, not listed: a duplicate is no mistake in a file of keys
    else
      list_->keys.push_back(k);
  }

  void read_words(std::FILE* f, std::uint64_t size, const load_progress& progress) {
    std::vector<unsigned char> buf(k_chunk_bytes);
    std::uint64_t done = 0;
    list_->keys.reserve(size / 4);
    while (done < size) {
      const std::size_t n = std::fread(buf.data(), 1, buf.size(), f);
      if (n == 0)
        throw user_error(spec_.path + ": read failed after " + format_count(done) + " bytes");
      for (std::size_t i = 0; i + 4 <= n; i += 4) {
        const std::uint64_t k = std::uint64_t{buf[i]} | std::uint64_t{buf[i + 1]} << 8 |
                                std::uint64_t{buf[i + 2]} << 16 | std::uint64_t{buf[i + 3]} << 24;
        take(++report().records, k);
      }
      done += n;
      if (progress) progress(done, size);
    }
  }

  void read_lines(std::FILE* f, std::uint64_t size, const load_progress& progress) {
    std::vector<char> buf(k_chunk_bytes + k_max_line_bytes + 1);
    std::size_t held = 0;  // bytes of an unfinished line at the front
    std::uint64_t done = 0;
    while (true) {
      const std::size_t n = std::fread(buf.data() + held, 1, k_chunk_bytes, f);
      done += n;
      const bool last = n == 0 || done >= size;
      std::size_t end = held + n, start = 0;
      // A byte-order mark (spreadsheets write one before a CSV's first line) is no part of a key.
      if (done == n && n >= 3 && std::memcmp(buf.data(), "\xEF\xBB\xBF", 3) == 0) start = 3;
      while (true) {
        const void* nl = std::memchr(buf.data() + start, '\n', end - start);
        if (!nl) break;
        const std::size_t at = static_cast<const char*>(nl) - buf.data();
        line(std::string_view(buf.data() + start, at - start));
        start = at + 1;
      }
      held = end - start;
      if (held > k_max_line_bytes)
        throw user_error(spec_.path + ":" + std::to_string(report().records + 1) +
                         ": a line longer than 1 MiB (is this a binary file? format u32le reads "
                         "32-bit words)");
      std::memmove(buf.data(), buf.data() + start, held);
      if (progress) progress(std::min<std::uint64_t>(done, size), size);
      if (last) break;
    }
    if (held) line(std::string_view(buf.data(), held));  // the last line, without a newline
  }

  void line(std::string_view row) {
    const std::uint64_t no = ++report().records;
    if (const std::size_t bad = invalid_utf8_at(row); bad != std::string_view::npos)
      throw user_error(spec_.path + ":" + std::to_string(no) +
                       strprintf(": not UTF-8 text (byte 0x%02x at column %zu); a file of raw "
                                 "32-bit keys is read with format u32le",
                                 static_cast<unsigned char>(row[bad]), bad + 1));
    std::string_view field = row;
    if (spec_.column) {
      std::uint32_t fields = 0;
      if (!csv_field(row, spec_.column, scratch_, field, fields)) {
        if (trim(row).empty()) return blank();
        ++report().unreadable;
        skip(no, strprintf("%u column%s, column %u asked", fields, fields == 1 ? "" : "s",
                           spec_.column));
        return;
      }
    }
    field = trim(field);
    if (field.empty()) return blank();
    // The first key decides an automatic format; in a CSV, a first row that is no number names
    // the columns.
    if (format_ == key_format::automatic || (spec_.column && !header_checked_)) {
      const bool number = is_hex_prefixed(field) || all_digits(field);
      if (spec_.column && !header_checked_ && !keys_seen_ && !number &&
          format_ != key_format::text) {
        header_checked_ = true;
        report().header = true;
        return;
      }
      header_checked_ = true;
      if (format_ == key_format::automatic)
        format_ = is_hex_prefixed(field) ? key_format::hex
                  : all_digits(field)    ? key_format::decimal
                                         : key_format::text;
    }
    keys_seen_ = true;
    if (format_ == key_format::text) {
      text_hashes_.push_back(fnv1a64(field));
      take(no, text_key(field));
      return;
    }
    std::uint64_t k = 0;
    const std::string why = parse_number(field, format_ == key_format::hex ? 16 : 10, k);
    if (!why.empty()) {
      ++report().unreadable;
      skip(no, quoted_excerpt(field) + ": " + why);
      return;
    }
    take(no, k);
  }

  void blank() { ++report().blank; }

  void finish() {
    while (pending_count_) settle_oldest();
    key_file_report& r = report();
    r.keys = list_->keys.size();
    if (!text_hashes_.empty()) {
      std::sort(text_hashes_.begin(), text_hashes_.end());
      r.distinct_strings = static_cast<std::uint64_t>(
          std::unique(text_hashes_.begin(), text_hashes_.end()) - text_hashes_.begin());
      // Equal strings are duplicates; distinct strings beyond the distinct keys share a key.
      r.colliding_strings = r.distinct_strings - r.keys;
      r.duplicates -= r.colliding_strings;
      text_hashes_ = {};
    }
    if (r.keys == 0) {
      std::string why = spec_.path + ": no valid key in " + format_count(r.records) +
                        (format_ == key_format::u32le ? " words" : " lines");
      if (!r.first_issues.empty())
        why += " (line " + std::to_string(r.first_issues.front().line) + ": " +
               r.first_issues.front().what + ")";
      else if (r.duplicates == 0 && r.reserved == 0)
        why += " (every line is blank)";
      throw user_error(why);
    }
  }

  const key_file_spec& spec_;
  std::shared_ptr<key_list> list_;
  key_format format_ = key_format::automatic;
  seen_keys seen_;
  static constexpr std::size_t k_keys_ahead = 32;
  std::array<key_type, k_keys_ahead> pending_{};
  std::size_t pending_first_ = 0, pending_count_ = 0;
  std::vector<std::uint64_t> text_hashes_;
  std::string scratch_;
  bool header_checked_ = false, keys_seen_ = false;
};

}  // namespace

std::string_view to_string(key_format f) {
  switch (f) {
    case key_format::automatic: return "auto";
    case key_format::decimal: return "decimal";
    case key_format::hex: return "hex";
    case key_format::text: return "text";
    case key_format::u32le: return "u32le";
  }
  return "?";
}

std::optional<key_format> parse_key_format(std::string_view s) {
  for (auto f : {key_format::automatic, key_format::decimal, key_format::hex, key_format::text,
                 key_format::u32le})
    if (to_string(f) == s) return f;
  return std::nullopt;
}

key_type text_key(std::string_view s) {
  std::uint32_t h = 0x811c9dc5u;
  for (const unsigned char c : s) h = (h ^ c) * 0x01000193u;
  return static_cast<key_type>(h % k_key_domain);
}

std::vector<key_type> parse_key_list(std::string_view text) {
  std::vector<key_type> keys;
  std::size_t i = 0;
  const auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; };
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !separator(text[i])) ++i;
    const std::string_view entry = text.substr(start, i - start);
    if (entry.empty()) break;
    if (entry.front() >= '0' && entry.front() <= '9') {
      std::uint64_t k = 0;
      const std::string why = parse_number(entry, is_hex_prefixed(entry) ? 16 : 10, k);
      if (!why.empty())
        throw user_error("'" + std::string(entry) + "' is neither a key (" + why +
                         ") nor a word (a word begins with a letter)");
      if (is_reserved_key(static_cast<key_type>(k)))
        throw user_error("'" + std::string(entry) + "' is a reserved key");
      keys.push_back(static_cast<key_type>(k));
    } else {
      keys.push_back(text_key(entry));
    }
  }
  if (keys.empty()) throw user_error("no keys typed (e.g. 12, 44, 7 or ada bob)");
  return keys;
}

std::string key_file_report::summary() const {
  const char* unit = format == key_format::u32le ? "words" : "lines";
  std::string s = format_count(keys) + " keys (" + std::string(to_string(format)) + ") from " +
                  format_count(records) + " " + unit;
  std::vector<std::string> parts;
  if (header) parts.push_back("a header row");
  if (duplicates)
    parts.push_back(format_count(duplicates) + " duplicate" + (duplicates == 1 ? "" : "s"));
  if (colliding_strings)
    parts.push_back(format_count(colliding_strings) + " distinct string" +
                    (colliding_strings == 1 ? " shares" : "s share") + " a key with another (" +
                    k_string_hash + ")");
  if (reserved) parts.push_back(format_count(reserved) + " reserved");
  if (unreadable) parts.push_back(format_count(unreadable) + " unreadable");
  if (blank) parts.push_back(format_count(blank) + " blank");
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : ": ") + parts[i];
  if (!first_issues.empty()) {
    s += " (";
    for (std::size_t i = 0; i < first_issues.size() && i < 3; ++i)
      s += (i ? "; " : "") + std::string(format == key_format::u32le ? "word " : "line ") +
           std::to_string(first_issues[i].line) + ": " + first_issues[i].what;
    s += ")";
  }
  return s;
}

const key_type* key_list::keys_in(memory_space space, stream_view s) const {
  if (space == memory_space::host) return keys.data();
  std::lock_guard lock(device_mutex_);
  if (device_.size() != keys.size()) {
    device_ = buffer<key_type>(memory_space::device, keys.size());
    device_.upload(std::span<const key_type>(keys), s);
    synchronize(s);
  }
  return device_.data();
}

std::shared_ptr<const key_list> load_key_file(const key_file_spec& spec,
                                              const load_progress& progress) {
  if (spec.path.empty()) throw user_error("key file: no path given");
  return key_reader(spec).read(progress);
}

}  // namespace hs::workload
