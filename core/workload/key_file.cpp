// Reading key files: chunked, lines parsed on every core, every skipped record counted.
#include "core/workload/key_file.hpp"

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

// Reads a file into its distinct valid keys in file order. Words (u32le) are taken as read. Lines
// are read in rounds of one chunk a thread: the chunks of a round are parsed at once, each on
// its own thread (detail::parse_chunk), while this thread checks the previous round's keys for
// duplicates in file order; so parsing runs on every core and the check, a random access a key,
// overlaps it. A round holds a chunk of text and its keys per thread: never the whole file.
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
    key_format format = spec_.format;
    if (format == key_format::automatic) {
      const std::string ext = std::filesystem::path(spec_.path).extension().string();
      if (ext == ".u32" || ext == ".bin") format = key_format::u32le;
    }
    if (format == key_format::u32le) {
      if (spec_.column)
        throw user_error(spec_.path + ": a column is for CSV text, not a u32le file of words");
      if (size % 4)
        throw user_error(spec_.path + ": " + format_count(size) +
                         " bytes is not a whole number of 32-bit keys (u32le)");
      seen_.expect(size / 4);
      read_words(file.get(), size, progress);
      report().format = format;
    } else {
      seen_.expect(size / 2);  // a line holds a key and its newline at least
      // Room for keys of 8 bytes a line (address space only until used): a vector grown by
      // doubling would copy 10^8 keys several times over.
      list_->keys.reserve(size / 8);
      read_lines(file.get(), size, progress);
    }
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

  // A valid key, checked k_keys_ahead keys later in file order, its place fetched meanwhile.
  void take(key_type key) {
    seen_.prefetch(key);
    if (pending_count_ == k_keys_ahead) settle_oldest();
    pending_[(pending_first_ + pending_count_++) % k_keys_ahead] = key;
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
        const key_type k = std::uint32_t{buf[i]} | std::uint32_t{buf[i + 1]} << 8 |
                           std::uint32_t{buf[i + 2]} << 16 | std::uint32_t{buf[i + 3]} << 24;
        const std::uint64_t no = ++report().records;
        if (is_reserved_key(k)) {
          ++report().reserved;
          skip(no, strprintf("0x%08x is a reserved key", k));
          continue;
        }
        take(k);
      }
      done += n;
      if (progress) progress(done, size);
    }
  }

  // One chunk of whole lines, and what parsing it gave.
  struct chunk {
    std::vector<char> text;
    std::uint64_t offset = 0;  // of its first byte in the file
    detail::chunk_result parsed;
  };

  // The next chunk of whole lines: what was carried over, then up to k_chunk_bytes more, up to
  // its last newline (the rest carried to the next). False at the end of the file.
  bool next_chunk(std::FILE* f, std::uint64_t size, chunk& c) {
    c.text.assign(carry_.begin(), carry_.end());  // into the chunk's buffer, kept from before
    carry_.clear();
    c.offset = read_ - c.text.size();
    const std::size_t held = c.text.size();
    c.text.resize(held + k_chunk_bytes);
    const std::size_t n = std::fread(c.text.data() + held, 1, k_chunk_bytes, f);
    read_ += n;
    c.text.resize(held + n);
    if (c.text.empty()) return false;
    if (n == 0 || read_ >= size) return true;  // the last: its final line may lack a newline
    const auto nl = std::find(c.text.rbegin(), c.text.rend(), '\n');
    const std::size_t whole = static_cast<std::size_t>(c.text.rend() - nl);
    if (whole == 0 && c.text.size() > k_max_line_bytes) return true;  // parse_chunk sees it
    carry_.assign(c.text.begin() + static_cast<std::ptrdiff_t>(whole), c.text.end());
    c.text.resize(whole);
    if (carry_.size() > k_max_line_bytes) {  // a line past the limit, begun in this chunk
      c.text.insert(c.text.end(), carry_.begin(), carry_.end());
      carry_.clear();
    }
    return true;
  }

  void read_lines(std::FILE* f, std::uint64_t size, const load_progress& progress) {
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
    std::vector<chunk> round(threads), previous(threads);
    std::size_t in_round = 0, in_previous = 0;
    bool decided = false;
    const auto parse = [&](chunk& c) {
      try {
        detail::parse_chunk(rules_, std::string_view(c.text.data(), c.text.size()), c.offset,
                            c.parsed);
      } catch (...) {  // out of memory: the reader says so once the round is joined
        c.parsed.error = {c.parsed.lines + 1, ": out of memory while parsing"};
      }
    };
    while (true) {
      in_round = 0;
      for (chunk& c : round) {
        c.parsed.reset();
        if (!next_chunk(f, size, c)) break;
        if (!decided) {  // the first chunk holds the first key, which decides how lines read
          rules_ = detail::decide_rules(spec_, std::string_view(c.text.data(), c.text.size()));
          decided = true;
        }
        ++in_round;
      }
      std::vector<std::thread> workers;
      for (std::size_t i = 1; i < in_round; ++i) workers.emplace_back(parse, std::ref(round[i]));
      if (in_round) parse(round[0]);
      // While the workers parse this round, this thread checks the previous one's keys; a file
      // refused there is refused once the workers are joined.
      std::exception_ptr refused;
      try {
        for (std::size_t i = 0; i < in_previous; ++i) merge(previous[i]);
      } catch (...) {
        refused = std::current_exception();
      }
      for (std::thread& t : workers) t.join();
      if (refused) std::rethrow_exception(refused);
      if (progress) progress(std::min<std::uint64_t>(read_, size), size);
      std::swap(round, previous);
      in_previous = in_round;
      if (in_round == 0) break;
    }
    report().format = rules_.format;
    report().header = rules_.header_at.has_value();
  }

  // One parsed chunk into the list, in file order: its counts, its issues and its keys.
  void merge(chunk& c) {
    key_file_report& r = report();
    const detail::chunk_result& p = c.parsed;
    for (const key_file_issue& i : p.issues) skip(r.records + i.line, i.what);
    if (p.error)
      throw user_error(spec_.path + ":" + std::to_string(r.records + p.error->line) +
                       p.error->what);
    r.records += p.lines;
    r.reserved += p.reserved;
    r.unreadable += p.unreadable;
    r.blank += p.blank;
    for (const key_type k : p.keys) take(k);
    text_hashes_.insert(text_hashes_.end(), p.text_hashes.begin(), p.text_hashes.end());
  }

  void finish() {
    while (pending_count_) settle_oldest();
    key_file_report& r = report();
    if (r.header) --r.blank;  // the header row, counted by parse_chunk as a line without a key
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
                        (r.format == key_format::u32le ? " words" : " lines");
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
  detail::line_rules rules_;
  detail::seen_keys seen_;
  std::vector<char> carry_;  // the unfinished line after the last chunk read
  std::uint64_t read_ = 0;   // bytes read from the file
  static constexpr std::size_t k_keys_ahead = 32;
  std::array<key_type, k_keys_ahead> pending_{};
  std::size_t pending_first_ = 0, pending_count_ = 0;
  std::vector<std::uint64_t> text_hashes_;
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
      const std::string why =
          detail::parse_number(entry, detail::is_hex_prefixed(entry) ? 16 : 10, k);
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
