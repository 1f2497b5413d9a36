// Files written whole or not at all. Every file HashScope writes (scenarios, table files, figures,
// CSVs, reports, screenshots, videos, the settings file) is written to a temporary file beside its
// target, flushed to disk (fsync), renamed over the target, and the folder flushed too: a crash or
// a power loss at any moment leaves the old file or the new one, never a torn one. (A crash may
// leave the temporary file, "<target>.tmp-<pid>-<n>", beside it; nothing reads those.)
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace hs {

/// @brief A temporary name in `target`'s folder, unique among this process's writes and among
/// processes: "<target>.tmp-<pid>-<counter>". Write the file there, then commit_file it.
std::string temp_path_for(const std::filesystem::path& target);

/// @brief Makes the complete file `temp` the file `target`: flushes it to disk, renames it over
/// `target`, and flushes the folder so that the rename survives a power loss too. On failure
/// removes `temp` and throws hs::user_error("cannot write <target>: <why>").
void commit_file(const std::filesystem::path& temp, const std::filesystem::path& target);

/// @brief Writes `bytes` as the file `target` (through temp_path_for and commit_file); throws
/// hs::user_error("cannot write <target>: <why>") for a folder that is missing or cannot be
/// written, a full disk, and leaves no temporary file behind.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

namespace detail {

/// Tests only: the numbered points of a write at which the write-step hook is called, so that a
/// test can kill the writer there (tests/core/common/atomic_file_test.cpp).
/// After each chunk written: each 64 KiB of write_file_atomically, each chunk of a table file.
inline constexpr int k_step_chunk_written = 0;
inline constexpr int k_step_file_synced = 1;    ///< the temporary file flushed to disk
inline constexpr int k_step_renamed = 2;        ///< renamed over the target
inline constexpr int k_step_folder_synced = 3;  ///< the folder flushed to disk

/// Tests only: called with the step's number at each point above (from any thread).
using write_step_hook = void (*)(int step);
/// Tests only: sets the hook (nullptr, the default: none).
void set_write_step_hook(write_step_hook hook);
/// Calls the hook, if one is set, with `step` (for writers outside this file: table files).
void write_step(int step);

}  // namespace detail

}  // namespace hs
