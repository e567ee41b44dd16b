# SPDX-License-Identifier: MIT
# The front ends' shared helpers (issue 11): engine/cli.h's number parsers and JSON result files;
# hansu-match's, hansu-selfplay's and hansu-tune's --json outputs (docs/json-outputs.md) and scripts/train's
# reading of them.
hansu_add_test(test_cli SOURCES test_cli.c TIMEOUT 30)
hansu_add_test(test_flags SOURCES test_flags.c TIMEOUT 30)
if(TARGET hansu-match AND TARGET hansu-selfplay AND TARGET hansu-tune AND EXISTS /usr/bin/python3)
  add_test(NAME json_outputs_py COMMAND /usr/bin/python3
           ${CMAKE_CURRENT_SOURCE_DIR}/test_json_outputs.py $<TARGET_FILE:hansu-match>
           $<TARGET_FILE:fake_engine> $<TARGET_FILE:hansu-selfplay>
           ${CMAKE_CURRENT_BINARY_DIR}/json_outputs.d $<TARGET_FILE:hansu-tune>)
  set_tests_properties(json_outputs_py PROPERTIES TIMEOUT 120)
endif()
# Output files of the front ends (issue 23 §5): a file size limit, one writer of a tuner's
# --out, merge over an existing file.
if(TARGET hansu-selfplay AND TARGET hansu-tune)
  add_test(NAME cli_files COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_files.sh
           $<TARGET_FILE:hansu-selfplay> $<TARGET_FILE:hansu-tune>
           ${CMAKE_CURRENT_BINARY_DIR}/cli_files.d)
  set_tests_properties(cli_files PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "all checks passed")
endif()
# Every front end's --help (generated from its flag table, engine/flags.h) exits 0 and lists the
# parser's own --help last: no table entry without its help line (flags_help asserts it).
if(TARGET hansu AND TARGET hansu-selfplay AND TARGET hansu-match AND TARGET hansu-tune)
  add_test(NAME cli_help COMMAND sh -c
    "for c in '$<TARGET_FILE:hansu>' '$<TARGET_FILE:hansu> perft' '$<TARGET_FILE:hansu> bench' \
'$<TARGET_FILE:hansu-selfplay>' '$<TARGET_FILE:hansu-selfplay> merge' \
'$<TARGET_FILE:hansu-selfplay> export' '$<TARGET_FILE:hansu-selfplay> verify' \
'$<TARGET_FILE:hansu-match>' '$<TARGET_FILE:hansu-tune>'; do \
$c --help >help.out 2>&1 || { echo \"FAIL: $c --help\"; exit 1; }; \
grep -q -- '--help' help.out || { echo \"FAIL: $c --help lists no --help\"; exit 1; }; done; \
echo all help texts")
  set_tests_properties(cli_help PROPERTIES TIMEOUT 30 PASS_REGULAR_EXPRESSION "all help texts"
    FAIL_REGULAR_EXPRESSION "FAIL")
endif()
