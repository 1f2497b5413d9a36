# lizard, the function-length counter behind the house rules' check (tests/docs/house_rules.py),
# pinned with its two dependencies and checked by hash, installed from PyPI into the build tree's
# virtual environment at the first configure. Sets HS_LIZARD.
include(build_python)
set(HS_LIZARD_REQUIREMENTS
  "lizard==1.24.3 --hash=sha256:f7fccd909719170e323a240cc6927bfea65984d77a8f9c0e6405be582e9861db"
  "pygments==2.21.0 --hash=sha256:2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"
  "pathspec==1.1.1 --hash=sha256:a00ce642f577bf7f473932318056212bc4f8bfdf53128c78bbd5af0b9b20b189")
set(HS_LIZARD ${CMAKE_BINARY_DIR}/py-venv/bin/lizard)
string(SHA256 hs_lizard_pins "${HS_LIZARD_REQUIREMENTS}")
set(hs_lizard_stamp ${CMAKE_BINARY_DIR}/py-venv/lizard-${hs_lizard_pins})
if(NOT EXISTS ${hs_lizard_stamp})
  hs_build_python(hs_lizard_python)
  set(hs_lizard_requirements_file ${CMAKE_BINARY_DIR}/lizard-requirements.txt)
  list(JOIN HS_LIZARD_REQUIREMENTS "\n" hs_lizard_lines)
  file(WRITE ${hs_lizard_requirements_file} "${hs_lizard_lines}\n")
  execute_process(COMMAND ${hs_lizard_python} -m pip install --quiet --disable-pip-version-check
      --no-deps --only-binary=:all: --require-hashes -r ${hs_lizard_requirements_file}
      RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "pip could not install lizard and its dependencies (pinned in "
      "cmake/lizard.cmake) from PyPI (the first configure of a build tree needs the network): ${err}")
  endif()
  file(TOUCH ${hs_lizard_stamp})
endif()
