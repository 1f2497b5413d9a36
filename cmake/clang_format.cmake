# clang-format for the test suite's formatting check, pinned and checked: the same version on every
# machine (Debian 12's is 14, Ubuntu 24.04's 18, and they format differently), installed from PyPI
# into the build tree's virtual environment at the first configure. Sets HS_CLANG_FORMAT.
include(build_python)
set(HS_CLANG_FORMAT_VERSION 18.1.8)
# The x86_64 manylinux wheel's sha256 (pip refuses any other file).
set(HS_CLANG_FORMAT_SHA256 2de122b8aa78ba49e326f974131caab2c79f4ae877c227cd4e3e5d82a98d21e5)
set(HS_CLANG_FORMAT ${CMAKE_BINARY_DIR}/py-venv/bin/clang-format)
hs_pip_install(clang-format ONLY_BINARY REQUIREMENTS
  "clang-format==${HS_CLANG_FORMAT_VERSION} --hash=sha256:${HS_CLANG_FORMAT_SHA256}")
