// File > Save table and File > Open table as a person uses them: a hive table filled in the window
// is saved through the dialog (".hstable" added), the table is reset, and opening the file brings
// back every pair and count, drawn by the views; a corrupt file is refused with its name and the
// table the window holds stays as it was.
#include <filesystem>
#include <fstream>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "tests/support/table_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

namespace {
constexpr const char* k_open_table = "//Open a table file###hashscope-open-table";
constexpr const char* k_save_table = "//Save the table###hashscope-save-table";
}  // namespace

TEST_CASE("File > Save table and Open table bring back the table, every pair", "[ui][files]") {
  session_config cfg;
  cfg.table.family = family::hive;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = 1u << 12;
  cfg.workload.batch_size = 256;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  const fs::path dir = fs::temp_directory_path() / "hashscope-table-menu";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::pair<key_type, value_type>> saved, opened, after_bad;
  std::uint64_t live_drawn = 0;
  std::string bad_error;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.sess().fill_to(0.6);
    f.sess().wait_idle();
    saved = test::contents(f.sess().tbl());
    ctx->MenuClick("//##MainMenuBar/File/Save table...");
    test::choose_file(ctx, k_save_table, (dir / "class").string(), "Save");
    f.sess().reset();
    ctx->MenuClick("//##MainMenuBar/File/Open table...");
    test::choose_file(ctx, k_open_table, (dir / "class.hstable").string(), "Open");
    opened = test::contents(f.sess().tbl());
    const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
    test::wait_until(ctx, [&] { return heatmap->drawn().version >= f.sess().version(); });
    ctx->Yield(2);
    live_drawn = heatmap->drawn().stats.live;
    std::ofstream(dir / "bad.hstable") << "HSTABLE\nversion 1\nfamily hive\npart words 99\n\n";
    ctx->MenuClick("//##MainMenuBar/File/Open table...");
    test::choose_file(ctx, k_open_table, (dir / "bad.hstable").string(), "Open");
    bad_error = f.state().error;
    after_bad = test::contents(f.sess().tbl());
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(saved.size() > 2000);
  CHECK(fs::exists(dir / "class.hstable"));
  CHECK(opened == saved);
  CHECK(live_drawn == saved.size());
  CHECK_THAT(bad_error, ContainsSubstring("bad.hstable") && ContainsSubstring("truncated"));
  CHECK(after_bad == saved);
}
