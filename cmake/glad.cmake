# Generates the OpenGL 4.5 core + EGL 1.5 loader with glad2, installed from PyPI into the build
# tree's virtual environment. Generation is offline (--reproducible uses the specifications
# bundled in the package); only the pip install needs the network, once per build tree.
include(build_python)
set(HS_GLAD_VERSION 2.0.8)
set(HS_GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
set(HS_GLAD_EXTENSIONS
  GL_KHR_debug
  EGL_EXT_platform_base EGL_EXT_platform_device EGL_EXT_device_base EGL_EXT_device_enumeration
  EGL_EXT_device_query EGL_MESA_platform_surfaceless EGL_KHR_surfaceless_context
  EGL_KHR_create_context EGL_NV_device_cuda EGL_EXT_device_drm)
list(JOIN HS_GLAD_EXTENSIONS "," hs_glad_ext)
set(hs_glad_args --quiet --reproducible --api gl:core=4.5,egl=1.5 --extensions ${hs_glad_ext}
    --out-path ${HS_GLAD_OUT} c --loader)
string(SHA1 hs_glad_stamp "${HS_GLAD_VERSION};${hs_glad_args}")

if(NOT EXISTS ${HS_GLAD_OUT}/stamp-${hs_glad_stamp})
  # glad2 and what it imports, each file by hash: MarkupSafe's wheels for Debian 12's Python 3.11
  # and Ubuntu 24.04's 3.12, and its source for any other.
  hs_pip_install(glad REQUIREMENTS
    "glad2==${HS_GLAD_VERSION} --hash=sha256:cfe84018233043554710aa747d0bf4be55015154f8bcd451765d1984bcc9d70b"
    "jinja2==3.1.6 --hash=sha256:85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"
    "markupsafe==3.0.4 --hash=sha256:6da83a088f8ef93b2d483a8232a4dbf4d69d3d8496b568a03c56becac43e1808 --hash=sha256:8e124f974786f831d6043728e38296969d3579db8896fe004682f5758e613581 --hash=sha256:2e9ad7dd851bf45fab9f75cbff4cb493fee9979e8d8c7c9c3ee119022518edd6")
  hs_build_python(hs_glad_python)
  file(REMOVE_RECURSE ${HS_GLAD_OUT})
  execute_process(COMMAND ${hs_glad_python} -m glad ${hs_glad_args} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "glad2 failed to generate the OpenGL/EGL loader: ${err}")
  endif()
  file(TOUCH ${HS_GLAD_OUT}/stamp-${hs_glad_stamp})
endif()

add_library(hs_glad STATIC ${HS_GLAD_OUT}/src/gl.c ${HS_GLAD_OUT}/src/egl.c)
target_include_directories(hs_glad SYSTEM PUBLIC ${HS_GLAD_OUT}/include)
target_link_libraries(hs_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(hs_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
