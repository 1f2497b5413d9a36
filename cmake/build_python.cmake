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

# hs_pip_install(WHAT [ONLY_BINARY] REQUIREMENTS "name==version --hash=sha256:..." ...): installs
# the pinned packages into the build tree's environment, every file checked by its hash (pip
# --require-hashes; a package's dependencies are listed too, since pip then takes none on its own),
# once per set of pins. ONLY_BINARY: wheels only. Needs the network at the first configure.
function(hs_pip_install what)
  cmake_parse_arguments(P "ONLY_BINARY" "" "REQUIREMENTS" ${ARGN})
  string(SHA256 pins "${P_REQUIREMENTS}")
  set(stamp ${CMAKE_BINARY_DIR}/py-venv/${what}-${pins})
  if(EXISTS ${stamp})
    return()
  endif()
  hs_build_python(python)
  set(requirements ${CMAKE_BINARY_DIR}/${what}-requirements.txt)
  list(JOIN P_REQUIREMENTS "\n" lines)
  file(WRITE ${requirements} "${lines}\n")
  set(binary "")
  if(P_ONLY_BINARY)
    set(binary --only-binary=:all:)
  endif()
  execute_process(COMMAND ${python} -m pip install --quiet --disable-pip-version-check --no-deps
      ${binary} --require-hashes -r ${requirements} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "pip could not install ${what} (${requirements}) from PyPI (the first "
      "configure of a build tree needs the network): ${err}")
  endif()
  file(TOUCH ${stamp})
endfunction()
