# SPDX-License-Identifier: MIT
# The janggi opening suite data/openings-janggi.fen and scripts/make-openings.py (issue 25).
if(TARGET hansu AND TARGET hansu-match AND EXISTS /usr/bin/python3)
  add_test(NAME make_openings_py COMMAND /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/test_make_openings.py ${PROJECT_BINARY_DIR}
           ${CMAKE_CURRENT_BINARY_DIR}/make_openings.d)
  set_tests_properties(make_openings_py PROPERTIES TIMEOUT 300)
endif()
