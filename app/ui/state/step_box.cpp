// The step box's keys, read as they are typed and stepped one by one.
#include "app/ui/state/step_box.hpp"

#include "core/common/error.hpp"
#include "core/workload/key_file.hpp"

namespace hs::app {

std::optional<key_radix> step_box::read(std::string text, key_width w) {
  text_ = std::move(text);
  keys_.clear();
  next_ = 0;
  error_.clear();
  if (text_.find_first_not_of(" ,\t") == std::string::npos) return std::nullopt;
  try {
    keys_ = workload::parse_key_list(text_, w);
    return workload::radix_of_key_list(text_);
  } catch (const user_error& e) {
    error_ = e.what();  // nothing is stepped until the list is all keys
    return std::nullopt;
  }
}

std::optional<given_op> step_box::next() const {
  if (next_ >= keys_.size()) return std::nullopt;
  return typed_op(kind_, keys_[next_]);
}

}  // namespace hs::app
