# One Python virtual environment inside the build tree for the build's own PyPI tools (glad2, and
# pip to fetch source distributions). Created once per build tree; needs python3-venv.
find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)

function(hs_build_python out_var)
  set(venv ${CMAKE_BINARY_DIR}/py-venv)
  if(NOT EXISTS ${venv}/bin/python)
    execute_process(COMMAND ${Python3_EXECUTABLE} -m venv ${venv} RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "Could not create a Python virtual environment in the build tree (${err}). "
        "Install python3-venv (scripts/install-deps.sh does).")
    endif()
  endif()
  set(${out_var} ${venv}/bin/python PARENT_SCOPE)
endfunction()
