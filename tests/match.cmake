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
  # An engine without a UCI_Variant option is named in a warning and plays (issue 23).
  add_test(NAME match_cli_no_variant_option COMMAND hansu-match
    --engine cmd=$<TARGET_FILE:fake_engine> name=A --engine cmd=$<TARGET_FILE:fake_engine> name=B
    --nodes 1 --games 2)
  set_tests_properties(match_cli_no_variant_option PROPERTIES TIMEOUT 60
    ENVIRONMENT "FAKE_ENGINE_VARIANTS="
    PASS_REGULAR_EXPRESSION "warning: engine B offers no UCI_Variant option: taken to play janggi natively")
  add_test(NAME match_cli_bad_flag COMMAND hansu-match --engine cmd=x --games)
  set_tests_properties(match_cli_bad_flag PROPERTIES WILL_FAIL TRUE TIMEOUT 10)
  if(TARGET hansu)
    target_compile_definitions(test_match PRIVATE HANSU_ENGINE_PATH="$<TARGET_FILE:hansu>")
    add_dependencies(test_match hansu)
  endif()
endif()
# Flag errors name the offending text; start failures say what happened.
if(TARGET hansu-match)
  set(hansu_match_pair --engine cmd=$<TARGET_FILE:fake_engine> --engine cmd=$<TARGET_FILE:fake_engine>
      --nodes 1)
  foreach(case
      "games_nan|--games;abc|--games: 'abc' is not a number"
      "sprt_nan|--sprt;elo0=a;elo1=b|--sprt elo0: 'a' is not a finite number"
      "sprt_inf|--sprt;elo0=-1e400;elo1=1e400|--sprt elo0: '-1e400' is not a finite number"
      "sprt_range|--sprt;elo0=-2000;elo1=5|need elo0 < elo1, both in -1000..1000"
      "sprt_alpha|--sprt;elo0=0;elo1=5;alpha=0.5|need 0 < alpha, beta < 0.5"
      "random_plies|--random-plies;500;--games;2|random-plies 500: must be 0..200"
      "unknown_flag|--bogus;3|unknown option --bogus"
      "stray_word|x|unexpected argument 'x'"
      "three_engines|--engine;cmd=x|more than two --engine"
      "variant_bad|--variant;shogi|--variant: .shogi. is not janggi or xiangqi")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts -1 want)
    list(SUBLIST parts 1 -1 args)
    list(LENGTH args nargs)
    math(EXPR nargs "${nargs} - 1")
    list(SUBLIST args 0 ${nargs} args)
    add_test(NAME match_cli_${name} COMMAND hansu-match ${hansu_match_pair} ${args})
    set_tests_properties(match_cli_${name} PROPERTIES TIMEOUT 20 PASS_REGULAR_EXPRESSION "${want}")
  endforeach()
  add_test(NAME match_cli_no_exec COMMAND hansu-match --engine cmd=/nonexistent
           --engine cmd=$<TARGET_FILE:fake_engine> --nodes 1 --games 2)
  set_tests_properties(match_cli_no_exec PROPERTIES TIMEOUT 20
    PASS_REGULAR_EXPRESSION "cannot execute /nonexistent: No such file or directory")
  add_test(NAME match_cli_exits COMMAND hansu-match --engine cmd=/bin/false
           --engine cmd=$<TARGET_FILE:fake_engine> --nodes 1 --games 2)
  set_tests_properties(match_cli_exits PROPERTIES TIMEOUT 20
    PASS_REGULAR_EXPRESSION "exited before uciok \\(exit status 1\\)")
endif()
