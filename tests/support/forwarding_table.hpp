// A table that hands every call, of either key width, to a real one: a test derives from it and
// overrides the one call it changes (a lookup answered wrongly, a batch or a rehash that fails), so
// that a checker or a sharded table meets a table misbehaving in exactly one way.
#pragma once
#include <memory>
#include <utility>

#include "core/table/table.hpp"

namespace hs::test {

class forwarding_table : public table {
 public:
  explicit forwarding_table(std::unique_ptr<table> inner) : inner_(std::move(inner)) {}
  table_config config() const override { return inner_->config(); }
  void insert(std::span<const key_type> k, std::span<const value_type> v, std::span<op_status> st,
              stream_view s) override {
    inner_->insert(k, v, st, s);
  }
  void find(std::span<const key_type> k, std::span<value_type> v, std::span<op_status> st,
            stream_view s) override {
    inner_->find(k, v, st, s);
  }
  void erase(std::span<const key_type> k, std::span<op_status> st, stream_view s) override {
    inner_->erase(k, st, s);
  }
  void apply(const op_batch& ops, std::span<value_type> r, std::span<op_status> st,
             stream_view s) override {
    inner_->apply(ops, r, st, s);
  }
  void insert(std::span<const wide_key> k, std::span<const wide_value> v, std::span<op_status> st,
              stream_view s) override {
    inner_->insert(k, v, st, s);
  }
  void find(std::span<const wide_key> k, std::span<wide_value> v, std::span<op_status> st,
            stream_view s) override {
    inner_->find(k, v, st, s);
  }
  void erase(std::span<const wide_key> k, std::span<op_status> st, stream_view s) override {
    inner_->erase(k, st, s);
  }
  void apply(const wide_op_batch& ops, std::span<wide_value> r, std::span<op_status> st,
             stream_view s) override {
    inner_->apply(ops, r, st, s);
  }
  std::uint64_t retrieve_all(std::span<wide_key> k, std::span<wide_value> v,
                             stream_view s) override {
    return inner_->retrieve_all(k, v, s);
  }
  void clear(stream_view s) override { inner_->clear(s); }
  table_stats stats(stream_view s) override { return inner_->stats(s); }
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override {
    inner_->inspect(req, out, s);
  }
  std::uint64_t retrieve_all(std::span<key_type> k, std::span<value_type> v,
                             stream_view s) override {
    return inner_->retrieve_all(k, v, s);
  }
  void rehash(std::uint64_t capacity, stream_view s) override { inner_->rehash(capacity, s); }
  table_state save_state(stream_view s) override { return inner_->save_state(s); }
  void restore_state(const table_state& st, stream_view s) override {
    inner_->restore_state(st, s);
  }

 private:
  std::unique_ptr<table> inner_;
};

}  // namespace hs::test
