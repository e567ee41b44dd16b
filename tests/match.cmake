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
  if(TARGET hansu)
    target_compile_definitions(test_match PRIVATE HANSU_ENGINE_PATH="$<TARGET_FILE:hansu>")
    add_dependencies(test_match hansu)
  endif()
endif()
