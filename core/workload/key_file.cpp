// Reading key files: chunked, lines parsed on every core, every skipped record counted.
#include "core/workload/key_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <thread>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/workload/key_file_lines.hpp"
#include "core/workload/seen_keys.hpp"

namespace hs::workload {

namespace {

constexpr std::size_t k_chunk_bytes = 8u << 20;

// Runs task(0) .. task(n - 1) at once, task 0 on this thread; the first exception a task threw
// is thrown once all are done.
template <class Task>
void run_parallel(unsigned n, Task&& task) {
  std::vector<std::exception_ptr> failed(n);
  const auto guarded = [&](unsigned i) {
    try {
      task(i);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < n; ++i) workers.emplace_back(guarded, i);
  if (n) guarded(0);
  for (std::thread& t : workers) t.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

// Reads a file into its distinct valid keys in file order, a round of one 8 MiB chunk a thread
// at a time (a round holds its chunks and their keys, never the whole file):
// - each thread reads its chunk with pread and parses the lines that begin in it (the line it
//   ends in is read on to its end; one begun in the chunk before is that chunk's);
// - the chunks' counts, issues and first error are taken in file order;
// - the keys are checked for duplicates in file order, each thread marking the keys of its part
//   of the bits (seen_keys::part_of: no two threads touch one word; each chunk's keys grouped by
//   part as it is parsed), then each chunk's first-of-their-value keys copied into place at once.
// Small files (the seen keys a set, not bits) and 64-bit keys (always a set) are checked on this
// thread. Raw words (u32le, u64le) go the same way, with nothing to parse. 10^8 decimal keys on
// the H200 machine's 16 cores: 4.2 s on one thread, 0.85-0.93 s so (core/workload/README.md).
// K is the table's key type.
template <class K>
class key_reader {
 public:
  explicit key_reader(const key_file_spec& spec) : spec_(spec) {
    list_ = std::make_shared<key_list>();
    list_->source = spec;
    list_->report.width = spec.width;
    threads_ = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  }

  std::shared_ptr<const key_list> read(const load_progress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    std::error_code ec;
    const auto size = std::filesystem::file_size(spec_.path, ec);
    const int fd = ::open(spec_.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ec) {
      const std::string why = std::strerror(errno ? errno : ENOENT);
      if (fd >= 0) ::close(fd);
      throw user_error(spec_.path + ": cannot read the key file: " + why);
    }
    const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
      ::close(*f);
      delete f;
    });
    report().bytes = size;
    if (size == 0) throw user_error(spec_.path + ": the key file is empty");
    key_format format = spec_.format;
    if (format == key_format::automatic) {
      const std::string ext = std::filesystem::path(spec_.path).extension().string();
      if (ext == ".u32" || ext == ".bin") format = key_format::u32le;
      if (ext == ".u64") format = key_format::u64le;
    }
    const unsigned word = word_bytes(format);
    const bool words = word != 0;
    if (words) {
      if (spec_.column)
        throw user_error(spec_.path + ": a column is for CSV text, not a " +
                         std::string(to_string(format)) + " file of words");
      if (size % word)
        throw user_error(spec_.path + ": " + format_count(size) +
                         " bytes is not a whole number of " + std::to_string(8 * word) +
                         "-bit keys (" + std::string(to_string(format)) + ")");
      seen_.expect(size / word);
      kept().reserve(size / word);
    } else {
      seen_.expect(size / 2);  // a line holds a key and its newline at least
      // Room for keys of 8 bytes a line (address space only until used): a vector grown by
      // doubling would copy 10^8 keys several times over.
      kept().reserve(size / 8);
      std::vector<char> first(std::min<std::uint64_t>(size, k_chunk_bytes));
      read_at(fd, first.data(), first.size(), 0);
      rules_ = detail::decide_rules(spec_, std::string_view(first.data(), first.size()));
    }
    std::vector<chunk> round(threads_);
    const std::uint64_t per_round = std::uint64_t{threads_} * k_chunk_bytes;
    for (std::uint64_t base = 0; base < size; base += per_round) {
      const auto n = static_cast<unsigned>(
          std::min<std::uint64_t>(threads_, (size - base + k_chunk_bytes - 1) / k_chunk_bytes));
      run_parallel(n, [&](unsigned i) {
        chunk& c = round[i];
        c.parsed.reset();
        const std::uint64_t start = base + std::uint64_t{i} * k_chunk_bytes;
        if (words)
          read_words(fd, size, start, word, c);
        else
          read_lines(fd, size, start, c);
        group_by_part(c);
      });
      check_duplicates_in_order(round, n, words, base, size, progress);
    }
    report().format = words ? format : rules_.format;
    report().header = !words && rules_.header_at.has_value();
    finish(words);
    report().seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return list_;
  }

 private:
  struct chunk {
    std::vector<char> bytes;
    detail::chunk_result parsed;
    // The threaded check (seen keys as bits): the positions of the chunk's keys of each part,
    // whether each key is the first of its value, and how many of each part are.
    std::vector<std::vector<std::uint32_t>> by_part;
    std::vector<std::uint8_t> kept;
    std::vector<std::uint64_t> kept_in_part;
  };

  bool threaded_check() const { return seen_.bits() && threads_ > 1; }
  // The keys kept so far, of the reader's width.
  std::vector<K>& kept() {
    if constexpr (sizeof(K) == 8)
      return list_->wide_keys;
    else
      return list_->keys;
  }

  // The chunk's keys by the part of the bits they fall in, so each thread of the check visits
  // only its own (a chunk holds at most 2^21 keys: positions fit 32 bits).
  void group_by_part(chunk& c) const {
    if constexpr (sizeof(K) == 8) return;  // 64-bit keys: no bits to part
    if (!threaded_check()) return;
    c.by_part.resize(threads_);
    for (auto& p : c.by_part) p.clear();
    const std::vector<key_type>& keys = c.parsed.keys;
    for (std::size_t j = 0; j < keys.size(); ++j)
      c.by_part[detail::seen_keys::part_of(keys[j], threads_)].push_back(
          static_cast<std::uint32_t>(j));
  }

  key_file_report& report() { return list_->report; }

  void read_at(int fd, char* out, std::uint64_t n, std::uint64_t at) const {
    while (n) {
      const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(at));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw user_error(spec_.path + ": read failed at byte " + format_count(at) + ": " +
                         (got < 0 ? std::strerror(errno) : "the file got shorter"));
      out += got, at += static_cast<std::uint64_t>(got), n -= static_cast<std::uint64_t>(got);
    }
  }

  // The lines that begin in [start, start + k_chunk_bytes), read on to the end of the last (a line
  // past k_max_line_bytes is read far enough for parse_chunk to refuse it).
  void read_lines(int fd, std::uint64_t size, std::uint64_t start, chunk& c) const {
    const std::uint64_t len = std::min<std::uint64_t>(k_chunk_bytes, size - start);
    const std::uint64_t lead = start ? 1 : 0;  // the byte before: does a line begin at start?
    const std::uint64_t want =
        std::min<std::uint64_t>(size - start + lead, lead + len + k_max_line_bytes + 1);
    c.bytes.resize(want);
    read_at(fd, c.bytes.data(), want, start - lead);
    const char* p = c.bytes.data();
    const char* own_end = p + lead + len;  // lines beginning before here are this chunk's
    const char* begin = p + lead;
    if (lead && p[0] != '\n') {
      const void* nl = std::memchr(begin, '\n', len);
      begin = nl ? static_cast<const char*>(nl) + 1 : own_end;
    }
    if (begin >= own_end) return;  // no line begins here
    const void* nl =
        std::memchr(own_end - 1, '\n', static_cast<std::size_t>(p + want - (own_end - 1)));
    const char* end = nl ? static_cast<const char*>(nl) + 1 : p + want;
    detail::parse_chunk<K>(rules_, std::string_view(begin, static_cast<std::size_t>(end - begin)),
                           start - lead + static_cast<std::uint64_t>(begin - p), c.parsed);
  }

  // The words of [start, start + k_chunk_bytes), `word` bytes each: reserved ones, and words
  // wider than the table's keys, counted and named.
  void read_words(int fd, std::uint64_t size, std::uint64_t start, unsigned word, chunk& c) const {
    const std::uint64_t len = std::min<std::uint64_t>(k_chunk_bytes, size - start);
    c.bytes.resize(len);
    read_at(fd, c.bytes.data(), len, start);
    detail::chunk_result& out = c.parsed;
    std::vector<K>& keys = detail::keys_of<K>(out);
    keys.reserve(len / word);
    const auto issue = [&](std::uint64_t no, std::string what) {
      if (out.issues.size() < k_issues_kept) out.issues.push_back({no, std::move(what)});
    };
    for (std::uint64_t i = 0; i + word <= len; i += word) {
      std::uint64_t w = 0;
      std::memcpy(&w, c.bytes.data() + i, word);  // little-endian, as x86 and Arm Linux are
      const std::uint64_t no = ++out.lines;
      if (w > key_limits<K>::empty) {  // a 64-bit word for 32-bit keys: never truncated
        ++out.unreadable;
        issue(no, key_text(w, key_radix::hex, true) +
                      " has more than 32 bits: this table holds 32-bit keys");
        continue;
      }
      if (key_limits<K>::reserved_key(static_cast<K>(w))) {
        ++out.reserved;
        issue(no, key_text(w, key_radix::hex, true) + " is a reserved key");
        continue;
      }
      keys.push_back(static_cast<K>(w));
    }
  }

  // A chunk's counts, issues and first error, in file order.
  void merge(const detail::chunk_result& p, bool words) {
    key_file_report& r = report();
    for (const key_file_issue& i : p.issues)
      if (r.first_issues.size() < k_issues_kept)
        r.first_issues.push_back({r.records + i.line, i.what});
    if (p.error)
      throw user_error(spec_.path + ":" + std::to_string(r.records + p.error->line) +
                       p.error->what);
    r.records += p.lines;
    r.reserved += p.reserved;
    r.unreadable += p.unreadable;
    r.blank += p.blank;
    if (words) return;
    text_hashes_.insert(text_hashes_.end(), p.text_hashes.begin(), p.text_hashes.end());
    text_hashes_2_.insert(text_hashes_2_.end(), p.text_hashes_2.begin(), p.text_hashes_2.end());
  }

  // The round's chunks in file order: counts, issues and errors, then their keys against the keys
  // seen (the first of each value kept), progress told chunk by chunk.
  void check_duplicates_in_order(std::vector<chunk>& round, unsigned n, bool words,
                                 std::uint64_t base, std::uint64_t size,
                                 const load_progress& progress) {
    for (unsigned i = 0; i < n; ++i) merge(round[i].parsed, words);
    const auto told = [&](unsigned i) {
      if (progress) progress(std::min(base + (i + 1) * std::uint64_t{k_chunk_bytes}, size), size);
    };
    if (!threaded_check()) {
      for (unsigned i = 0; i < n; ++i) {
        for (const K k : detail::keys_of<K>(round[i].parsed)) take(k);
        told(i);
      }
      return;
    }
    if constexpr (sizeof(K) == 4) check_parts_in_order(round, n, told);
  }

  // The threaded check of 32-bit keys against the bits, each thread its part (group_by_part).
  template <class Told>
  void check_parts_in_order(std::vector<chunk>& round, unsigned n, const Told& told) {
    for (unsigned i = 0; i < n; ++i) {
      round[i].kept.assign(round[i].parsed.keys.size(), 0);
      round[i].kept_in_part.assign(threads_, 0);
    }
    run_parallel(threads_, [&](unsigned part) {
      // This part's keys in file order, a batch at a time: their bits fetched together, then
      // tested in order.
      constexpr std::size_t k_batch = 32;
      for (unsigned i = 0; i < n; ++i) {
        const std::vector<key_type>& keys = round[i].parsed.keys;
        const std::vector<std::uint32_t>& mine = round[i].by_part[part];
        std::uint8_t* kept = round[i].kept.data();
        std::uint64_t first = 0;
        for (std::size_t b = 0; b < mine.size(); b += k_batch) {
          const std::size_t e = std::min(mine.size(), b + k_batch);
          for (std::size_t j = b; j < e; ++j) seen_.prefetch(keys[mine[j]]);
          for (std::size_t j = b; j < e; ++j) {
            const bool fresh = !seen_.test_and_set_bit(keys[mine[j]]);
            kept[mine[j]] = fresh;
            first += fresh;
          }
        }
        round[i].kept_in_part[part] = first;
      }
    });
    // The first of each value, in file order: each chunk's into its place, at once.
    std::vector<std::uint64_t> at(n + 1, list_->keys.size());
    for (unsigned i = 0; i < n; ++i) {
      std::uint64_t kept = 0;
      for (const std::uint64_t k : round[i].kept_in_part) kept += k;
      at[i + 1] = at[i] + kept;
      report().duplicates += round[i].parsed.keys.size() - kept;  // counted, not listed
    }
    list_->keys.resize(at[n]);
    run_parallel(n, [&](unsigned i) {
      const std::vector<key_type>& keys = round[i].parsed.keys;
      key_type* out = list_->keys.data() + at[i];
      for (std::size_t j = 0; j < keys.size(); ++j)
        if (round[i].kept[j]) *out++ = keys[j];
    });
    for (unsigned i = 0; i < n; ++i) told(i);
  }

  // A valid key, checked k_keys_ahead keys later in file order, its place fetched meanwhile.
  void take(K key) {
    seen_.prefetch(key);
    if (pending_count_ == k_keys_ahead) settle_oldest();
    pending_[(pending_first_ + pending_count_++) % k_keys_ahead] = key;
  }

  void settle_oldest() {
    const K k = pending_[pending_first_];
    pending_first_ = (pending_first_ + 1) % k_keys_ahead;
    --pending_count_;
    if (seen_.test_and_set(k))
      ++report().duplicates;  // counted, not listed: no mistake in a file of keys
    else
      kept().push_back(k);
  }

  void finish(bool words) {
    while (pending_count_) settle_oldest();
    key_file_report& r = report();
    r.keys = kept().size();
    if (!text_hashes_.empty()) {
      r.distinct_strings = distinct_strings();
      // Equal strings are duplicates; distinct strings beyond the distinct keys share a key.
      r.colliding_strings = r.distinct_strings - r.keys;
      r.duplicates -= r.colliding_strings;
      text_hashes_ = {};
    }
    if (r.keys == 0) {
      std::string why = spec_.path + ": no valid key in " + format_count(r.records) +
                        (words ? " words" : " lines");
      if (!r.first_issues.empty())
        why += " (line " + std::to_string(r.first_issues.front().line) + ": " +
               r.first_issues.front().what + ")";
      else if (r.duplicates == 0 && r.reserved == 0)
        why += " (every line is blank)";
      throw user_error(why);
    }
  }

  // Distinct strings among the valid lines, told apart by their 64-bit hash; for 64-bit keys,
  // whose key is that hash, by it and a second 64-bit hash of another kind (std::hash).
  std::uint64_t distinct_strings() {
    if (text_hashes_2_.empty()) {
      std::sort(text_hashes_.begin(), text_hashes_.end());
      return static_cast<std::uint64_t>(std::unique(text_hashes_.begin(), text_hashes_.end()) -
                                        text_hashes_.begin());
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> both(text_hashes_.size());
    for (std::size_t i = 0; i < both.size(); ++i) both[i] = {text_hashes_[i], text_hashes_2_[i]};
    text_hashes_2_ = {};
    std::sort(both.begin(), both.end());
    return static_cast<std::uint64_t>(std::unique(both.begin(), both.end()) - both.begin());
  }

  using seen_set = std::conditional_t<sizeof(K) == 8, detail::seen_wide_keys, detail::seen_keys>;

  const key_file_spec& spec_;
  std::shared_ptr<key_list> list_;
  unsigned threads_ = 1;
  detail::line_rules rules_;
  seen_set seen_;
  static constexpr std::size_t k_keys_ahead = 32;
  std::array<K, k_keys_ahead> pending_{};
  std::size_t pending_first_ = 0, pending_count_ = 0;
  std::vector<std::uint64_t> text_hashes_, text_hashes_2_;
};

}  // namespace

std::string_view to_string(key_format f) {
  switch (f) {
    case key_format::automatic: return "auto";
    case key_format::decimal: return "decimal";
    case key_format::hex: return "hex";
    case key_format::text: return "text";
    case key_format::u32le: return "u32le";
    case key_format::u64le: return "u64le";
  }
  return "?";
}

unsigned word_bytes(key_format f) {
  return f == key_format::u32le ? 4 : f == key_format::u64le ? 8 : 0;
}

std::optional<key_format> parse_key_format(std::string_view s) {
  for (auto f : {key_format::automatic, key_format::decimal, key_format::hex, key_format::text,
                 key_format::u32le, key_format::u64le})
    if (to_string(f) == s) return f;
  return std::nullopt;
}

key_type text_key(std::string_view s) {
  std::uint32_t h = 0x811c9dc5u;
  for (const unsigned char c : s) h = (h ^ c) * 0x01000193u;
  return static_cast<key_type>(h % k_key_domain);
}

wide_key text_key_64(std::string_view s) {
  return detail::fnv1a64(s) % key_limits<wide_key>::domain;
}

namespace {
// The entries of a typed key list, split at commas and white space.
std::vector<std::string_view> key_list_entries(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  const auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; };
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !separator(text[i])) ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}
}  // namespace

namespace {
// What reading keys does with a width's key type K: chosen once a call, by ops_for.
template <class K>
std::uint64_t text_key_of(std::string_view s) {
  return text_key_as<K>(s);
}
template <class K>
std::shared_ptr<const key_list> read_of(const key_file_spec& spec, const load_progress& progress) {
  return key_reader<K>(spec).read(progress);
}
struct width_ops {
  std::uint64_t (*text_key)(std::string_view);
  std::shared_ptr<const key_list> (*read)(const key_file_spec&, const load_progress&);
};
template <class K>
constexpr width_ops k_width_ops{&text_key_of<K>, &read_of<K>};

// The one place reading keys goes from the table's width to its key type.
const width_ops& ops_for(key_width w) {
  return with_key_width(w, [](auto key) -> const width_ops& { return k_width_ops<decltype(key)>; });
}
}  // namespace

std::vector<std::uint64_t> parse_key_list(std::string_view text, key_width w) {
  std::vector<std::uint64_t> keys;
  for (const std::string_view entry : key_list_entries(text)) {
    if (entry.front() >= '0' && entry.front() <= '9') {
      std::uint64_t k = 0;
      const std::string why = detail::parse_number(entry, detail::is_hex_prefixed(entry) ? 16 : 10,
                                                   k, key_width::bits64);
      if (!why.empty())
        throw user_error("'" + std::string(entry) + "' is neither a key (" + why +
                         ") nor a word (a word begins with a letter)");
      if (!fits_width(k, w))  // only a narrower width than the widest fails, so the hint holds
        throw user_error("'" + std::string(entry) + "' has more than " + std::string(to_string(w)) +
                         " bits: this table holds " + std::string(to_string(w)) +
                         "-bit keys (a table of key-bits 64 takes it)");
      if (is_reserved_key_of(k, w))
        throw user_error("'" + std::string(entry) + "' is a reserved key");
      keys.push_back(k);
    } else {
      keys.push_back(ops_for(w).text_key(entry));
    }
  }
  if (keys.empty()) throw user_error("no keys typed (e.g. 12, 44, 7 or ada bob)");
  return keys;
}

key_radix radix_of_key_list(std::string_view text) {
  const std::vector<std::string_view> entries = key_list_entries(text);
  for (const std::string_view entry : entries)
    if (entry.front() < '0' || entry.front() > '9' || detail::is_hex_prefixed(entry))
      return key_radix::hex;
  return entries.empty() ? key_radix::hex : key_radix::decimal;
}

std::string key_file_report::summary() const {
  const char* unit = word_bytes(format) ? "words" : "lines";
  std::string s = format_count(keys) + " keys (" + std::string(to_string(format)) + ") from " +
                  format_count(records) + " " + unit;
  std::vector<std::string> parts;
  if (header) parts.push_back("a header row");
  if (duplicates)
    parts.push_back(format_count(duplicates) + " duplicate" + (duplicates == 1 ? "" : "s"));
  if (colliding_strings)
    parts.push_back(format_count(colliding_strings) + " distinct string" +
                    (colliding_strings == 1 ? " shares" : "s share") + " a key with another (" +
                    string_hash_name(width) + ")");
  if (reserved) parts.push_back(format_count(reserved) + " reserved");
  if (unreadable) parts.push_back(format_count(unreadable) + " unreadable");
  if (blank) parts.push_back(format_count(blank) + " blank");
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : ": ") + parts[i];
  if (!first_issues.empty()) {
    s += " (";
    for (std::size_t i = 0; i < first_issues.size() && i < 3; ++i)
      s += (i ? "; " : "") + std::string(word_bytes(format) ? "word " : "line ") +
           std::to_string(first_issues[i].line) + ": " + first_issues[i].what;
    s += ")";
  }
  return s;
}

namespace {
// A list's keys in `space`: the host vector, or its device copy, made on first use.
template <class K>
const K* keys_in_space(const std::vector<K>& keys, buffer<K>& device, std::mutex& m,
                       memory_space space, stream_view s) {
  if (keys.empty()) return nullptr;
  if (space == memory_space::host) return keys.data();
  std::lock_guard lock(m);
  if (device.size() != keys.size()) {
    device = buffer<K>(memory_space::device, keys.size());
    device.upload(std::span<const K>(keys), s);
    synchronize(s);
  }
  return device.data();
}
}  // namespace

const key_type* key_list::keys_in(memory_space space, stream_view s) const {
  return keys_in_space(keys, device_, device_mutex_, space, s);
}

const wide_key* key_list::wide_keys_in(memory_space space, stream_view s) const {
  return keys_in_space(wide_keys, wide_device_, device_mutex_, space, s);
}

std::shared_ptr<const key_list> load_key_file(const key_file_spec& spec,
                                              const load_progress& progress) {
  if (spec.path.empty()) throw user_error("key file: no path given");
  return ops_for(spec.width).read(spec, progress);
}

}  // namespace hs::workload
