# SPDX-License-Identifier: MIT
# The front ends' shared helpers (issue 11): engine/cli.h's number parsers and JSON result files;
# hansu-match's, hansu-selfplay's and hansu-tune's --json outputs (docs/json-outputs.md) and scripts/train's
# reading of them.
hansu_add_test(test_cli SOURCES test_cli.c TIMEOUT 30)
if(TARGET hansu-match AND TARGET hansu-selfplay AND TARGET hansu-tune AND EXISTS /usr/bin/python3)
  add_test(NAME json_outputs_py COMMAND /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/test_json_outputs.py $<TARGET_FILE:hansu-match>
           $<TARGET_FILE:fake_engine> $<TARGET_FILE:hansu-selfplay>
           ${CMAKE_CURRENT_BINARY_DIR}/json_outputs.d $<TARGET_FILE:hansu-tune>)
  set_tests_properties(json_outputs_py PROPERTIES TIMEOUT 120)
endif()
