# SPDX-License-Identifier: MIT
# The match tool: hansu_match (UCI child engines, referee, scheduler, statistics, PGN) and
# the hansu-match front end.
add_library(hansu_match STATIC
  ${CMAKE_CURRENT_LIST_DIR}/match.c
  ${CMAKE_CURRENT_LIST_DIR}/match_game.c
  ${CMAKE_CURRENT_LIST_DIR}/pgn.c
  ${CMAKE_CURRENT_LIST_DIR}/stats.c
  ${CMAKE_CURRENT_LIST_DIR}/uci_engine.c
)
target_include_directories(hansu_match PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(hansu_match PUBLIC hansu_core hansu_lock Threads::Threads m)

add_executable(hansu-match ${CMAKE_CURRENT_LIST_DIR}/match_main.c)
target_link_libraries(hansu-match PRIVATE hansu_match)
