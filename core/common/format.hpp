// Human-readable numbers for messages, tables and labels.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs {

/// @brief "1.00 GiB", "512 KiB", "17 B".
std::string format_bytes(std::uint64_t bytes);
/// @brief "12.3 G/s", "845 M/s": an operation rate with an SI prefix.
std::string format_rate(double per_second);
/// @brief "134,217,728".
std::string format_count(std::uint64_t n);
/// @brief Parses "4M", "2^27", "134217728", "64k" (binary multiples: k = 2^10, M = 2^20, G = 2^30).
std::optional<std::uint64_t> parse_size(std::string_view text);
/// @brief A size as parse_size reads it back: "2^20" for a power of two, else its digits.
std::string format_size(std::uint64_t n);
/// @brief Printf into a std::string.
std::string strprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/// @brief How keys are written for a person: as hex digits, at least 8 (the generator's keys, hex
/// a lesson gave), or in decimal (a lesson's `step insert 12 76 140`).
enum class key_radix : std::uint8_t { hex, decimal };
/// @brief "0x0000000c" (`prefix` false: "0000000c") or "12"; a key past 32 bits takes the hex
/// digits it needs ("0x123456789abc").
std::string key_text(std::uint64_t key, key_radix r, bool prefix = true);

}  // namespace hs
