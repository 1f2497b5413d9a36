// The numbers: every number behind the views, one list (numbers(frame_state)), drawn in a table
// of names and values. It keeps the rows it drew last, for the tests that read what it shows.
#pragma once
#include "app/ui/panels/panel.hpp"

namespace hs::app {

class numbers_panel final : public panel {
 public:
  const char* title() const override;
  void draw(frame_state& f) override;
  const number_rows& drawn() const { return drawn_; }

 private:
  number_rows drawn_;
};

/// @brief The rows as a table of two columns (one, names above values, where too narrow).
void draw_number_rows(const number_rows& rows);

}  // namespace hs::app
