# Dear ImGui 1.93 (docking branch, with its GLFW and OpenGL 3 backends), ImPlot, the Dear ImGui
# Test Engine, ImFileDialog and ImGuiColorTextEdit, from the C++ sources that PyPI's imgui-bundle
# source distribution carries under external/. Fetched once per build tree with pip (pinned
# version, checked against its sha256), then only those folders are extracted; later configures
# and builds need no network.
#
# ImGui is compiled with the Test Engine's hooks (IMGUI_ENABLE_TEST_ENGINE) so that one build of
# ImGui and ImPlot serves the app and the tests. The Test Engine itself (its license: free for
# open-source and educational use) is linked into the tests only; the shipped hashscope links
# app/platform/imgui_hooks_off.cpp, whose hooks do nothing.
include(build_python)
set(HS_IMGUI_BUNDLE_VERSION 1.93.0)
set(HS_IMGUI_BUNDLE_SHA256 10ad1dab8258a6787b4f07bb926b08d0efc648a7906242568c8dd778c5e719bf)
set(hs_bundle_download ${CMAKE_BINARY_DIR}/_deps/download)
set(hs_bundle_archive ${hs_bundle_download}/imgui_bundle-${HS_IMGUI_BUNDLE_VERSION}.tar.gz)
set(HS_IMGUI_BUNDLE_DIR ${CMAKE_BINARY_DIR}/_deps/imgui-bundle-${HS_IMGUI_BUNDLE_VERSION})
# The stamp names what is extracted too: a build tree extracted for fewer folders extracts again.
set(hs_bundle_stamp ${HS_IMGUI_BUNDLE_DIR}/stamp-${HS_IMGUI_BUNDLE_SHA256}-imgui-implot-te-ifd-cte)

function(hs_check_bundle_archive ok_var)
  set(${ok_var} FALSE PARENT_SCOPE)
  if(EXISTS ${hs_bundle_archive})
    file(SHA256 ${hs_bundle_archive} got)
    if(got STREQUAL HS_IMGUI_BUNDLE_SHA256)
      set(${ok_var} TRUE PARENT_SCOPE)
    else()
      message(WARNING "imgui-bundle archive has sha256 ${got}, expected ${HS_IMGUI_BUNDLE_SHA256}: fetching it again")
      file(REMOVE ${hs_bundle_archive})
    endif()
  endif()
endfunction()

if(NOT EXISTS ${hs_bundle_stamp})
  hs_check_bundle_archive(hs_bundle_ok)
  if(NOT hs_bundle_ok)
    message(STATUS "Fetching imgui-bundle ${HS_IMGUI_BUNDLE_VERSION} (source distribution, ~54 MB) from PyPI")
    hs_build_python(hs_bundle_python)
    execute_process(COMMAND ${hs_bundle_python} -m pip download --quiet --disable-pip-version-check
        --no-deps --no-binary=:all: imgui-bundle==${HS_IMGUI_BUNDLE_VERSION} -d ${hs_bundle_download}
      RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "pip could not fetch imgui-bundle==${HS_IMGUI_BUNDLE_VERSION} from PyPI "
        "(the first configure of a build tree needs the network): ${err}")
    endif()
    hs_check_bundle_archive(hs_bundle_ok)
    if(NOT hs_bundle_ok)
      message(FATAL_ERROR "imgui-bundle ${HS_IMGUI_BUNDLE_VERSION} from PyPI is missing or does not match its pinned sha256")
    endif()
  endif()
  set(hs_root imgui_bundle-${HS_IMGUI_BUNDLE_VERSION}/external)
  set(hs_tmp ${HS_IMGUI_BUNDLE_DIR}-extracting)
  file(REMOVE_RECURSE ${HS_IMGUI_BUNDLE_DIR} ${hs_tmp})
  file(ARCHIVE_EXTRACT INPUT ${hs_bundle_archive} DESTINATION ${hs_tmp}
    PATTERNS ${hs_root}/imgui/imgui/* ${hs_root}/implot/implot/*
             ${hs_root}/imgui_test_engine/imgui_test_engine/imgui_test_engine/*
             ${hs_root}/ImFileDialog/ImFileDialog/*
             ${hs_root}/ImGuiColorTextEdit/ImGuiColorTextEdit/TextEditor.*)
  file(MAKE_DIRECTORY ${HS_IMGUI_BUNDLE_DIR})
  file(RENAME ${hs_tmp}/${hs_root}/imgui/imgui ${HS_IMGUI_BUNDLE_DIR}/imgui)
  file(RENAME ${hs_tmp}/${hs_root}/implot/implot ${HS_IMGUI_BUNDLE_DIR}/implot)
  file(RENAME ${hs_tmp}/${hs_root}/imgui_test_engine/imgui_test_engine/imgui_test_engine
              ${HS_IMGUI_BUNDLE_DIR}/imgui_test_engine)
  file(RENAME ${hs_tmp}/${hs_root}/ImFileDialog/ImFileDialog ${HS_IMGUI_BUNDLE_DIR}/ImFileDialog)
  file(RENAME ${hs_tmp}/${hs_root}/ImGuiColorTextEdit/ImGuiColorTextEdit
              ${HS_IMGUI_BUNDLE_DIR}/ImGuiColorTextEdit)
  file(REMOVE_RECURSE ${hs_tmp})
  file(TOUCH ${hs_bundle_stamp})
endif()

set(hs_imgui_src ${HS_IMGUI_BUNDLE_DIR}/imgui)
add_library(hs_imgui STATIC
  ${hs_imgui_src}/imgui.cpp ${hs_imgui_src}/imgui_draw.cpp ${hs_imgui_src}/imgui_tables.cpp
  ${hs_imgui_src}/imgui_widgets.cpp ${hs_imgui_src}/imgui_demo.cpp
  ${hs_imgui_src}/imgui_stacklayout.cpp  # imgui-bundle's ImGui calls into its stack layout on error recovery
  ${hs_imgui_src}/misc/cpp/imgui_stdlib.cpp)  # InputText on std::string
target_include_directories(hs_imgui SYSTEM PUBLIC ${hs_imgui_src} ${hs_imgui_src}/backends ${hs_imgui_src}/misc/cpp)
target_compile_definitions(hs_imgui PUBLIC IMGUI_ENABLE_TEST_ENGINE IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_compile_options(hs_imgui PRIVATE -w)
set_target_properties(hs_imgui PROPERTIES POSITION_INDEPENDENT_CODE ON)

# The GLFW and OpenGL 3 backends, with glad as the OpenGL loader (the backend's own is disabled).
add_library(hs_imgui_backends STATIC
  ${hs_imgui_src}/backends/imgui_impl_glfw.cpp ${hs_imgui_src}/backends/imgui_impl_opengl3.cpp)
target_compile_definitions(hs_imgui_backends PUBLIC IMGUI_IMPL_OPENGL_LOADER_CUSTOM)
target_compile_options(hs_imgui_backends PRIVATE -include glad/gl.h -w)
target_link_libraries(hs_imgui_backends PUBLIC hs_imgui hs_glad glfw)

set(hs_implot_src ${HS_IMGUI_BUNDLE_DIR}/implot)
add_library(hs_implot STATIC ${hs_implot_src}/implot.cpp ${hs_implot_src}/implot_items.cpp)
target_include_directories(hs_implot SYSTEM PUBLIC ${hs_implot_src})
target_compile_options(hs_implot PRIVATE -w)
target_link_libraries(hs_implot PUBLIC hs_imgui)

# ImFileDialog: the File menu's dialogs, drawn by Dear ImGui (so they work wherever the window
# does, under Xvfb and with the Test Engine). Its file previews decode images with stb_image.
set(hs_ifd_src ${HS_IMGUI_BUNDLE_DIR}/ImFileDialog)
add_library(hs_imfiledialog STATIC ${hs_ifd_src}/ImFileDialog.cpp)
target_include_directories(hs_imfiledialog SYSTEM PUBLIC ${hs_ifd_src})
target_include_directories(hs_imfiledialog SYSTEM PRIVATE ${HS_IMGUI_BUNDLE_DIR} ${HS_STB_INCLUDE})
target_compile_options(hs_imfiledialog PRIVATE -w)
set_target_properties(hs_imfiledialog PROPERTIES CXX_STANDARD 17)  # written for C++17 (u8string as std::string)
target_link_libraries(hs_imfiledialog PUBLIC hs_imgui hs_stb Threads::Threads)

# ImGuiColorTextEdit: the Code panel shows the device code that ran, highlighted, read-only, with
# a marker on the line the step is at.
set(hs_cte_src ${HS_IMGUI_BUNDLE_DIR}/ImGuiColorTextEdit)
add_library(hs_text_editor STATIC ${hs_cte_src}/TextEditor.cpp)
target_include_directories(hs_text_editor SYSTEM PUBLIC ${hs_cte_src})
target_include_directories(hs_text_editor SYSTEM PRIVATE ${HS_IMGUI_BUNDLE_DIR}/imgui)
target_compile_options(hs_text_editor PRIVATE -w)
target_link_libraries(hs_text_editor PUBLIC hs_imgui)

# Tests only (see above). Coroutines on std::thread; test functions as std::function (lambdas
# that capture the test's state).
set(hs_te_src ${HS_IMGUI_BUNDLE_DIR}/imgui_test_engine)
add_library(hs_imgui_test_engine STATIC
  ${hs_te_src}/imgui_capture_tool.cpp ${hs_te_src}/imgui_te_context.cpp ${hs_te_src}/imgui_te_coroutine.cpp
  ${hs_te_src}/imgui_te_engine.cpp ${hs_te_src}/imgui_te_exporters.cpp ${hs_te_src}/imgui_te_perftool.cpp
  ${hs_te_src}/imgui_te_ui.cpp ${hs_te_src}/imgui_te_utils.cpp)
target_include_directories(hs_imgui_test_engine SYSTEM PUBLIC ${HS_IMGUI_BUNDLE_DIR} ${hs_te_src})
target_compile_definitions(hs_imgui_test_engine PUBLIC IMGUI_TEST_ENGINE_ENABLE_COROUTINE_STDTHREAD_IMPL=1
  IMGUI_TEST_ENGINE_ENABLE_STD_FUNCTION=1)
target_compile_options(hs_imgui_test_engine PRIVATE -w)
target_link_libraries(hs_imgui_test_engine PUBLIC hs_imgui Threads::Threads)
