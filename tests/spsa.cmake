# SPDX-License-Identifier: MIT
# scripts/spsa, the SPSA tuner of the search's constants (issue 13), against a fake match command.
if(EXISTS /usr/bin/python3)
  add_test(NAME spsa_py COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_spsa.py
           ${CMAKE_CURRENT_BINARY_DIR}/spsa.d)
  set_tests_properties(spsa_py PROPERTIES TIMEOUT 120)
endif()
