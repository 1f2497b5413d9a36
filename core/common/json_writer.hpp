// A small streaming JSON writer for results and metadata (objects, arrays, strings, numbers).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hs {

class json_writer {
 public:
  json_writer& begin_object();
  json_writer& end_object();
  json_writer& begin_array();
  json_writer& end_array();
  /// @brief The key of the next value inside an object.
  json_writer& key(std::string_view k);
  json_writer& value(std::string_view s);
  json_writer& value(const char* s) { return value(std::string_view(s)); }
  json_writer& value(double d);
  json_writer& value(std::uint64_t n);
  json_writer& value(std::int64_t n);
  json_writer& value(int n) { return value(static_cast<std::int64_t>(n)); }
  json_writer& value(bool b);
  json_writer& null();
  template <class T>
  json_writer& field(std::string_view k, const T& v) {
    return key(k).value(v);
  }
  const std::string& str() const { return out_; }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

/// @brief s with JSON escapes, without quotes.
std::string json_escape(std::string_view s);

}  // namespace hs
