# System dependencies, all from Debian/Ubuntu packages (scripts/install-deps.sh installs them).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(glfw3 3.3 REQUIRED)
find_package(Catch2 3 QUIET)

# Dear ImGui: Debian ships the core as a static library and the backends as example sources.
find_path(HS_IMGUI_INCLUDE imgui.h PATH_SUFFIXES imgui REQUIRED)
find_library(HS_IMGUI_LIB imgui REQUIRED)
find_path(HS_IMGUI_BACKENDS imgui_impl_opengl3.cpp
  PATHS /usr/share/doc/libimgui-dev/examples/backends /usr/share/imgui/backends REQUIRED)

# stb_image_write: declarations in /usr/include/stb, implementation in libstb.
find_path(HS_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb REQUIRED)
find_library(HS_STB_LIB NAMES libstb.a stb REQUIRED)  # static: one less runtime dependency
add_library(hs_stb INTERFACE)
target_include_directories(hs_stb SYSTEM INTERFACE ${HS_STB_INCLUDE})
target_link_libraries(hs_stb INTERFACE ${HS_STB_LIB})

# A TrueType font for readable text on projectors; the ImGui default font is the fallback.
find_file(HS_FONT_FILE DejaVuSans.ttf PATHS /usr/share/fonts/truetype/dejavu)

# Dear ImGui core (Debian's static library) and the GLFW + OpenGL 3 backends compiled here,
# with glad as their OpenGL loader (the backend's own loader is disabled).
add_library(hs_imgui INTERFACE)
target_include_directories(hs_imgui SYSTEM INTERFACE ${HS_IMGUI_INCLUDE} ${HS_IMGUI_INCLUDE}/backends)
target_link_libraries(hs_imgui INTERFACE ${HS_IMGUI_LIB} hs_stb)
