// JSON output with correct escaping and comma placement; indentation-free (machine-read).
#include "core/common/json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "core/common/format.hpp"

namespace hs {

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += strprintf("\\u%04x", c);
        else
          out += c;
    }
  }
  return out;
}

void json_writer::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

json_writer& json_writer::begin_object() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
json_writer& json_writer::end_object() {
  out_ += '}';
  first_.pop_back();
  return *this;
}
json_writer& json_writer::begin_array() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
json_writer& json_writer::end_array() {
  out_ += ']';
  first_.pop_back();
  return *this;
}
json_writer& json_writer::key(std::string_view k) {
  separate();
  out_ += '"' + json_escape(k) + "\":";
  after_key_ = true;
  return *this;
}
json_writer& json_writer::value(std::string_view s) {
  separate();
  out_ += '"' + json_escape(s) + '"';
  return *this;
}
json_writer& json_writer::value(double d) {
  separate();
  out_ += std::isfinite(d) ? strprintf("%.9g", d) : std::string("null");
  return *this;
}
json_writer& json_writer::value(std::uint64_t n) {
  separate();
  out_ += std::to_string(n);
  return *this;
}
json_writer& json_writer::value(std::int64_t n) {
  separate();
  out_ += std::to_string(n);
  return *this;
}
json_writer& json_writer::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}
json_writer& json_writer::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace hs
