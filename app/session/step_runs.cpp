#include "app/session/step_runs.hpp"

#include "core/common/format.hpp"

namespace hs::app {

void step_runs::compare_and_keep(step_trace& t, std::uint64_t point) {
  std::string id = std::to_string(point);
  for (const stepped_op& op : t.ops)
    id += strprintf(";%d:%llx:%llx", int(op.kind), static_cast<unsigned long long>(op.key),
                    static_cast<unsigned long long>(op.value));
  runs& r = runs_[id];
  std::vector<outcome> now;
  t.changed = 0;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    stepped_op& op = t.ops[i];
    now.push_back({op.status, op.result, op.slot_after});
    if (i >= r.last.size()) continue;
    const outcome& before = r.last[i];
    op.slot_last_run = before.slot;
    op.changed =
        before.status != op.status || before.result != op.result || before.slot != op.slot_after;
    t.changed += op.changed;
  }
  t.run = ++r.count;
  r.last = std::move(now);
  run_history::run kept;
  for (const stepped_op& op : t.ops) {
    kept.slots.push_back(op.slot_after);
    kept.changed.push_back(op.changed);
  }
  if (r.history.keys.empty())
    for (const stepped_op& op : t.ops) r.history.keys.push_back(op.key);
  r.history.runs.push_back(std::move(kept));
  if (r.history.runs.size() > k_runs_kept) r.history.runs.erase(r.history.runs.begin());
  last_ = &r;
}

}  // namespace hs::app
