# SPDX-License-Identifier: MIT
# Tests of the match tool (issue 5): statistics against known values and an SPRT simulation;
# matches against a fake engine (faults injected) and Fairy-Stockfish, resume.
if(TARGET hansu_match)
  hansu_add_test(test_stats SOURCES test_stats.c LIBS hansu_match TIMEOUT 120)
  add_executable(fake_engine fake_engine.c)
  target_link_libraries(fake_engine PRIVATE hansu_core)
  hansu_add_test(test_match SOURCES test_match.c LIBS hansu_match TIMEOUT 300)
  target_compile_definitions(test_match PRIVATE FAKE_ENGINE_PATH="$<TARGET_FILE:fake_engine>")
  add_dependencies(test_match fake_engine)
  # The front end: flags parsed, a crashing engine scored and restarted, summary printed.
  add_test(NAME match_cli COMMAND hansu-match
    --engine cmd=$<TARGET_FILE:fake_engine> arg=good name=A
    --engine cmd=$<TARGET_FILE:fake_engine> arg=crash arg=2 name=B
    --nodes 1 --games 4 --sprt elo0=0 elo1=5)
  set_tests_properties(match_cli PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "A wins by reason: crash 4  \\(restarts after faults: 0\\)")
  add_test(NAME match_cli_bad_flag COMMAND hansu-match --engine cmd=x --games)
  set_tests_properties(match_cli_bad_flag PROPERTIES WILL_FAIL TRUE TIMEOUT 10)
  if(TARGET hansu)
    target_compile_definitions(test_match PRIVATE HANSU_ENGINE_PATH="$<TARGET_FILE:hansu>")
    add_dependencies(test_match hansu)
  endif()
endif()
