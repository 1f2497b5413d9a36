// Parsing a key file's lines: UTF-8, CSV fields, numbers and text keys (key_file_lines.hpp).
#include "core/workload/key_file_lines.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>

#include "core/common/format.hpp"
#include "core/workload/key_file.hpp"

namespace hs::workload::detail {

bool is_hex_prefixed(std::string_view s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

std::string parse_number(std::string_view s, int base, std::uint64_t& out, key_width w) {
  if (base == 16 && is_hex_prefixed(s)) s.remove_prefix(2);
  if (s.empty()) return "no digits";
  // Built only for a key that fails: this runs once a key of a file of 10^8.
  const auto range = [w] { return "out of the " + std::string(to_string(w)) + "-bit range"; };
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  if (r.ec == std::errc::result_out_of_range) return range();
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
    return base == 16 ? "not a hex number" : "not a decimal number";
  if (!fits_width(out, w)) return range();
  return {};
}

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

namespace {

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

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string quoted_excerpt(std::string_view s) {
  constexpr std::size_t k_shown = 40;
  std::string out = "'" + std::string(s.substr(0, k_shown));
  if (s.size() > k_shown) out += "...";
  return out + "'";
}

// A valid key kept; a reserved one (of the table's width) counted and named.
template <class K>
void take(chunk_result& out, std::uint64_t no, std::uint64_t key) {
  if (is_reserved_key_of(key, width_of<K>)) {
    ++out.reserved;
    if (out.issues.size() < k_issues_kept)
      out.issues.push_back({no, key_text(key, key_radix::hex, true) + " is a reserved key"});
    return;
  }
  keys_of<K>(out).push_back(static_cast<K>(key));
}

void unreadable(chunk_result& out, std::uint64_t no, std::string what) {
  ++out.unreadable;
  if (out.issues.size() < k_issues_kept) out.issues.push_back({no, std::move(what)});
}

// The field a line's key is in (the CSV column, or the line), trimmed; false when a CSV row lacks
// the column (`fields`: how many it has).
bool field_of(std::string_view row, std::uint32_t column, std::string& scratch,
              std::string_view& field, std::uint32_t& fields) {
  field = row;
  if (column && !csv_field(row, column, scratch, field, fields)) return false;
  field = trim(field);
  return true;
}

}  // namespace

namespace {
// The format of the first non-empty field of `text` where `spec` leaves it automatic, and
// (`header_possible`) the offset of a CSV header row before it.
line_rules decide(const key_file_spec& spec, std::string_view text, bool header_possible) {
  line_rules r;
  r.column = spec.column;
  r.format = spec.format == key_format::automatic ? key_format::decimal : spec.format;
  std::string scratch;
  std::size_t start = 0;
  if (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0) start = 3;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::string_view row = text.substr(start, nl == std::string_view::npos ? nl : nl - start);
    std::string_view field;
    std::uint32_t fields = 0;
    if (invalid_utf8_at(row) == std::string_view::npos &&
        field_of(row, spec.column, scratch, field, fields) && !field.empty()) {
      const bool number = is_hex_prefixed(field) || all_digits(field);
      if (header_possible && spec.column && !number && spec.format != key_format::text) {
        r.format = nl == std::string_view::npos ? r.format
                                                : decide(spec, text.substr(nl + 1), false).format;
        r.header_at = start;
        return r;
      }
      if (spec.format == key_format::automatic)
        r.format = is_hex_prefixed(field) ? key_format::hex
                   : all_digits(field)    ? key_format::decimal
                                          : key_format::text;
      return r;
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return r;
}
}  // namespace

line_rules decide_rules(const key_file_spec& spec, std::string_view first_chunk) {
  // The first key decides an automatic format; in a CSV, a first field that is no number names
  // the columns.
  return decide(spec, first_chunk, true);
}

template <class K>
void parse_chunk(const line_rules& rules, std::string_view text, std::uint64_t offset,
                 chunk_result& out) {
  std::string scratch;
  std::size_t start = 0;
  if (offset == 0 && text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0)
    start = 3;  // a byte-order mark (spreadsheets write one before a CSV's first line)
  const int base = rules.format == key_format::hex ? 16 : 10;
  while (start < text.size()) {
    const void* found = std::memchr(text.data() + start, '\n', text.size() - start);
    const std::size_t end =
        found ? static_cast<std::size_t>(static_cast<const char*>(found) - text.data())
              : text.size();
    const std::string_view row = text.substr(start, end - start);
    const std::uint64_t no = ++out.lines;
    const std::uint64_t at = offset + start;
    start = end + 1;
    if (row.size() > k_max_line_bytes) {
      out.error = {no,
                   ": a line longer than 1 MiB (is this a binary file? format u32le reads 32-bit "
                   "words)"};
      return;
    }
    if (const std::size_t bad = invalid_utf8_at(row); bad != std::string_view::npos) {
      out.error = {no, strprintf(": not UTF-8 text (byte 0x%02x at column %zu); a file of raw "
                                 "32-bit keys is read with format u32le",
                                 static_cast<unsigned char>(row[bad]), bad + 1)};
      return;
    }
    std::string_view field;
    std::uint32_t fields = 0;
    if (!field_of(row, rules.column, scratch, field, fields)) {
      if (trim(row).empty()) {
        ++out.blank;
      } else {
        unreadable(out, no,
                   strprintf("%u column%s, column %u asked", fields, fields == 1 ? "" : "s",
                             rules.column));
      }
      continue;
    }
    if (field.empty()) {
      ++out.blank;
      continue;
    }
    if (rules.header_at && *rules.header_at == at) continue;  // the CSV's column names
    if (rules.format == key_format::text) {
      out.text_hashes.push_back(fnv1a64(field));
      // Strings of 64-bit keys are told apart by two 64-bit hashes: FNV-1a 64 alone is the key.
      if constexpr (std::is_same_v<K, wide_key>)
        out.text_hashes_2.push_back(std::hash<std::string_view>{}(field));
      take<K>(out, no, text_key_as<K>(field));
      continue;
    }
    std::uint64_t k = 0;
    if (const std::string why = parse_number(field, base, k, width_of<K>); !why.empty()) {
      unreadable(out, no, quoted_excerpt(field) + ": " + why);
      continue;
    }
    take<K>(out, no, k);
  }
}

template void parse_chunk<key_type>(const line_rules&, std::string_view, std::uint64_t,
                                    chunk_result&);
template void parse_chunk<wide_key>(const line_rules&, std::string_view, std::uint64_t,
                                    chunk_result&);

}  // namespace hs::workload::detail
