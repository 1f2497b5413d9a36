// Writing and reading table files (the format: table_file.hpp). Parts are copied through a host
// chunk at a time, so a 1 GiB device table needs no 1 GiB host buffer to be saved.
#include "core/table/table_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_option.hpp"
#include "core/table/family_registry.hpp"

namespace hs {

namespace {

constexpr char k_magic[8] = {'H', 'S', 'T', 'A', 'B', 'L', 'E', '\n'};
constexpr std::size_t k_chunk = std::size_t{16} << 20;

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw user_error("table file " + path + ": " + why);
}

std::string header_of(const table_state& st) {
  std::ostringstream h;
  const table_config& c = st.config;
  h << "version " << k_table_file_version << "\nfamily " << to_string(c.family) << "\ncapacity "
    << c.capacity << "\nhash " << to_string(c.hash) << "\n";
  // A table over several devices: the shards' parts carry their device's prefix (core/shard).
  if (c.devices > 1) h << "devices " << c.devices << "\nowner " << to_string(c.owner) << "\n";
  for (const family_option& o : describe(c.family).options)
    h << "option " << o.name << "=" << o.get(c) << "\n";
  for (const auto& [name, value] : st.numbers) h << "number " << name << " " << value << "\n";
  for (const state_part& p : st.parts) h << "part " << p.name << " " << p.bytes.size() << "\n";
  h << "\n";
  return h.str();
}

}  // namespace

std::uint64_t table_file_checksum(const void* data, std::size_t bytes, std::uint64_t seed) {
  // Four independent lanes of 8-byte words (the loop keeps up with memory), folded at the end.
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t lane[4] = {seed ^ 0x9e3779b97f4a7c15ull, seed + 0xc2b2ae3d27d4eb4full,
                           rotl(seed, 17) ^ 0x165667b19e3779f9ull, ~seed};
  std::size_t i = 0;
  for (; i + 32 <= bytes; i += 32)
    for (int l = 0; l < 4; ++l) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * l, 8);
      lane[l] = rotl(lane[l] ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
    }
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    lane[0] = rotl(lane[0] ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, p + i, bytes - i);
  std::uint64_t h = mix(tail ^ bytes);
  for (int l = 0; l < 4; ++l) h = mix(h ^ lane[l]) + 0x9e3779b97f4a7c15ull * (l + 1);
  return h;
}

namespace {

// The parts' bytes in chunks, each at its place in the file and checksummed on its own (seeded by
// its index), so that threads copy, checksum and write (or read) them at once: one thread alone
// is held to a file system's single-stream speed, far below a copy to the host.
struct chunk {
  const state_part* part;
  std::size_t at, bytes;
  std::uint64_t offset;  // in the file
};

std::vector<chunk> chunks_of(const std::vector<state_part>& parts, std::uint64_t first_offset) {
  std::vector<chunk> out;
  std::uint64_t offset = first_offset;
  for (const state_part& p : parts)
    for (std::size_t at = 0; at < p.bytes.size(); at += k_chunk) {
      const std::size_t n = std::min(k_chunk, p.bytes.size() - at);
      out.push_back({&p, at, n, offset});
      offset += n;
    }
  return out;
}

// Runs work(i, buffer) for every chunk on a few threads (each with a host buffer of its own when
// asked); false when any call returned false, and the first exception any threw, rethrown once
// every thread has joined.
bool for_each_chunk(std::size_t n, bool with_buffer,
                    const std::function<bool(std::size_t, unsigned char*)>& work) {
  const unsigned threads = static_cast<unsigned>(
      std::min<std::size_t>(n, std::clamp(std::thread::hardware_concurrency(), 1u, 8u)));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> ok{true};
  std::mutex failed_mutex;
  std::exception_ptr failed;  // the first exception a chunk threw, rethrown once all have joined
  const auto run = [&] {
    try {
      std::vector<unsigned char> buffer(with_buffer ? k_chunk : 0);
      for (std::size_t i; ok && (i = next++) < n;)
        if (!work(i, buffer.data())) ok = false;
    } catch (...) {
      ok = false;
      std::lock_guard lock(failed_mutex);
      if (!failed) failed = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
  return ok;
}

// The file's checksum: the magic and header's, then each chunk's in order.
std::uint64_t fold(std::uint64_t head, const std::vector<std::uint64_t>& chunk_sums) {
  std::uint64_t h = head;
  for (const std::uint64_t c : chunk_sums) h = mix(h ^ c) + 0x9e3779b97f4a7c15ull;
  return h;
}

bool write_all(int fd, const void* data, std::size_t n, std::uint64_t offset) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (n) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (w <= 0) return false;
    p += w, n -= static_cast<std::size_t>(w), offset += static_cast<std::uint64_t>(w);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t n, std::uint64_t offset) {
  auto* p = static_cast<unsigned char*>(data);
  while (n) {
    const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (r <= 0) return false;
    p += r, n -= static_cast<std::size_t>(r), offset += static_cast<std::uint64_t>(r);
  }
  return true;
}

std::uint64_t head_sum(const std::string& header) {
  return table_file_checksum(header.data(), header.size(),
                             table_file_checksum(k_magic, sizeof k_magic, 0));
}

}  // namespace

void write_table_file(const std::string& path, const table_state& st, stream_view s) {
  // A temporary file beside `path`, flushed to disk and renamed over it (core/common/atomic_file):
  // a crash at any moment leaves the old file or the new one, never a torn one.
  const std::string partial = temp_path_for(path);
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) refuse(path, std::string("cannot write: ") + std::strerror(errno));
  const std::string header = header_of(st);
  const std::vector<chunk> chunks = chunks_of(st.parts, sizeof k_magic + header.size());
  std::vector<std::uint64_t> sums(chunks.size());
  std::mutex copy_mutex;  // one copy from the device at a time, on the caller's stream
  bool ok = false;
  try {
    ok = write_all(fd, k_magic, sizeof k_magic, 0) &&
         write_all(fd, header.data(), header.size(), sizeof k_magic) &&
         for_each_chunk(chunks.size(), true, [&](std::size_t i, unsigned char* buffer) {
           const chunk& c = chunks[i];
           {
             std::lock_guard lock(copy_mutex);
             copy_bytes(buffer, memory_space::host, c.part->bytes.data() + c.at,
                        c.part->bytes.space(), c.bytes, s);
             if (!host_accessible(c.part->bytes.space())) synchronize(s);  // a device copy
           }
           sums[i] = table_file_checksum(buffer, c.bytes, i);
           if (!write_all(fd, buffer, c.bytes, c.offset)) return false;
           detail::write_step(detail::k_step_chunk_written);
           return true;
         });
  } catch (...) {  // a copy from a faulted GPU: nothing half-written is left behind
    ::close(fd);
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    throw;
  }
  const std::uint64_t sum = fold(head_sum(header), sums);
  const std::uint64_t end =
      chunks.empty() ? sizeof k_magic + header.size() : chunks.back().offset + chunks.back().bytes;
  ok = ok && write_all(fd, &sum, sizeof sum, end);
  if (ok) detail::write_step(detail::k_step_chunk_written);
  ok = ::close(fd) == 0 && ok;
  if (!ok) {
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    refuse(path, "could not be written whole (is the disk full?)");
  }
  try {
    commit_file(partial, path);    // removes the temporary file when it fails
  } catch (const user_error& e) {  // "cannot write PATH: why", said as this file's errors are
    const std::string said = e.what(), head = "cannot write " + path + ": ";
    refuse(path, "could not be written whole: " +
                     (said.rfind(head, 0) == 0 ? said.substr(head.size()) : said));
  }
}

namespace {

// One header line's words after its keyword, checked as a count.
std::uint64_t header_count(const std::string& path, const std::string& word, const char* what) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(word, &used);
    if (used == word.size()) return v;
  } catch (const std::exception&) {
  }
  refuse(path, std::string("corrupt header: ") + what + " '" + word + "' is not a count");
}

struct parsed_header {
  table_state st;
  std::vector<std::pair<std::string, std::uint64_t>> parts;  // name, bytes
};

parsed_header parse_header(const std::string& path, const std::string& text) {
  parsed_header h;
  std::istringstream in(text);
  std::string line;
  bool family_seen = false, version_seen = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream words(line);
    std::string key, a, b;
    words >> key >> a >> b;
    if (key == "version") {
      const std::uint64_t v = header_count(path, a, "version");
      if (v != k_table_file_version)
        refuse(path, strprintf("written in format version %llu; this HashScope reads version %u",
                               static_cast<unsigned long long>(v), k_table_file_version));
      version_seen = true;
    } else if (key == "family") {
      const auto f = parse_family(a);
      if (!f) refuse(path, "a table of family '" + a + "', which this HashScope does not know");
      h.st.config.family = *f;
      family_seen = true;
    } else if (key == "capacity") {
      h.st.config.capacity = header_count(path, a, "capacity");
    } else if (key == "hash") {
      const auto k = parse_hash_kind(a);
      if (!k) refuse(path, "corrupt header: unknown hash '" + a + "'");
      h.st.config.hash = *k;
    } else if (key == "devices") {
      const std::uint64_t n = header_count(path, a, "devices");
      if (n < 1 || n > k_max_devices) refuse(path, "corrupt header: devices " + a);
      h.st.config.devices = static_cast<std::uint32_t>(n);
    } else if (key == "owner") {
      const auto o = parse_owner_bits(a);
      if (!o) refuse(path, "corrupt header: unknown owner '" + a + "'");
      h.st.config.owner = *o;
    } else if (key == "option") {
      if (!family_seen) refuse(path, "corrupt header: an option before the family");
      const auto eq = a.find('=');
      const family_option* o =
          eq == std::string::npos
              ? nullptr
              : find_option(describe(h.st.config.family).options, a.substr(0, eq));
      if (!o) refuse(path, "corrupt header: unknown option '" + a + "'");
      try {
        apply_option(*o, h.st.config, a.substr(eq + 1));
      } catch (const user_error& e) {
        refuse(path, std::string("corrupt header: ") + e.what());
      }
    } else if (key == "number") {
      h.st.set_number(a, header_count(path, b, a.c_str()));
    } else if (key == "part") {
      h.parts.emplace_back(a, header_count(path, b, a.c_str()));
    } else {
      refuse(path, "corrupt header: unknown line '" + line.substr(0, 60) + "'");
    }
  }
  if (!version_seen || !family_seen) refuse(path, "corrupt header: no version or family line");
  return h;
}

}  // namespace

table_state read_table_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  char magic[sizeof k_magic] = {};
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, k_magic, sizeof magic) != 0)
    refuse(path, "not a HashScope table file (it does not start with HSTABLE)");
  std::string header, line;
  while (std::getline(in, line)) {
    header += line + "\n";
    if (line.empty()) break;
    if (header.size() > (1u << 20)) refuse(path, "corrupt header: no end within 1 MiB");
  }
  if (!in) refuse(path, "truncated inside its header");
  parsed_header h = parse_header(path, header);
  std::uint64_t body = 0;
  for (const auto& p : h.parts) {
    if (p.second > size || body > size - p.second)  // no sum can wrap past a corrupt header
      refuse(path, strprintf("truncated: its header describes more bytes than its %s",
                             format_count(size).c_str()));
    body += p.second;
  }
  const std::uint64_t expected = sizeof k_magic + header.size() + body + 8;
  if (ec || size < expected)
    refuse(path, strprintf("truncated: %s bytes of the %s its header describes",
                           format_count(size).c_str(), format_count(expected).c_str()));
  if (size > expected) refuse(path, "corrupt: bytes after the end its header describes");
  for (const auto& [name, bytes] : h.parts)
    h.st.parts.push_back({name, buffer<std::byte>(memory_space::host, bytes)});
  const std::vector<chunk> chunks = chunks_of(h.st.parts, sizeof k_magic + header.size());
  std::vector<std::uint64_t> sums(chunks.size());
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  std::uint64_t stored = 0;
  const bool ok =
      for_each_chunk(chunks.size(), false,
                     [&](std::size_t i, unsigned char*) {
                       const chunk& c = chunks[i];
                       auto* at = reinterpret_cast<unsigned char*>(c.part->bytes.data()) + c.at;
                       if (!read_all(fd, at, c.bytes, c.offset)) return false;
                       sums[i] = table_file_checksum(at, c.bytes, i);
                       return true;
                     }) &&
      read_all(fd, &stored, sizeof stored, expected - 8);
  ::close(fd);
  if (!ok) refuse(path, "truncated while reading its parts");
  if (stored != fold(head_sum(header), sums))
    refuse(path, "corrupt: its checksum does not match its contents");
  return std::move(h.st);
}

void save_table(table& t, const std::string& path, stream_view s) {
  write_table_file(path, t.save_state(s), s);
}

std::unique_ptr<table> open_table(const std::string& path, backend b, stream_view s) {
  table_state st = read_table_file(path);
  table_config cfg = st.config;
  cfg.backend = b;
  if (const auto* d = &describe(cfg.family); d->check_config) {
    const std::string why = d->check_config(cfg);
    if (!why.empty()) refuse(path, why);
  }
  std::unique_ptr<table> t = make_table(cfg);
  try {
    t->restore_state(st, s);
  } catch (const user_error& e) {
    refuse(path, e.what());
  }
  return t;
}

}  // namespace hs
