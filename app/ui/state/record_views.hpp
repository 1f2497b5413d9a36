// The session's records as the views draw them: the session keeps batch_point, census_point and
// rebuild_event (app/session/records.hpp); the throughput and churn views take columns.
#pragma once
#include <span>

#include "app/session/records.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

/// @brief A series per kind of batch that ran (times from the first batch), and the last batch.
vis::throughput_input throughput_input_of(std::span<const batch_point> points);
/// @brief The timeline's columns and its rebuilds.
vis::churn_input churn_input_of(std::span<const census_point> points,
                                std::span<const rebuild_event> events);

}  // namespace hs::app
