# lizard, the function-length counter behind the house rules' check (tests/docs/house_rules.py),
# pinned with its two dependencies and checked by hash. Sets HS_LIZARD.
include(build_python)
hs_pip_install(lizard ONLY_BINARY REQUIREMENTS
  "lizard==1.24.3 --hash=sha256:f7fccd909719170e323a240cc6927bfea65984d77a8f9c0e6405be582e9861db"
  "pygments==2.21.0 --hash=sha256:2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"
  "pathspec==1.1.1 --hash=sha256:a00ce642f577bf7f473932318056212bc4f8bfdf53128c78bbd5af0b9b20b189")
set(HS_LIZARD ${CMAKE_BINARY_DIR}/py-venv/bin/lizard)
