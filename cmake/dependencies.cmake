# System dependencies, all from Debian/Ubuntu packages (scripts/install-deps.sh installs them).
# Dear ImGui, ImPlot and the Test Engine come from PyPI at configure time: cmake/imgui_bundle.cmake.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(glfw3 3.3 REQUIRED)
# cairo draws the paper-style figures as PNG, SVG and PDF from one drawing (visualizers/figure).
pkg_check_modules(CAIRO REQUIRED IMPORTED_TARGET cairo)
# nlohmann's JSON reads the bench reports back for `hashscope plot` (header-only).
find_package(nlohmann_json 3 REQUIRED)
# CLI11 parses the command line: every option defined once, with its check and its help line.
find_package(CLI11 2 REQUIRED)
find_package(Catch2 3 QUIET)

# stb_image_write: declarations in /usr/include/stb, implementation in libstb.
find_path(HS_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb REQUIRED)
find_library(HS_STB_LIB NAMES libstb.a stb REQUIRED)  # static: one less runtime dependency
add_library(hs_stb INTERFACE)
target_include_directories(hs_stb SYSTEM INTERFACE ${HS_STB_INCLUDE})
target_link_libraries(hs_stb INTERFACE ${HS_STB_LIB})

# A TrueType font for readable text on projectors; the ImGui default font is the fallback.
find_file(HS_FONT_FILE DejaVuSans.ttf PATHS /usr/share/fonts/truetype/dejavu)
