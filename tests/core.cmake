# SPDX-License-Identifier: MIT
# Tests of the rules core (issue 2): perft and move lists against the oracle, end-of-game
# rules and the oracle cases, board invariants along random games, bad input, UCI/CLI perft.
# The deep perft rows (over 3 million nodes) carry the label `slow`.
add_library(hansu_core_testutil STATIC oracle_util.c rules_expect.c)
target_link_libraries(hansu_core_testutil PUBLIC hansu_core PkgConfig::CMOCKA)
target_compile_definitions(hansu_core_testutil PRIVATE HANSU_ORACLE_DIR="${HANSU_ORACLE_DIR}")

hansu_add_test(test_perft SOURCES test_perft.c LIBS hansu_core_testutil TIMEOUT 300)
hansu_add_test(test_perft_slow SOURCES test_perft.c LIBS hansu_core_testutil
               LABELS slow TIMEOUT 3600)
target_compile_definitions(test_perft_slow PRIVATE PERFT_SLOW=1)
hansu_add_test(test_rules SOURCES test_rules.c LIBS hansu_core_testutil TIMEOUT 60)
hansu_add_test(test_variant SOURCES test_variant.c TIMEOUT 60)
hansu_add_test(test_xiangqi SOURCES test_xiangqi.c TIMEOUT 60)
# Xiangqi's end rules and tests/oracle/cases_xiangqi.md; the slow build adds perft 5 of X03.
hansu_add_test(test_xiangqi_rules SOURCES test_xiangqi_rules.c LIBS hansu_core_testutil
               TIMEOUT 120)
hansu_add_test(test_xiangqi_rules_slow SOURCES test_xiangqi_rules.c LIBS hansu_core_testutil
               LABELS slow TIMEOUT 1200)
target_compile_definitions(test_xiangqi_rules_slow PRIVATE XIANGQI_RULES_SLOW=1)
hansu_add_test(test_cases SOURCES test_cases.c LIBS hansu_core_testutil TIMEOUT 60)
hansu_add_test(test_board SOURCES test_board.c LIBS hansu_core_testutil TIMEOUT 300)
# The quiet-check generator of quiescence against make/test brute force.
hansu_add_test(test_movegen SOURCES test_movegen.c LIBS hansu_core_testutil TIMEOUT 300)
hansu_add_test(test_fen SOURCES test_fen.c LIBS hansu_core_testutil TIMEOUT 60)
hansu_add_test(test_openings SOURCES test_openings.c TIMEOUT 60)
# Runs the built `hansu` executable.
hansu_add_test(test_core_uci SOURCES test_core_uci.c LIBS hansu_core_testutil TIMEOUT 60)
add_dependencies(test_core_uci hansu)
# tests/oracle/ equals the upstream reference set where that set sits beside the checkout;
# skipped (code 77) in a clone without it.
add_test(NAME oracle_sync COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/oracle_sync.sh)
set_tests_properties(oracle_sync PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 30)
# Xiangqi FENs and UCI moves against Fairy-Stockfish's `xiangqi`; skipped (code 77) without it.
add_test(NAME xiangqi_fsf_io
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/xiangqi_fsf_io.sh $<TARGET_FILE:hansu>)
set_tests_properties(xiangqi_fsf_io PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
