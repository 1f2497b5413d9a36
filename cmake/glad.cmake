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
  hs_build_python(hs_glad_python)
  execute_process(COMMAND ${hs_glad_python} -m pip install --quiet --disable-pip-version-check
      glad2==${HS_GLAD_VERSION} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "pip could not install glad2==${HS_GLAD_VERSION} from PyPI: ${err}")
  endif()
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
